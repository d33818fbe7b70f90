//! Code that spells its calls in pieces reads as the call it makes:
//! `'o' + 's'` is `'os'`, `__import__('os')` is `os`, `getattr(os,
//! 'system')` is `os.system`. Folded first, the markers the code rules look
//! for are found however the call was assembled.

/// A piece of code: a string literal (its quote and text) or anything else.
enum Piece {
    Lit(char, String),
    Code(String),
}

fn pieces(code: &str) -> Vec<Piece> {
    let b: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut other = String::new();
    let mut i = 0;
    while i < b.len() {
        let q = b[i];
        if q == '\'' || q == '"' {
            let mut j = i + 1;
            let mut s = String::new();
            while j < b.len() && b[j] != q {
                if b[j] == '\\' && j + 1 < b.len() {
                    s.push(b[j]);
                    s.push(b[j + 1]);
                    j += 2;
                    continue;
                }
                s.push(b[j]);
                j += 1;
            }
            if j >= b.len() {
                // Unclosed: not a literal after all.
                other.extend(&b[i..]);
                break;
            }
            if !other.is_empty() {
                out.push(Piece::Code(std::mem::take(&mut other)));
            }
            out.push(Piece::Lit(q, s));
            i = j + 1;
        } else {
            other.push(q);
            i += 1;
        }
    }
    if !other.is_empty() {
        out.push(Piece::Code(other));
    }
    out
}

/// `'a' + 'b'` (Python, JavaScript, Ruby) and `'a' . 'b'` (Perl, PHP)
/// joined into one literal.
fn join_literals(code: &str) -> String {
    let mut out: Vec<Piece> = Vec::new();
    for p in pieces(code) {
        match p {
            Piece::Lit(q, s) => {
                let joins = matches!(
                    out.as_slice(),
                    [.., Piece::Lit(..), Piece::Code(op)] if matches!(op.trim(), "+" | ".")
                );
                if joins {
                    out.pop();
                    if let Some(Piece::Lit(_, prev)) = out.last_mut() {
                        prev.push_str(&s);
                    }
                } else {
                    out.push(Piece::Lit(q, s));
                }
            }
            code => out.push(code),
        }
    }
    out.into_iter()
        .map(|p| match p {
            Piece::Lit(q, s) => format!("{q}{s}{q}"),
            Piece::Code(c) => c,
        })
        .collect()
}

/// The text of a one-literal argument list: `('os')` → `os`.
fn literal_arg(inner: &str) -> Option<String> {
    let t = inner.trim();
    let q = t.chars().next().filter(|c| *c == '\'' || *c == '"')?;
    let body = t.strip_prefix(q)?.strip_suffix(q)?;
    (!body.contains(q) && !body.is_empty()).then(|| body.to_string())
}

