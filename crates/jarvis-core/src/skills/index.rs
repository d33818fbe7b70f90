//! The catalog, kept warm: rebuilt only when a `notify` watcher saw a change
//! under a skill root (or the roots themselves changed). Events only mark it
//! stale, so an editor's temp-file-and-rename save or a burst of a hundred
//! files costs one rebuild, at the next request.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};

use super::{Catalog, SkillRoot, discover};

#[derive(Default)]
struct State {
    roots: Vec<SkillRoot>,
    /// Which roots existed when they were last watched.
    present: Vec<bool>,
    catalog: Option<Catalog>,
    watcher: Option<RecommendedWatcher>,
}

#[derive(Default)]
pub struct SkillIndex {
    state: Mutex<State>,
    stale: Arc<AtomicBool>,
    rebuilds: AtomicU64,
}

impl SkillIndex {
    pub fn new() -> Self {
        Self::default()
    }

    /// How many times the catalog was rebuilt (for tests and `doctor`).
    pub fn rebuilds(&self) -> u64 {
        self.rebuilds.load(Ordering::Relaxed)
    }

    fn watch(&self, st: &mut State) {
        let stale = self.stale.clone();
        let watcher = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
            if let Ok(ev) = res
                && !matches!(ev.kind, EventKind::Access(_))
            {
                stale.store(true, Ordering::Release);
            }
        });
        st.watcher = match watcher {
            Ok(mut w) => {
                for r in &st.roots {
                    if r.path.is_dir()
                        && let Err(e) = w.watch(&r.path, RecursiveMode::Recursive)
                    {
                        tracing::warn!(
                            "cannot watch {}: {e}; skills there refresh on every request",
                            r.path.display()
                        );
                        self.stale.store(true, Ordering::Release);
                    }
                }
                Some(w)
            }
            Err(e) => {
                tracing::warn!("no file watcher ({e}); skills refresh on every request");
                None
            }
        };
    }

    /// The catalog for these roots, rebuilt only if something changed.
    pub fn catalog(&self, roots: Vec<SkillRoot>) -> Catalog {
        let mut st = match self.state.lock() {
            Ok(s) => s,
            Err(e) => e.into_inner(),
        };
        let present: Vec<bool> = roots.iter().map(|r| r.path.is_dir()).collect();
        if st.roots != roots || st.present != present {
            st.roots = roots;
            st.present = present;
            self.watch(&mut st);
            st.catalog = None;
        }
        let stale = self.stale.swap(false, Ordering::AcqRel) || st.watcher.is_none();
        if stale || st.catalog.is_none() {
            self.rebuilds.fetch_add(1, Ordering::Relaxed);
            st.catalog = Some(discover(&st.roots));
        }
        st.catalog.clone().unwrap_or_default()
    }

    /// Drops the cache (`Op::Reload`).
    pub fn invalidate(&self) {
        self.stale.store(true, Ordering::Release);
    }

    pub fn roots(&self) -> Vec<PathBuf> {
        self.state
            .lock()
            .map(|s| s.roots.iter().map(|r| r.path.clone()).collect())
            .unwrap_or_default()
    }
}
