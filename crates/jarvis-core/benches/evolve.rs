//! What noticing a request costs: the pattern detector's `observe` (terms,
//! the store's candidate groups, TF-IDF cosine, the write) with 1,000 and
//! 10,000 past requests in the store, side by side with the floor — the
//! same request inserted as a plain row into a SQLite file with the same
//! settings (WAL, synchronous=NORMAL), one transaction each. Then the
//! detector's precision and recall on the paraphrase set at three
//! thresholds.
//!
//! `cargo bench -p jarvis-core --bench evolve`

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Instant;

use jarvis_core::evolve::{detect, paraphrases};
use jarvis_core::store::Store;
use jarvis_protocol::settings::EvolveConfig;

const VERBS: &[&str] = &[
    "translate",
    "summarise",
    "list",
    "find",
    "rename",
    "convert",
    "explain",
    "draft",
    "check",
    "compare",
    "sort",
    "count",
    "fix",
    "review",
    "plan",
    "schedule",
    "download",
    "archive",
    "clean",
    "format",
];
const THINGS: &[&str] = &[
    "my notes",
    "the report",
    "these photos",
    "the invoices",
    "the meeting minutes",
    "my inbox",
    "the logs",
    "the budget sheet",
    "the README",
    "the test failures",
    "my calendar",
    "the contract",
    "the slides",
    "the changelog",
    "the backups",
    "the recipe",
    "my essay",
    "the dataset",
    "the screenshots",
    "the playlist",
];
const TAILS: &[&str] = &[
    "into French",
    "for tomorrow",
    "by date",
    "in the project folder",
    "as a table",
    "in three bullet points",
    "for the team",
    "before Friday",
    "into German",
    "as markdown",
    "and tell me what changed",
    "from last week",
    "to PDF",
    "in plain words",
    "by size",
];
const WORDS: &[&str] = &[
    "quarterly",
    "urgent",
    "draft",
    "old",
    "new",
    "shared",
    "private",
    "large",
    "small",
    "weekly",
    "monthly",
    "client",
    "vendor",
    "family",
    "travel",
    "garden",
    "kitchen",
    "music",
    "python",
    "rust",
    "budget",
    "tax",
    "holiday",
    "school",
    "doctor",
    "gym",
    "car",
    "house",
];

/// A request of the kind people type: a verb, a thing, a tail, a few
/// specifics (quoted text, numbers, paths) and now and then a rarer word.
fn request(rng: &mut fastrand::Rng) -> String {
    let mut s = format!(
        "{} {} {}",
        VERBS[rng.usize(..VERBS.len())],
        THINGS[rng.usize(..THINGS.len())],
        TAILS[rng.usize(..TAILS.len())]
    );
    for _ in 0..rng.usize(0..3) {
        s.push(' ');
        s.push_str(WORDS[rng.usize(..WORDS.len())]);
    }
    match rng.usize(..3) {
        0 => s.push_str(&format!(" “item {}”", rng.u32(..10_000))),
        1 => s.push_str(&format!(" ~/docs/f{}.txt", rng.u32(..10_000))),
        _ => {}
    }
    s
}

fn percentile(mut v: Vec<f64>, p: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * p).round() as usize]
}

/// Microseconds per call for the detector and for the plain insert, after
/// `past` requests.
fn measure(past: usize) -> [f64; 4] {
    let cfg = EvolveConfig::default();
    let mut rng = fastrand::Rng::with_seed(17);
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("jarvis.db")).unwrap();
    for i in 0..past {
        let text = request(&mut rng);
        detect::observe(
            &store,
            &cfg,
            &format!("s{}", i / 7),
            &format!("t{i}"),
            &text,
        )
        .unwrap();
    }
    let mut plain = rusqlite::Connection::open(dir.path().join("plain.db")).unwrap();
    plain.pragma_update(None, "journal_mode", "WAL").unwrap();
    plain.pragma_update(None, "synchronous", "NORMAL").unwrap();
    plain
        .execute_batch("CREATE TABLE requests (id INTEGER PRIMARY KEY, session_id TEXT, turn_id TEXT, at INTEGER, text TEXT)")
        .unwrap();
    let (mut ours, mut floor) = (Vec::new(), Vec::new());
    for i in 0..300 {
        let text = request(&mut rng);
        let t = Instant::now();
        detect::observe(&store, &cfg, "bench", &format!("b{i}"), &text).unwrap();
        ours.push(t.elapsed().as_secs_f64() * 1e6);
        let t = Instant::now();
        let tx = plain.transaction().unwrap();
        tx.execute(
            "INSERT INTO requests (session_id, turn_id, at, text) VALUES ('bench', ?1, 0, ?2)",
            rusqlite::params![format!("b{i}"), text],
        )
        .unwrap();
        tx.commit().unwrap();
        floor.push(t.elapsed().as_secs_f64() * 1e6);
    }
    [
        percentile(floor.clone(), 0.5),
        percentile(floor, 0.99),
        percentile(ours.clone(), 0.5),
        percentile(ours, 0.99),
    ]
}

fn main() {
    println!("| past requests | plain insert median | p99 | detector median | p99 |");
    println!("|---|---|---|---|---|");
    for past in [1_000usize, 10_000] {
        let [fm, fp, om, op] = measure(past);
        println!(
            "| {past} | {:.0} µs | {:.0} µs | {:.0} µs | {:.0} µs |",
            fm, fp, om, op
        );
    }
    println!();
    println!("| similarity threshold | precision | recall | pairs judged |");
    println!("|---|---|---|---|");
    for threshold in [0.35, 0.40, 0.50] {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("jarvis.db")).unwrap();
        let s = paraphrases::score(&store, threshold).unwrap();
        println!(
            "| {threshold:.2} | {:.2} | {:.2} | {} |",
            s.precision, s.recall, s.pairs
        );
    }
}
