//! What inline code is read for: the words that mark a network call, a
//! program run, a decoder, a deserialiser that executes, and a call whose
//! name is computed.

use super::code::ident;

pub(super) const NETWORK: &[&str] = &[
    "urlopen",
    "fetchtarball",
    "fetchgit",
    "urllib",
    "requests.",
    "httpx",
    "http.get",
    "https.get",
    "http.request",
    "https.request",
    "require('http",
    "require(\"http",
    "from 'http",
    "fetch(",
    "axios",
    "uri.open",
    "open-uri",
    "net::http",
    "lwp::",
    "lwp/",
    "http::tiny",
    "file_get_contents(\"http",
    "file_get_contents('http",
    "curl_exec",
    "curl_init",
    "http://",
    "https://",
    "ftp://",
    "iwr ",
    "invoke-webrequest",
    "invoke-restmethod",
    "downloadstring",
    "downloadfile",
    "net.webclient",
    "system.net.http",
    "socket",
    "wget ",
    "curl ",
    // Julia's, Octave's/MATLAB's, Wolfram's and R's own fetches.
    "download(",
    "urlread(",
    "urlwrite(",
    "webread(",
    "websave(",
    "urlfetch[",
    "urlread[",
    "urlexecute[",
    "urldownload[",
    "httprequest[",
    "download.file(",
    "url(\"http",
    "url('http",
    // Model hubs: what they fetch is code when it is loaded.
    "hf_hub_download",
    "snapshot_download",
    "from_pretrained",
    "load_dataset(",
    "torch.hub",
    // Deno's and Bun's own connections and listeners.
    "deno.connect",
    "deno.listen",
    "deno.serve",
    "bun.connect",
    "bun.listen",
    "bun.serve",
    "new websocket",
];

pub(super) const RUNS: &[&str] = &[
    "os.system",
    "command::new",
    "exec.command",
    "processbuilder",
    "subprocess",
    "popen",
    "child_process",
    "execsync",
    "execfile",
    "exec_command",
    "invoke-expression",
    "kernel.exec",
    "instance_eval",
    "new function(",
    "vm.run",
    "runpy",
    "pty.",
    "/bin/sh",
    "/bin/bash",
    "sh -c",
    "bash -c",
    "do shell script",
    "loadstring(",
    "dofile(",
    "proc_open",
    "passthru",
    "shell_exec",
    "io.popen",
    "os.execute",
    "start-process",
    "shell-command",
    "call-process",
    "make-process",
    "async-shell-command",
    // R's system2 runs a program.
    "system2(",
    // Deno's and Bun's process APIs.
    "deno.command",
    "deno.run(",
    "bun.spawn",
];

pub(super) const DECODE: &[&str] = &[
    "b64decode",
    "base64",
    "fromhex",
    "unhexlify",
    "decode('hex",
    "decode(\"hex",
    "codecs.decode",
    "zlib.decompress",
    "marshal.loads",
    "pickle.loads",
    "atob(",
    "buffer.from",
    "pack(",
    "unpack(",
    "frombase64string",
    "decode_base64",
    "[convert]::",
    "rot13",
    "rot_13",
    "gzip.decompress",
    "lzma.",
    "bz2.",
    "[::-1]",
    "reverse(",
    "scalar reverse",
    "chr(",
    "map(chr",
    "chr,",
    "pack q",
    "pack(\"h",
    "pack('h",
    "n-za-m",
    "decodeuri(",
    "bytes([",
    ".to_bytes(",
    "quopri",
    "textconnection",
    "string.fromcharcode",
    "fromcharcode(",
    "hex2bin",
    "gzinflate",
    "gzuncompress",
    "gzdecode",
    "convert_uudecode",
    "unpack1",
    "string.char(",
    // MATLAB/Octave text from character codes.
    "char([",
    "inttoutf8",
    "rawtochar",
    "bytes.fromhex",
    "binascii",
    "data:text/javascript",
    "data:application/javascript",
    ";base64,",
    "decodeuricomponent(",
    "unescape(",
];

/// Deserialisers that run code a crafted input names (pickle's `__reduce__`):
/// fed decoded bytes, they execute what was encoded.
pub(super) const UNPICKLES: &[&str] = &[
    "pickle.loads",
    "pickle.load(",
    "cpickle.loads",
    "marshal.loads",
    "dill.loads",
    "jsonpickle.decode",
    "yaml.unsafe_load",
    "unserialize(",
    "marshal.load(",
    "types.functiontype(",
    "runinthiscontext",
    "runinnewcontext",
    "._compile(",
    "settimeout(atob",
    "setinterval(atob",
];

