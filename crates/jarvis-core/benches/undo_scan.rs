//! What undo's scan adds to each command: the scan before (names, sizes,
//! times, the bytes of small files) and after, on project-shaped trees,
//! side by side with the floor — a bare metadata walk of the same tree
//! (what `find . -type f` costs).
//!
//! `cargo bench -p jarvis-core --bench undo_scan`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::Path;
use std::time::Instant;

use jarvis_core::undo::scan;

/// `files` files of ~2 KB (sources) and a few of 1 MB (assets), in folders of 50.
fn tree(root: &Path, files: usize) {
    for i in 0..files {
        let dir = root.join(format!("src/m{}", i / 50));
        std::fs::create_dir_all(&dir).unwrap();
        let size = if i % 100 == 99 { 1 << 20 } else { 2048 };
        std::fs::write(dir.join(format!("f{i}.rs")), vec![b'x'; size]).unwrap();
    }
}

fn walk_only(root: &Path) -> usize {
    let mut n = 0;
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let m = e.metadata().unwrap();
            if m.is_dir() {
                stack.push(e.path());
            } else {
                n += 1;
            }
        }
    }
    n
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    println!(
        "| tree | bare walk (floor) | scan before | scan after (nothing changed) | before + after |"
    );
    println!("|---|---|---|---|---|");
    for files in [200usize, 2_000, 10_000] {
        let d = tempfile::tempdir().unwrap();
        tree(d.path(), files);
        let ms = |f: &mut dyn FnMut()| {
            f();
            median(
                (0..7)
                    .map(|_| {
                        let t = Instant::now();
                        f();
                        t.elapsed().as_secs_f64() * 1e3
                    })
                    .collect(),
            )
        };
        let walk = ms(&mut || {
            walk_only(d.path());
        });
        let before = ms(&mut || {
            scan::before(d.path());
        });
        let after = ms(&mut || {
            let b = scan::before(d.path());
            let t = Instant::now();
            assert!(scan::after(d.path(), b).is_empty());
            std::hint::black_box(t);
        }) - before;
        println!(
            "| {files} files | {walk:.1} ms | {before:.1} ms | {after:.1} ms | {:.1} ms |",
            before + after
        );
    }
}