/// Replaces every `name(ARGS)` whose ARGS `f` can rewrite.
fn rewrite_calls(code: &str, name: &str, f: impl Fn(&str) -> Option<String>) -> String {
    let mut out = String::with_capacity(code.len());
    let mut rest = code;
    while let Some(at) = rest.find(name) {
        let before_ok = rest[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let after = &rest[at + name.len()..];
        let open = after.trim_start();
        let close = open.strip_prefix('(').and_then(|o| o.find(')'));
        match (before_ok, close) {
            (true, Some(end)) => {
                let inner = &open[1..=end][..end];
                if let Some(new) = f(inner) {
                    out.push_str(&rest[..at]);
                    out.push_str(&new);
                    let consumed = after.len() - open.len() + end + 2;
                    rest = &after[consumed..];
                    continue;
                }
                out.push_str(&rest[..at + name.len()]);
                rest = after;
            }
            _ => {
                out.push_str(&rest[..at + name.len()]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The code with every string literal's text blanked (its quotes kept): what
/// the code does, not what it says. A literal that interpolates (`"#{…}"`,
/// `"${…}"`, `"$(…)"`, `"$env:X"`) holds code and stays.
pub(super) fn blank_literals(code: &str) -> String {
    const CODE_IN_STRING: &[&str] = &["#{", "${", "$(", "{$", "$env", "$ENV", "$_"];
    pieces(code)
        .into_iter()
        .map(|p| match p {
            Piece::Lit(q, s) if !CODE_IN_STRING.iter().any(|k| s.contains(k)) => {
                format!("{q}{}{q}", " ".repeat(s.chars().count()))
            }
            Piece::Lit(q, s) => format!("{q}{s}{q}"),
            Piece::Code(c) => c,
        })
        .collect()
}

/// The code with its assembled names spelled out (see the module's comment).
pub(super) fn fold(code: &str) -> String {
    let joined = join_literals(code);
    let imported = rewrite_calls(&joined, "__import__", literal_arg);
    let imported = rewrite_calls(&imported, "importlib.import_module", literal_arg);
    rewrite_calls(&imported, "getattr", |inner| {
        let (obj, attr) = inner.split_once(',')?;
        let obj = obj.trim();
        let ok = !obj.is_empty()
            && obj
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '.');
        let attr = literal_arg(attr)?;
        ok.then(|| format!("{obj}.{attr}"))
    })
}

/// Perl code that is only `s///` and `tr///` edits (`;`-separated), none
/// with the `e` flag that evaluates the replacement.
pub(super) fn substitutions_only(code: &str) -> bool {
    let mut rest = code.trim();
    // The replacement is interpolated: `$ENV{…}` is a variable's value,
    // `@{[ … ]}` and `${\ … }` run code.
    // A pattern's `(?{ … })` and `(??{ … })` run code too.
    let l = rest.to_ascii_lowercase();
    if rest.is_empty()
        || ["env{", "@{", "${", "?{", "#{", "$#"]
            .iter()
            .any(|k| l.contains(k))
    {
        return false;
    }
    while !rest.is_empty() {
        let (parts, op) = if let Some(r) = rest.strip_prefix("tr") {
            (2, r)
        } else if let Some(r) = rest.strip_prefix('s').or_else(|| rest.strip_prefix('y')) {
            (2, r)
        } else {
            return false;
        };
        let Some(delim) = op.chars().next() else {
            return false;
        };
        if delim.is_alphanumeric() || delim.is_whitespace() || "{[(<#".contains(delim) {
            return false;
        }
        // The pattern and the replacement, each ended by the delimiter.
        let mut seen = 0;
        let mut escaped = false;
        let mut end = None;
        for (i, ch) in op.char_indices().skip(1) {
            if escaped {
                escaped = false;
            } else if ch == '\\' {
                escaped = true;
            } else if ch == delim {
                seen += 1;
                if seen == parts {
                    end = Some(i + ch.len_utf8());
                    break;
                }
            }
        }
        let Some(end) = end else { return false };
        let after = &op[end..];
        let flags_len = after
            .find(|ch: char| !ch.is_ascii_alphabetic())
            .unwrap_or(after.len());
        if after[..flags_len].contains('e') {
            return false;
        }
        rest = after[flags_len..].trim_start();
        match rest.strip_prefix(';') {
            Some(r) => rest = r.trim_start(),
            None if rest.is_empty() => {}
            None => return false,
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::fold;

    #[test]
    fn perl_edits_without_eval_are_text() {
        use super::substitutions_only as only;
        assert!(only(
            r#"s/api_key\s*=\s*"[^"]*"/api_key = os.environ["API_KEY"]/"#
        ));
        assert!(only("s/foo/bar/g; tr/a-z/A-Z/"));
        assert!(only(r"s|a\|b|c|gi"));
        assert!(!only("s/x/`id`/e"));
        assert!(!only("s/x/y/ge"));
        assert!(!only("s/x/y/; system('id')"));
        assert!(!only("print $ENV{AWS_SECRET_ACCESS_KEY}"));
        assert!(!only("s{a}{b}"));
        assert!(!only("s/a/$ENV{AWS_SECRET_ACCESS_KEY}/"));
        assert!(!only("s/a/@{[ `id` ]}/"));
        assert!(!only("s!(?{system(q(id))})!!"));
        assert!(!only("s/x/$#{[ `id` ]}/"));
    }

    #[test]
    fn assembled_calls_read_as_the_call() {
        assert_eq!(
            fold("getattr(__import__('o'+'s'), 'sys'+'tem')('rm -rf ~/Documents')"),
            "os.system('rm -rf ~/Documents')"
        );
        assert_eq!(
            fold("require('child_' + 'process').execSync('id')"),
            "require('child_process').execSync('id')"
        );
        assert_eq!(fold("system('cu' . 'rl x')"), "system('curl x')");
        assert_eq!(
            fold("importlib.import_module(\"subprocess\").run(['ls'])"),
            "subprocess.run(['ls'])"
        );
        // Not a join: a method on a literal, a sum of numbers.
        assert_eq!(fold("', '.join(xs)"), "', '.join(xs)");
        assert_eq!(fold("print(1 + 2)"), "print(1 + 2)");
        assert_eq!(fold("x = 'unclosed"), "x = 'unclosed");
    }

    #[test]
    fn literals_are_blanked_unless_they_interpolate() {
        use super::blank_literals;
        assert_eq!(
            blank_literals("re.sub(r'x', \"os.environ['K']\", s)"),
            "re.sub(r' ', \"               \", s)"
        );
        assert_eq!(
            blank_literals("puts \"#{ENV['TOKEN']}\""),
            "puts \"#{ENV['TOKEN']}\""
        );
    }
}

/// What the code's string literals say once the code's own decoding is
/// applied to them: reversed (`"gifnoc/ebuk.".reverse`, `[::-1]`),
/// rot13, base64, hex, or a list of character codes (`map(chr, [46, …])`,
/// `String.fromCharCode(…)`). A path spelled so is the path the code opens.
pub(super) fn decoded_literals(code: &str) -> Vec<String> {
    use base64::Engine as _;
    let l = code.to_ascii_lowercase();
    let lits: Vec<String> = pieces(code)
        .into_iter()
        .filter_map(|p| match p {
            Piece::Lit(_, s) => Some(s),
            Piece::Code(_) => None,
        })
        .collect();
    let mut out = Vec::new();
    let printable = |s: &str| !s.is_empty() && s.chars().all(|c| (' '..='~').contains(&c));
    for s in &lits {
        if l.contains("reverse") || l.contains("[::-1]") || l.contains("strrev") {
            out.push(s.chars().rev().collect());
        }
        if l.contains("rot13") || l.contains("rot_13") || l.contains("str_rot13") {
            out.push(s.chars().map(rot13).collect());
        }
        if l.contains("b64") || l.contains("base64") || l.contains("atob") {
            for engine in [
                base64::engine::general_purpose::STANDARD,
                base64::engine::general_purpose::STANDARD_NO_PAD,
            ] {
                if let Some(t) = engine
                    .decode(s.trim())
                    .ok()
                    .and_then(|b| String::from_utf8(b).ok())
                    .filter(|t| printable(t))
                {
                    out.push(t);
                }
            }
        }
        if l.contains("hex") && s.len() % 2 == 0 && s.chars().all(|c| c.is_ascii_hexdigit()) {
            let bytes: Option<Vec<u8>> = (0..s.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
                .collect();
            if let Some(t) = bytes
                .and_then(|b| String::from_utf8(b).ok())
                .filter(|t| printable(t))
            {
                out.push(t);
            }
        }
    }
    // Lists of character codes: `[46,110,101,116,114,99]`, each list
    // (numbers joined by commas and blanks only) read on its own.
    if l.contains("chr") || l.contains("fromcharcode") || l.contains(".pack(") {
        let mut run = String::new();
        let mut number = String::new();
        let mut ok = true;
        for c in l.chars().chain(std::iter::once('\n')) {
            if c.is_ascii_digit() {
                number.push(c);
                continue;
            }
            if !number.is_empty() {
                match number.parse::<u32>().ok().filter(|n| (32..127).contains(n)) {
                    Some(n) if ok => run.extend(char::from_u32(n)),
                    _ => ok = false,
                }
                number.clear();
            }
            if !(c == ',' || c.is_whitespace()) {
                if ok && run.len() >= 3 {
                    out.push(run.clone());
                }
                run.clear();
                ok = true;
            }
        }
    }
    out
}

fn rot13(c: char) -> char {
    match c {
        'a'..='z' => (((c as u8 - b'a') + 13) % 26 + b'a') as char,
        'A'..='Z' => (((c as u8 - b'A') + 13) % 26 + b'A') as char,
        _ => c,
    }
}

#[cfg(test)]
mod decoded_tests {
    #[test]
    fn character_codes_and_encodings_are_read() {
        let got = super::decoded_literals(&super::fold(
            "import os;print(open(os.environ[\"HOME\"]+\"/\"+\"\".join(map(chr,[46,110,101,116,114,99]))).read())",
        ));
        assert!(got.iter().any(|s| s == ".netrc"), "{got:?}");
        let got = super::decoded_literals(
            "puts File.read(File.join(Dir.home, \"gifnoc/ebuk.\".reverse))",
        );
        assert!(got.iter().any(|s| s == ".kube/config"), "{got:?}");
        let got = super::decoded_literals("codecs.decode(\".qbpxre/pbasvt.wfba\",\"rot13\")");
        assert!(got.iter().any(|s| s == ".docker/config.json"), "{got:?}");
        let got = super::decoded_literals("base64.b64decode(\"LmdudXBn\").decode()");
        assert!(got.iter().any(|s| s == ".gnupg"), "{got:?}");
    }
}
