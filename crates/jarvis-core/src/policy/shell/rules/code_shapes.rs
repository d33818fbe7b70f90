//! What inline code visibly does, read from its text: deletes by name,
//! opens for writing, allocates without bound.

use super::code::{DELETE, named_at};

/// A delete call in the code, as a name of its own (`fs.rm(`, not
/// `confirm(`).
pub(super) fn deletes_by_name(l: &str) -> bool {
    DELETE.iter().any(|k| named_at(l, k).next().is_some())
}

/// The text right after each call that deletes by name (not R's `rm(`,
/// which clears variables): where its argument is.
pub(super) fn delete_calls(l: &str) -> Vec<&str> {
    DELETE
        .iter()
        .filter(|k| **k != "rm(")
        .flat_map(|k| {
            named_at(l, k).map(move |i| {
                let from = i + k.len();
                let to = l[from..]
                    .char_indices()
                    .nth(120)
                    .map_or(l.len(), |(j, _)| from + j);
                &l[from..to]
            })
        })
        .collect()
}

/// An allocation sized by a huge constant (`bytearray(1<<40)`,
/// `' ' * 10**12`, `Buffer.alloc(2**36)`, `bytes(int(1e12))`): the constant
/// in the call's own argument or right after the repetition.
pub(super) fn allocates_huge(l: &str) -> bool {
    const ALLOCATES: &[&str] = &[
        "bytearray(",
        "bytes(",
        "alloc(",
        "allocunsafe(",
        "buffer(",
        "array(",
        "repeat(",
        "str_repeat(",
        "]*",
        "] *",
        "'*",
        "' *",
        "\"*",
        "\" *",
        "zeros(",
        "ones(",
        "empty(",
        "malloc(",
        "calloc(",
        "mmap(",
        " x ",
    ];
    ALLOCATES.iter().any(|k| {
        l.match_indices(k).any(|(i, _)| {
            // The call's own argument: up to its closing parenthesis.
            let mut depth = 0i32;
            let own: String = l[i + k.len()..]
                .chars()
                .take_while(|c| !matches!(c, ',' | ';' | '\n'))
                .take(40)
                .take_while(|c| {
                    match c {
                        '(' => depth += 1,
                        ')' => depth -= 1,
                        _ => {}
                    }
                    depth >= 0
                })
                .collect();
            huge_constant(&own)
        })
    })
}