/// Ways code calls a function it names at run time: a member looked up by a
/// string (`global['ev'+'al'](…)`, `getattr(os, n)(…)`), the `Function`
/// constructor, a dynamic `import()`, PHP's and Perl's calls through a
/// variable (`$f(…)`, `&$f(…)`).
pub(super) fn computed_call(l: &str, code: &str) -> bool {
    const MARKERS: &[&str] = &[
        "getattr(",
        "__import__(",
        "importlib.import_module",
        "__dict__",
        "globals()[",
        "locals()[",
        ".constructor(",
        "constructor.constructor",
        // `Function("…")`, not an anonymous `function (x) {…}`.
        "function(\"",
        "function('",
        "function(`",
        "function(atob",
        "function(buffer",
        "function(decode",
        "import(",
        "&$",
        "&{",
        "call_user_func",
        "->send(",
        ".send(:",
        ".public_send(",
        ".method(",
        "method(:",
    ];
    MARKERS.iter().any(|k| l.contains(k))
        || member_called(code)
        || l.match_indices('$').any(|(i, _)| {
            let name: String = l[i + 1..].chars().take_while(|c| ident(*c)).collect();
            !name.is_empty() && l[i + 1 + name.len()..].starts_with('(')
        })
}

/// `obj[…](…)` where what is looked up is built (`['ev'+'al']`, a
/// variable) or names a runner (`['eval']`); a plain name (`handlers['build']`)
/// is an ordinary call.
pub(super) fn member_called(code: &str) -> bool {
    code.match_indices("](").any(|(end, _)| {
        let Some(open) = code[..end].rfind('[') else {
            return false;
        };
        // A member of something (`obj[…]`, `f()[…]`), not a character class.
        let owner = code[..open].chars().next_back();
        if !owner.is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | ']' | ')' | '$')) {
            return false;
        }
        let inside = code[open + 1..end].trim();
        let literal = inside.len() >= 2
            && (inside.starts_with('\'') && inside.ends_with('\'')
                || inside.starts_with('"') && inside.ends_with('"'))
            && !inside[1..inside.len() - 1].contains(['\'', '"', '+']);
        if !literal {
            return true;
        }
        let name = &inside[1..inside.len() - 1];
        [
            "eval",
            "exec",
            "function",
            "system",
            "require",
            "constructor",
        ]
        .iter()
        .any(|k| name.contains(k))
    })
}

/// Many escaped characters in a string literal (`"\x63\x75\x72\x6c"`):
/// text spelled so the eye does not read it.
pub(super) fn escaped_text(code: &str) -> bool {
    let b = code.as_bytes();
    // `\x63`, `\u0063`, octal `\143` (not `\033` nor `\u001b`: a
    // terminal's colours).
    let escapes = (0..b.len().saturating_sub(3))
        .filter(|&i| b[i] == b'\\')
        .filter(|&i| match b[i + 1] {
            b'x' => {
                b[i + 2].is_ascii_hexdigit()
                    && !code[i + 2..].to_ascii_lowercase().starts_with("1b")
            }
            b'u' => code[i + 2..].starts_with("00") && !code[i + 2..].starts_with("001b"),
            b'1'..=b'3' => b[i + 2].is_ascii_digit() && b[i + 3].is_ascii_digit(),
            _ => false,
        })
        .count();
    escapes >= 4
}

/// Loaders that run code the file names (pickle's `__reduce__`), when the
/// file is not known to hold only data.
pub(super) const LOADS_CODE: &[&str] = &[
    "pickle.load",
    "joblib.load",
    "read_pickle(",
    "dill.load",
    "cloudpickle.load",
    "allow_pickle=true",
    "weights_only=false",
    // Keras's Lambda layers run when `safe_mode` is off.
    "safe_mode=false",
    "yaml.unsafe_load",
    "loader=yaml.loader",
    "loader=yaml.unsafeloader",
    "jsonpickle.decode",
    "marshal.load",
    "shelve.open",
];

/// Calls that fetch code from a model hub or a repository and run it.
pub(super) const RUNS_REMOTE_CODE: &[&str] = &[
    "trust_remote_code=true",
    "torch.hub.load(",
    "trust_repo=true",
];

/// What names a password field or an authentication dialog (polkit's,
/// pinentry's, a keyring's unlock prompt).
const AUTH_WORDS: &[&str] = &[
    "role_password_text",
    "password_text",
    "password text",
    "passwordtext",
    "polkit",
    "policykit",
    "authenticat",
    "pinentry",
    "gcr-prompter",
    "askpass",
    "keyring",
    "passphrase",
];

/// Code that drives other applications through the accessibility bus
/// (AT-SPI, dogtail, UI Automation) aimed at a password field or an
/// authentication dialog: it reads what the user typed there, or presses
/// the button only the user should (`polkit`'s Authenticate).
pub(super) fn drives_auth_widgets(lowered: &str) -> bool {
    const BUS: &[&str] = &[
        "pyatspi",
        "atspi.",
        "import atspi",
        "dogtail",
        "ldtp",
        "pywinauto",
        "uiautomation",
        "accessible.",
    ];
    BUS.iter().any(|m| lowered.contains(m)) && AUTH_WORDS.iter().any(|t| lowered.contains(t))
}

/// Words that name an authentication dialog's window (a keystroke sender
/// pointed at it answers for the user).
pub(super) fn names_auth_dialog(lowered: &str) -> bool {
    AUTH_WORDS
        .iter()
        .chain(&["password", "sudo", "pkexec", "auth"])
        .any(|t| lowered.contains(t))
}
