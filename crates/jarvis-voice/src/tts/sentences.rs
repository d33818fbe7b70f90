//! Splits streaming LLM text into speakable sentences, so the first one can
//! play while the rest is still being generated.

/// Feed text deltas; complete sentences come out as soon as they end.
#[derive(Debug, Default)]
pub struct SentenceSplitter {
    buf: String,
}

/// Latin terminators need a following space (or end of text) so "3.14" and
/// "e.g." inside a word do not split; CJK ones end a sentence on their own.
const LATIN_END: [char; 3] = ['.', '!', '?'];
const CJK_END: [char; 6] = ['。', '！', '？', '；', '…', '\n'];
/// Closing quotes/brackets that belong to the sentence they follow.
const CLOSERS: [char; 8] = ['"', '\'', ')', ']', '”', '’', '」', '）'];

impl SentenceSplitter {
    pub fn new() -> Self {
        Self::default()
    }

    /// Add a delta; returns the sentences it completed.
    pub fn push(&mut self, delta: &str) -> Vec<String> {
        self.buf.push_str(delta);
        let mut out = Vec::new();
        while let Some(end) = self.boundary() {
            let rest = self.buf.split_off(end);
            let sentence = std::mem::replace(&mut self.buf, rest);
            push_clean(&mut out, &sentence);
        }
        out
    }

    /// End of the stream: whatever is left is the last sentence.
    pub fn finish(&mut self) -> Option<String> {
        let rest = std::mem::take(&mut self.buf);
        let mut out = Vec::new();
        push_clean(&mut out, &rest);
        out.pop()
    }

    /// Byte index just past the first complete sentence, if any.
    fn boundary(&self) -> Option<usize> {
        let chars: Vec<(usize, char)> = self.buf.char_indices().collect();
        for (i, &(at, c)) in chars.iter().enumerate() {
            let cjk = CJK_END.contains(&c);
            if !cjk && !LATIN_END.contains(&c) {
                continue;
            }
            // Take repeated terminators and closers along ("?!", "。」").
            let mut j = i + 1;
            while j < chars.len()
                && (CLOSERS.contains(&chars[j].1)
                    || LATIN_END.contains(&chars[j].1)
                    || CJK_END.contains(&chars[j].1))
            {
                j += 1;
            }
            if cjk {
                return Some(chars.get(j).map_or(self.buf.len(), |p| p.0));
            }
            // Latin: only before whitespace; at the end of the buffer we
            // cannot know yet (the next delta may be "14").
            match chars.get(j) {
                Some(&(next_at, n)) if n.is_whitespace() => {
                    if c == '.' && is_abbreviation(&self.buf[..at]) {
                        continue;
                    }
                    return Some(next_at);
                }
                _ => continue,
            }
        }
        None
    }
}

fn is_abbreviation(before: &str) -> bool {
    let word = before
        .rsplit(|c: char| c.is_whitespace())
        .next()
        .unwrap_or("");
    matches!(
        word.to_ascii_lowercase().as_str(),
        "mr" | "mrs" | "ms" | "dr" | "st" | "vs" | "etc" | "e.g" | "i.e" | "no" | "jr" | "sr"
    ) || (word.len() == 1 && word.chars().all(|c| c.is_ascii_uppercase()))
}

/// Markdown the model writes is not read aloud.
fn push_clean(out: &mut Vec<String>, s: &str) {
    let cleaned: String = s
        .chars()
        .filter(|c| !matches!(c, '*' | '`' | '#' | '_'))
        .collect();
    let cleaned = cleaned.split_whitespace().collect::<Vec<_>>().join(" ");
    if cleaned.chars().any(|c| c.is_alphanumeric()) {
        out.push(cleaned);
    }
}

/// All sentences of a finished text.
pub fn split_sentences(text: &str) -> Vec<String> {
    let mut s = SentenceSplitter::new();
    let mut out = s.push(text);
    out.extend(s.finish());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latin_sentences_split_on_space_after_terminator() {
        assert_eq!(
            split_sentences("Hello there. Pi is 3.14 today! Is it? Yes."),
            ["Hello there.", "Pi is 3.14 today!", "Is it?", "Yes."]
        );
    }

    #[test]
    fn chinese_punctuation_ends_sentences() {
        assert_eq!(
            split_sentences("你好。今天天气很好！你要去哪里？好的"),
            ["你好。", "今天天气很好！", "你要去哪里？", "好的"]
        );
    }

    #[test]
    fn streaming_waits_for_the_boundary() {
        let mut s = SentenceSplitter::new();
        assert!(s.push("The value is 3.").is_empty());
        assert!(s.push("14 now").is_empty());
        assert_eq!(s.push(". Next"), ["The value is 3.14 now."]);
        assert_eq!(s.finish().as_deref(), Some("Next"));
    }

    #[test]
    fn abbreviations_and_markdown_are_handled() {
        assert_eq!(
            split_sentences("Ask Dr. Smith about **this**. Done."),
            ["Ask Dr. Smith about this.", "Done."]
        );
        assert_eq!(
            split_sentences("\"Really?!\" she said."),
            ["\"Really?!\"", "she said."]
        );
        assert!(split_sentences(" ... ").is_empty());
    }
}