/// A constant of 2^34 or more: `1<<40`, `2**36`, `10**12`, `1e12`, or
/// eleven digits and more.
pub(super) fn huge_constant(l: &str) -> bool {
    let t: String = l
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .collect();
    let exp_after = |op: &str, base: u32| {
        t.match_indices(op).any(|(i, _)| {
            let before: String = t[..i]
                .chars()
                .rev()
                .take_while(char::is_ascii_digit)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            let after: String = t[i + op.len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            let (Ok(b), Ok(e)) = (before.parse::<u64>(), after.parse::<u32>()) else {
                return false;
            };
            match base {
                0 => b >= 1 && e >= 34,
                10 => b >= 1 && e >= 11,
                _ => b >= 2 && f64::from(e) * (b as f64).log2() >= 34.0,
            }
        })
    };
    let digits = t
        .split(|c: char| !c.is_ascii_digit())
        .any(|run| run.len() >= 11 && !run.starts_with('0'));
    exp_after("<<", 0) || exp_after("**", 1) || exp_after("e", 10) || digits
}

/// `open(p, 'w')`, `File.open(p, "a")`, Perl's `open(F, '>', p)`, `os.open`
/// with `O_WRONLY`: an open that can write. A bare `open(p)` reads.
pub(super) fn opens_for_writing(l: &str) -> bool {
    const MODES: &[&str] = &[
        "w", "wb", "wt", "w+", "wb+", "a", "ab", "at", "a+", "ab+", "x", "xb", "r+", "rb+", "r+b",
        ">", ">>", "+<", "+>",
    ];
    const FLAGS: &[&str] = &["o_wronly", "o_rdwr", "o_creat", "o_append", "file::wronly"];
    let quoted = |q: char| MODES.iter().any(|m| l.contains(&format!("{q}{m}{q}")));
    // Perl's two-argument form: `open(F, ">/etc/x")`, `open F, "> /etc/x"`.
    let perl = [">/", "> /", ">>/", ">> /"]
        .iter()
        .any(|m| l.contains(&format!("'{m}")) || l.contains(&format!("\"{m}")));
    l.contains("open")
        && (quoted('\'') || quoted('"') || perl || FLAGS.iter().any(|f| l.contains(f)))
}

/// Allocation inside a loop that never ends (`[bytearray(2**30) for _ in
/// iter(int, 1)]`, `while True: a.append(' ' * 10**8)`).
/// A file written without end from a constant block or a random source
/// (`while True: f.write(os.urandom(1<<20))`): the disk filled.
pub(super) fn fills_disk(l: &str) -> bool {
    let endless = [
        "while true",
        "while(true)",
        "while (true)",
        "while 1",
        "for(;;)",
        "for (;;)",
        "loop {",
        "loop do",
        "iter(int",
    ]
    .iter()
    .any(|k| l.contains(k));
    let writes = l.contains("write(") || l.contains("writesync(");
    let filler = [
        "urandom",
        "random_bytes",
        "randombytes",
        "\\x00",
        "\\0",
        "1<<",
        "* 1024",
        "*1024",
        "**20",
        "**30",
    ]
    .iter()
    .any(|k| l.contains(k));
    endless && writes && filler
}

pub(super) fn allocates_forever(l: &str) -> bool {
    const ENDLESS: &[&str] = &[
        "iter(int,1)",
        "iter(int, 1)",
        "itertools.count(",
        "while true",
        "while 1",
        "while(1)",
        "while (1)",
        "while(true)",
        "while (true)",
        "for(;;)",
        "for (;;)",
        "loop {",
        "loop do",
    ];
    const GROWS: &[&str] = &[
        "bytearray(",
        "bytes(",
        "alloc(",
        "append(",
        "push(",
        ".push",
        "repeat(",
        "str_repeat(",
        "'*",
        "\"*",
        "' *",
        "\" *",
        "malloc(",
        "zeros(",
    ];
    let leaves = ["break", "return", "exit", "raise"]
        .iter()
        .any(|k| l.contains(k));
    !leaves && ENDLESS.iter().any(|k| l.contains(k)) && GROWS.iter().any(|k| l.contains(k))
}

/// A `chmod` call in code whose mode sets the setuid or setgid bit:
/// `chmod 04755, $f` (Perl), `os.chmod(p, 0o4755)`, `fs.chmodSync(p,
/// 0o6755)`, `File.chmod(02755, p)`, or `u+s`.
pub(super) fn sets_setuid(l: &str) -> bool {
    l.match_indices("chmod").any(|(at, _)| {
        let tail: String = l[at + 5..].chars().take(80).collect();
        tail.split(|c: char| !(c.is_ascii_alphanumeric() || c == '+'))
            .any(|tok| {
                if tok.contains("+s") {
                    return true;
                }
                let digits = tok
                    .strip_prefix("0o")
                    .or_else(|| tok.strip_prefix('0').filter(|d| !d.is_empty()));
                digits
                    .filter(|d| d.len() >= 4 && d.bytes().all(|b| (b'0'..=b'7').contains(&b)))
                    .and_then(|d| u32::from_str_radix(d, 8).ok())
                    .is_some_and(|mode| mode & 0o6000 != 0)
            })
    })
}

/// PowerShell's call operator (`&`, `.`) on a name built at run time:
/// `& ("{1}{0}" -f "ex","i")`, `& ('i'+'ex')`, `. ([char]105 + 'ex')`,
/// `& (-join ('x','e','i')[2..0])`.
pub(super) fn computed_call(l: &str) -> bool {
    let b = l.as_bytes();
    l.match_indices('(').any(|(at, _)| {
        // The operator right before the parenthesis, as a word of its own.
        let before = l[..at].trim_end();
        let op = before.ends_with('&') || before.ends_with(" .") || before == ".";
        if !op || b.get(at.wrapping_sub(1)) == Some(&b'$') {
            return false;
        }
        let inner: String = l[at + 1..].chars().take(120).collect();
        let inner = inner.split(')').next().unwrap_or("");
        [
            " -f ", "-join", "+", "[char]", "-replace", "reverse", "-split",
        ]
        .iter()
        .any(|k| inner.contains(k))
    })
}

/// The argument lists of chmod calls whose mode lets every user write
/// (`chmod(p, 0o777)`, `0x1ff`, `0o40777`, `"666"`, `parseInt("777", 8)`,
/// `oct("777")`, `S_IWOTH`, `"o+w"`). A mode given by a variable (`m =
/// 0o777; os.chmod(p, m)`, `c = os.chmod; c(p, 0o777)`) is looked for in
/// the whole code.
pub(super) fn world_writable_chmods(l: &str) -> Vec<&str> {
    let anywhere = grants_everyone(l);
    l.match_indices("chmod")
        .take(64)
        .filter_map(|(at, _)| {
            let rest = &l[at + "chmod".len()..];
            let rest = rest.trim_start_matches(|c: char| c.is_alphanumeric() || c == '_');
            let args = rest.strip_prefix('(').map_or_else(
                // Perl and Ruby call without parentheses: to the statement's end.
                || call_args(rest.split([';', '\n']).next().unwrap_or(rest)),
                |inner| call_args(inner),
            );
            let named_mode = args
                .split(',')
                .any(|a| mode_item(a.trim()).is_some() || a.contains("s_i") || a.contains("+w"));
            (grants_everyone(args) || !named_mode && anywhere).then_some(args)
        })
        .collect()
}

/// The argument lists of a chmod call: each item read as a whole mode
/// (digits inside a path are no mode).
fn grants_everyone(args: &str) -> bool {
    if args.contains("s_iwoth") || args.contains("s_irwxo") {
        return true;
    }
    // Symbolic: others (or all) given write.
    let symbolic = args
        .split(|c: char| !(c.is_ascii_alphanumeric() || "+=-,".contains(c)))
        .any(|t| {
            t.split(',').any(|clause| {
                let (who, how) = match clause.find(['+', '=']) {
                    Some(i) => clause.split_at(i),
                    None => return false,
                };
                (who.contains('o') || who.contains('a'))
                    && who.chars().all(|c| "ugoa".contains(c))
                    && how[1..].contains('w')
            })
        });
    symbolic
        || args
            .split([',', ';', ' ', '(', ')', '='])
            .any(|a| mode_item(a.trim()).is_some_and(|m| m & 0o002 != 0))
}

/// One argument read as a mode: `0o777`, `0777`, `0x1ff`, `0b…`, a decimal
/// (`511`), a quoted string of octal digits (`"666"`, as Node and R read
/// it, and `oct("777")`, `parseInt("777", 8)` around one).
fn mode_item(a: &str) -> Option<u32> {
    let quoted = a.starts_with(['"', '\'']);
    let t = a.trim_matches(['"', '\'']).replace('_', "");
    let radix = |digits: &str, r: u32| u32::from_str_radix(digits, r).ok();
    if t.is_empty() || !t.chars().all(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    if let Some(d) = t.strip_prefix("0o") {
        return radix(d, 8);
    }
    if let Some(d) = t.strip_prefix("0x") {
        return radix(d, 16);
    }
    if let Some(d) = t.strip_prefix("0b") {
        return radix(d, 2);
    }
    if !t.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    if quoted || t.starts_with('0') {
        (t.len() >= 3 && t.len() <= 7)
            .then(|| radix(&t, 8))
            .flatten()
    } else {
        radix(&t, 10)
    }
}

/// The text up to the parenthesis that closes a call's.
pub(super) fn call_args(inner: &str) -> &str {
    // (At most a few hundred characters: an argument list runs no longer,
    // and an unclosed one must not make every call read to the end.)
    let inner = match inner.char_indices().nth(400) {
        Some((end, _)) => &inner[..end],
        None => inner,
    };
    let mut depth = 0usize;
    for (i, c) in inner.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return &inner[..i],
            ')' => depth -= 1,
            _ => {}
        }
    }
    inner
}

