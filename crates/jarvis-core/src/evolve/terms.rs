//! What a request is about, as terms a similarity can be explained with:
//! the user's words lower-cased, the specifics (quoted text, numbers, paths,
//! addresses) taken out, filler words dropped, each word cut to its first
//! five letters (so "translate", "translation" and "translating" are one
//! term), and Chinese, which has no spaces, read as its characters and
//! their pairs. Two requests are as similar as the TF-IDF cosine of their
//! terms.

use std::collections::BTreeMap;

/// A request's terms with their counts.
pub type Terms = BTreeMap<String, u32>;

/// Words that say nothing about what is asked.
const FILLER: &[&str] = &[
    "a",
    "about",
    "again",
    "all",
    "also",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "been",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "for",
    "from",
    "get",
    "give",
    "go",
    "got",
    "had",
    "has",
    "have",
    "he",
    "her",
    "here",
    "him",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "just",
    "kindly",
    "let",
    "like",
    "me",
    "mine",
    "more",
    "much",
    "my",
    "need",
    "no",
    "not",
    "now",
    "of",
    "off",
    "ok",
    "okay",
    "on",
    "once",
    "one",
    "or",
    "our",
    "out",
    "over",
    "please",
    "pls",
    "plz",
    "quick",
    "quickly",
    "same",
    "she",
    "should",
    "so",
    "some",
    "than",
    "thank",
    "thanks",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "thing",
    "things",
    "this",
    "those",
    "to",
    "too",
    "up",
    "us",
    "very",
    "want",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "which",
    "while",
    "who",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "yours",
    "hey",
    "hi",
    "hello",
    "jarvis",
    "make",
    "help",
    "using",
    "use",
    "following",
    "below",
    "above",
    "text",
    "something",
    "anything",
    "everything",
    "another",
    "other",
    "stuff",
];

/// A word that says nothing about what is asked.
pub fn is_filler(word: &str) -> bool {
    FILLER.contains(&word)
}

/// Chinese characters that carry no topic (particles, pronouns, politeness).
const FILLER_ZH: &str = "的了吗呢吧啊呀请把给我你他她它们这那个一是在和与也就都还帮下";

fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF)
}

/// The text with its specifics taken out: whatever is quoted, URLs,
/// paths, e-mail addresses and numbers. What is left is the shape of the
/// request ("translate ‹…› into French").
pub fn normalise(text: &str) -> String {
    without_specifics(&text.to_lowercase())
}

