//! A paraphrase set of our own for the repetition detector: ten requests
//! people repeat, each said five ways (two of them in Chinese), and thirty
//! one-off requests. `score` groups them as the detector does, one after
//! another, and says how precise the groups are.

use jarvis_protocol::settings::EvolveConfig;

use crate::store::{Store, StoreError};

pub const REPEATED: &[&[&str]] = &[
    &[
        "Translate this paragraph into French: \"the meeting moved to Friday\"",
        "Please translate 'good morning everyone' into French",
        "Can you translate my notes into French?",
        "French translation of the following, please: \"launch is on track\"",
        "translate “see you tomorrow” to French",
    ],
    &[
        "Summarise my meeting notes",
        "Give me a summary of the notes from today's meeting",
        "Can you summarise the meeting notes in notes/standup.md?",
        "Summarise the notes of the team meeting",
        "write a short summary of this meeting's notes",
    ],
    &[
        "What's the weather in Oslo?",
        "What is the weather like in Berlin tomorrow?",
        "Weather forecast for Paris please",
        "tell me the weather in Madrid",
        "How is the weather today in Rome?",
    ],
    &[
        "Convert 5 miles to kilometers",
        "How many kilometers is 26.2 miles?",
        "convert 13 miles into kilometers",
        "Miles to kilometers: 100",
        "please convert 3 miles to kilometers",
    ],
    &[
        "Write a commit message for my staged changes",
        "Draft a git commit message for these changes",
        "Suggest a commit message for the staged changes",
        "commit message for what I changed, please",
        "Give me a good commit message for the current changes",
    ],
    &[
        "Rename my screenshots by date",
        "Rename the screenshots in ~/Pictures by their date",
        "Can you rename these screenshots using the date they were taken?",
        "rename screenshots to their dates",
        "Please rename all screenshots by date",
    ],
    &[
        "请把这段话翻译成英文：「会议改到周五」",
        "帮我把这句翻译成英文「大家早上好」",
        "把我的笔记翻译成英文吧",
        "翻译成英文：「谢谢大家」",
        "请翻译成英文「明天见」",
    ],
    &[
        "总结一下今天的会议记录",
        "帮我总结这份会议记录",
        "请总结会议记录的要点",
        "把会议记录总结成三点",
        "总结上周的会议记录",
    ],
    &[
        "List the largest files in my folder",
        "Which files are the largest in this folder?",
        "Show me the largest files here",
        "find the largest files in the project folder",
        "list the ten largest files",
    ],
    &[
        "Draft a polite reply to this email",
        "Write a reply to the email from Ana",
        "Help me reply to this email politely",
        "draft an email reply saying I can't make it",
        "Reply to the email below, keep it short",
    ],
];

pub const ONE_OFF: &[&str] = &[
    "What is the capital of Norway?",
    "Explain how a B-tree works",
    "Set a timer for ten minutes",
    "Who wrote War and Peace?",
    "Open the skills page",
    "What time is it in Tokyo?",
    "Install the Python package requests",
    "Why does my build fail with a linker error?",
    "Read README.md and tell me what the project does",
    "Create a folder called drafts",
    "How do I undo the last git commit?",
    "Play some music",
    "What's 17 times 23?",
    "Turn on dark mode",
    "Explain the difference between TCP and UDP",
    "Remind me to call mum at 6",
    "Show my schedules",
    "Check my disk usage",
    "What does this error mean: permission denied",
    "Generate a random password",
    "Tell me a joke",
    "How many days until Christmas?",
    "Delete the temp folder in my project",
    "What's new in Rust 1.90?",
    "Find TODO comments in src",
    "今天星期几？",
    "帮我查一下北京的时间",
    "解释一下什么是递归",
    "打开设置页面",
    "给我讲个笑话",
];

/// How the detector grouped the set.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Score {
    /// Of the pairs put in one group, the share that are one intent.
    pub precision: f64,
    /// Of the pairs that are one intent, the share put in one group.
    pub recall: f64,
    /// Pairs put in one group.
    pub pairs: u32,
}

/// Runs the set through the detector itself (`observe`, on `store`, which
/// should be empty), the requests arriving intent by intent in turn, and
/// scores the groups it made pairwise.
pub fn score(store: &Store, threshold: f64) -> Result<Score, StoreError> {
    let cfg = EvolveConfig {
        similarity: threshold,
        ..EvolveConfig::default()
    };
    let mut items: Vec<(Option<usize>, &str)> = Vec::new();
    let longest = REPEATED.iter().map(|g| g.len()).max().unwrap_or(0);
    for round in 0..longest {
        for (intent, group) in REPEATED.iter().enumerate() {
            if let Some(t) = group.get(round) {
                items.push((Some(intent), t));
            }
        }
        for t in ONE_OFF.iter().skip(round * 6).take(6) {
            items.push((None, t));
        }
    }
    let mut assigned: Vec<(Option<usize>, Option<i64>)> = Vec::new();
    for (i, (intent, text)) in items.into_iter().enumerate() {
        let group = super::detect::observe(store, &cfg, "paraphrases", &format!("p{i}"), text)?;
        assigned.push((intent, group));
    }
    let (mut together, mut right, mut same) = (0u32, 0u32, 0u32);
    for (i, a) in assigned.iter().enumerate() {
        for b in &assigned[i + 1..] {
            let same_intent = a.0.is_some() && a.0 == b.0;
            if a.1.is_some() && a.1 == b.1 {
                together += 1;
                right += u32::from(same_intent);
            }
            same += u32::from(same_intent);
        }
    }
    let precision = if together == 0 {
        1.0
    } else {
        f64::from(right) / f64::from(together)
    };
    Ok(Score {
        precision,
        recall: f64::from(right) / f64::from(same.max(1)),
        pairs: together,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    fn at(threshold: f64) -> super::Score {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::store::Store::open(&dir.path().join("jarvis.db")).unwrap();
        super::score(&store, threshold).unwrap()
    }

    #[test]
    fn the_default_threshold_groups_paraphrases_and_little_else() {
        let t = jarvis_protocol::settings::EvolveConfig::default().similarity;
        let s = at(t);
        eprintln!("threshold {t}: {s:?}");
        assert!(s.precision >= 0.9, "{s:?}");
        assert!(s.recall >= 0.8, "{s:?}");
        // A looser threshold trades precision for recall, as it should.
        let loose = at(0.2);
        assert!(
            loose.recall >= s.recall && loose.precision <= s.precision,
            "{loose:?}"
        );
    }
}