/// Calls that print their arguments, in the languages' spellings.
const PRINTS: &[&str] = &[
    "print(",
    "console.log(",
    "puts ",
    "pp(",
    "echo ",
    "say ",
    "printf(",
    "println(",
    "print_r(",
    "var_dump(",
    "io.puts(",
    "io.inspect(",
];

/// A print of a setting read by a key that names a secret:
/// `echo config("services.stripe.secret")` (Laravel), `puts
/// Rails.application.credentials.stripe`, `IO.puts(Application.get_env(:app,
/// :secret_key_base))`. `l` is the code in lower case, strings kept.
pub(super) fn prints_setting_secret(l: &str) -> bool {
    const READS: &[&str] = &[
        "config(",
        "config.get(",
        "config::get(",
        "env(",
        "getenv(",
        "get_env(",
        "fetch_env!(",
        "settings.get(",
        "credentials",
    ];
    const SECRET: &[&str] = &[
        "secret",
        "password",
        "passwd",
        "token",
        "apikey",
        "api_key",
        "private_key",
        "access_key",
        "app_key",
    ];
    printed_args(l).into_iter().any(|args| {
        // (A dotted key reads as its words joined: `app.key` is `app_key`.)
        let flat: String = args
            .chars()
            .map(|ch| if ch.is_ascii_alphanumeric() { ch } else { '_' })
            .collect();
        READS.iter().any(|r| args.contains(r))
            && (args
                .split(|ch: char| !ch.is_ascii_alphanumeric() && ch != '_')
                .any(|t| t == "credentials" || SECRET.iter().any(|s| t.contains(s)))
                || SECRET.iter().any(|s| s.contains('_') && flat.contains(s)))
    })
}

/// The arguments of each print call in `text`, to the end of its statement.
fn printed_args(text: &str) -> Vec<&str> {
    PRINTS
        .iter()
        .flat_map(|p| {
            text.match_indices(p).map(move |(at, _)| {
                let args = call_args(&text[at + p.len()..]);
                args.split(['\n', ';']).next().unwrap_or(args)
            })
        })
        .collect()
}

/// A print whose arguments name a secret outside any string
/// (`print(settings.SECRET_KEY)`, `console.log(cfg.api_key)`, `puts
/// ENV.fetch("X")` aside: the name is the code's own).
pub(super) fn prints_secret(outside: &str) -> bool {
    const NAMES: &[&str] = &[
        "secret_key",
        "secretkey",
        "api_key",
        "apikey",
        "password",
        "passwd",
        "private_key",
        "access_token",
        "auth_token",
        "client_secret",
        "secret_access_key",
    ];
    printed_args(outside).into_iter().any(|args| {
        // The name as a value (`settings.secret_key`, `cfg["api_key"]`
        // is a string: blanked), not part of another (`check_password(`,
        // `password_hash`).
        NAMES.iter().any(|n| {
            args.match_indices(n).any(|(i, _)| {
                let before = args[..i].chars().next_back();
                let after = args[i + n.len()..].chars().next();
                !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
                    && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '(')
            })
        })
    })
}