/// [`normalise`] keeping the user's capitals: for saying the request back.
pub fn without_specifics(text: &str) -> String {
    let lower: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(lower.len());
    let mut closing: Option<char> = None;
    for (i, &c) in lower.iter().enumerate() {
        if let Some(end) = closing {
            // A single quote closes only where a word ends (`'it's'`).
            let ends = end != '\'' || !lower.get(i + 1).is_some_and(|n| n.is_alphanumeric());
            if c == end && ends {
                closing = None;
                out.push(' ');
            }
            continue;
        }
        // A single quote opens a quote where a word starts, not in `don't`.
        let starts_word = i == 0 || !lower[i - 1].is_alphanumeric();
        closing = match c {
            '"' => Some('"'),
            '\'' if starts_word && lower[i + 1..].contains(&'\'') => Some('\''),
            '`' => Some('`'),
            '“' => Some('”'),
            '‘' => Some('’'),
            '«' => Some('»'),
            '「' => Some('」'),
            '『' => Some('』'),
            '《' => Some('》'),
            _ => None,
        };
        if closing.is_none() {
            out.push(c);
        }
    }
    // An unclosed quote drops the rest: it was a specific too.
    out.split_whitespace()
        .filter(|w| {
            !(w.contains("://")
                || w.contains('/')
                || w.contains('@')
                || w.contains('\\')
                || w.chars().any(|c| c.is_ascii_digit()))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The terms of a request (see the module's comment).
pub fn terms(text: &str) -> Terms {
    let norm = normalise(text);
    let mut out = Terms::new();
    let mut add = |t: String| *out.entry(t).or_insert(0) += 1;
    let mut word = String::new();
    let mut han: Vec<char> = Vec::new();
    let flush_word = |word: &mut String, add: &mut dyn FnMut(String)| {
        if word.chars().count() >= 2 && !is_filler(word) {
            add(word.chars().take(5).collect());
        }
        word.clear();
    };
    let flush_han = |han: &mut Vec<char>, add: &mut dyn FnMut(String)| {
        for c in han.iter().filter(|c| !FILLER_ZH.contains(**c)) {
            add(c.to_string());
        }
        for pair in han.windows(2) {
            if !(FILLER_ZH.contains(pair[0]) && FILLER_ZH.contains(pair[1])) {
                add(pair.iter().collect());
            }
        }
        han.clear();
    };
    for c in norm.chars() {
        if is_cjk(c) {
            flush_word(&mut word, &mut add);
            han.push(c);
        } else if c.is_alphanumeric() || c == '\'' {
            flush_han(&mut han, &mut add);
            if c != '\'' {
                word.push(c);
            }
        } else {
            flush_word(&mut word, &mut add);
            flush_han(&mut han, &mut add);
        }
    }
    flush_word(&mut word, &mut add);
    flush_han(&mut han, &mut add);
    out
}

/// How many requests each term appeared in, and how many there were: the
/// inverse document frequency of a term is `ln((n + 1) / (df + 1)) + 1`,
/// so a term in every request still counts a little and a new one most.
#[derive(Debug, Clone, Default)]
pub struct Frequencies {
    pub docs: u64,
    pub df: BTreeMap<String, u64>,
}

impl Frequencies {
    pub fn idf(&self, term: &str) -> f64 {
        let df = self.df.get(term).copied().unwrap_or(0) as f64;
        ((self.docs as f64 + 1.0) / (df + 1.0)).ln() + 1.0
    }

    pub fn add(&mut self, t: &Terms) {
        self.docs += 1;
        for k in t.keys() {
            *self.df.entry(k.clone()).or_insert(0) += 1;
        }
    }

    /// TF-IDF cosine of two term sets: 1 for the same terms, 0 for none
    /// shared.
    pub fn cosine(&self, a: &Terms, b: &Terms) -> f64 {
        let w = |t: &str, n: u32| f64::from(n) * self.idf(t);
        let (mut dot, mut na, mut nb) = (0.0, 0.0, 0.0);
        for (t, &n) in a {
            let x = w(t, n);
            na += x * x;
            if let Some(&m) = b.get(t) {
                dot += x * w(t, m);
            }
        }
        for (t, &m) in b {
            let y = w(t, m);
            nb += y * y;
        }
        if na == 0.0 || nb == 0.0 {
            0.0
        } else {
            dot / (na.sqrt() * nb.sqrt())
        }
    }
}

/// Several requests' terms summed: a group's centre.
pub fn sum<'a>(all: impl IntoIterator<Item = &'a Terms>) -> Terms {
    let mut out = Terms::new();
    for t in all {
        for (k, n) in t {
            *out.entry(k.clone()).or_insert(0) += n;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specifics_are_taken_out_and_words_cut_to_their_stem() {
        assert_eq!(
            normalise("Translate \"Bonjour à tous\" into French, see https://x.org/a and 3 files"),
            "translate into french, see and files"
        );
        let t = terms("Please translate “the report” into French");
        assert_eq!(t.keys().collect::<Vec<_>>(), ["frenc", "trans"]);
        let u = terms("French translation of my notes, thanks");
        assert!(u.contains_key("trans") && u.contains_key("frenc"), "{u:?}");
    }

    #[test]
    fn chinese_is_read_as_characters_and_pairs() {
        let t = terms("请把这段话翻译成法语");
        for k in ["翻译", "法语", "翻", "译"] {
            assert!(t.contains_key(k), "{k}: {t:?}");
        }
        assert!(!t.contains_key("请"), "{t:?}");
        let u = terms("帮我翻译成法语：「你好」");
        let f = Frequencies::default();
        assert!(f.cosine(&t, &u) > 0.5, "{}", f.cosine(&t, &u));
    }

    #[test]
    fn the_cosine_weighs_rare_terms_more() {
        let mut f = Frequencies::default();
        for s in [
            "summarise my notes",
            "summarise the log",
            "translate into french",
        ] {
            f.add(&terms(s));
        }
        let a = terms("translate this into french");
        let b = terms("french translation please");
        let c = terms("summarise the launch notes");
        assert!(f.cosine(&a, &b) > 0.9, "{}", f.cosine(&a, &b));
        assert_eq!(f.cosine(&a, &c), 0.0);
        assert!((f.cosine(&a, &a) - 1.0).abs() < 1e-9);
        assert_eq!(f.cosine(&a, &Terms::new()), 0.0);
    }
}
