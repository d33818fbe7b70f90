//! Word accuracy (1 - WER) the way the fixtures' own `wer.py` counts it, so
//! the tests, the CLI and the benchmark report the same number.

fn normalize(s: &str) -> Vec<String> {
    let lowered = s.to_lowercase().replace('’', "'");
    let cleaned: String = lowered
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '\'' || c == ' ' {
                c
            } else {
                ' '
            }
        })
        .collect();
    cleaned
        .split_whitespace()
        .map(|w| match w {
            "10" => "ten".to_string(),
            "3" => "three".to_string(),
            other => other.to_string(),
        })
        .collect()
}

/// Word-level edit distance between a reference and a hypothesis, and the
/// reference length.
pub fn word_errors(reference: &str, hypothesis: &str) -> (usize, usize) {
    let a = normalize(reference);
    let b = normalize(hypothesis);
    let mut d: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut prev = d[0];
        d[0] = i;
        for j in 1..=b.len() {
            let cur = d[j];
            d[j] = (d[j] + 1)
                .min(d[j - 1] + 1)
                .min(prev + usize::from(a[i - 1] != b[j - 1]));
            prev = cur;
        }
    }
    (d[b.len()], a.len())
}

/// Word accuracy over pairs of (reference, hypothesis), in percent.
pub fn word_accuracy<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> f64 {
    let (mut errors, mut words) = (0usize, 0usize);
    for (r, h) in pairs {
        let (e, n) = word_errors(r, h);
        errors += e;
        words += n;
    }
    if words == 0 {
        100.0
    } else {
        100.0 - 100.0 * errors as f64 / words as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_like_the_fixture_script() {
        assert_eq!(
            word_errors("Set a timer for ten minutes.", "set a timer for 10 minutes"),
            (0, 6)
        );
        assert_eq!(
            word_errors("Jarvis, open the runs page.", "Jarvis open the rooms page"),
            (1, 5)
        );
        assert!((word_accuracy([("a b c d", "a b c")]) - 75.0).abs() < 1e-9);
    }
}
