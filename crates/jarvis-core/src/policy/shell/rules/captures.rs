//! What the desktop's devices see, as data: the screen, the keyboard, the
//! microphone and the camera. Keystrokes are passwords as they are typed:
//! capturing them is reading a credential, whatever happens next. The others
//! ask, and block in a line that also sends data out (a screenshot mailed,
//! the microphone streamed, the camera posted).

use super::wrappers::peeled;
use super::*;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Capture {
    Screen,
    Keys,
    Mic,
    Camera,
    /// Packets off a live interface: sign-ins sent in the clear with them.
    Traffic,
}

impl Capture {
    fn what(self) -> &'static str {
        match self {
            Capture::Screen => "the screen",
            Capture::Keys => "keystrokes",
            Capture::Mic => "the microphone",
            Capture::Camera => "the camera",
            Capture::Traffic => "the network's traffic",
        }
    }
}

/// Programs that only capture the screen.
const SCREEN_TOOLS: &[&str] = &[
    "gnome-screenshot",
    "scrot",
    "grim",
    "maim",
    "xwd",
    "spectacle",
    "flameshot",
    "wf-recorder",
    "wl-screenrec",
    "ksnip",
    "shutter",
    "xfce4-screenshooter",
    "recordmydesktop",
    "byzanz-record",
    "screencapture",
    "kooha",
    // A phone's screen, mirrored or recorded.
    "scrcpy",
];

/// Programs that only record sound from an input.
const MIC_TOOLS: &[&str] = &[
    "arecord",
    "parec",
    "parecord",
    "pw-record",
    "rec",
    "jack_capture",
];

/// Programs that only take pictures or video from a camera.
const CAMERA_TOOLS: &[&str] = &[
    "fswebcam",
    "streamer",
    "uvccapture",
    "libcamera-still",
    "libcamera-vid",
    "rpicam-still",
    "rpicam-vid",
    "raspistill",
    "raspivid",
];

/// Programs that only log keys or dump input events.
const KEY_TOOLS: &[&str] = &[
    "logkeys",
    "showkey",
    "evtest",
    "evemu-record",
    "keysniffer",
    "xspy",
    "xkeylogger",
];

/// Media pipelines (ffmpeg, GStreamer, VLC, mpv): what their inputs name.
const MEDIA: &[&str] = &[
    "ffmpeg",
    "avconv",
    // `gst-launch-1.0`, its base name cut at the dot.
    "gst-launch-1",
    "gst-launch",
    "vlc",
    "cvlc",
    "mpv",
    "mplayer",
    "mencoder",
    "obs",
];

/// Media inputs by the device class they open: ffmpeg's `-f` formats and
/// input names, GStreamer's source elements, players' input URLs.
const MEDIA_INPUTS: &[(&str, Capture)] = &[
    ("x11grab", Capture::Screen),
    ("kmsgrab", Capture::Screen),
    ("gdigrab", Capture::Screen),
    ("fbdev", Capture::Screen),
    ("ximagesrc", Capture::Screen),
    ("pipewiresrc", Capture::Screen),
    ("screen://", Capture::Screen),
    ("/dev/fb", Capture::Screen),
    ("alsa", Capture::Mic),
    ("pulse", Capture::Mic),
    ("pipewire", Capture::Mic),
    ("alsasrc", Capture::Mic),
    ("pulsesrc", Capture::Mic),
    ("autoaudiosrc", Capture::Mic),
    ("jackaudiosrc", Capture::Mic),
    ("oss", Capture::Mic),
    ("sndio", Capture::Mic),
    ("openal", Capture::Mic),
    ("jack", Capture::Mic),
    ("avfoundation", Capture::Camera),
    ("dshow", Capture::Camera),
    ("v4l2", Capture::Camera),
    ("video4linux2", Capture::Camera),
    ("v4l2src", Capture::Camera),
    ("libcamerasrc", Capture::Camera),
    ("autovideosrc", Capture::Camera),
    ("tv://", Capture::Camera),
    ("v4l2://", Capture::Camera),
    ("av://v4l2", Capture::Camera),
    ("/dev/video", Capture::Camera),
    ("/dev/v4l/", Capture::Camera),
];

/// URL schemes and GStreamer sinks that are the network.
const NETWORK_OUTPUTS: &[&str] = &[
    "tcp://",
    "udp://",
    "tls://",
    "rtp://",
    "rtsp://",
    "rtmp://",
    "rtmps://",
    "rtmpt://",
    "rtmpe://",
    "srt://",
    "http://",
    "https://",
    "icecast://",
    "ftp://",
    "sftp://",
    "tcpclientsink",
    "tcpserversink",
    "udpsink",
    "multiudpsink",
    "rtmpsink",
    "rtmp2sink",
    "srtsink",
    "srtclientsink",
    "rtspclientsink",
    "souphttpclientsink",
    "curlhttpsink",
    "shout2send",
    "webrtcbin",
    "webrtcsink",
    "whipsink",
];

/// Programs that send mail or files off the machine besides the fetchers.
const SENDERS: &[&str] = &[
    "mail",
    "mailx",
    "s-nail",
    "mutt",
    "neomutt",
    "sendmail",
    "msmtp",
    "ssmtp",
    "swaks",
    "bsd-mailx",
    "heirloom-mailx",
    "nail",
    "mail.mailutils",
    "mail.s-nail",
    "mailsend",
    "mailsend-go",
    "esmtp",
    "exim",
    "exim4",
    "dma",
    "mpack",
    "sendemail",
    "aws",
    "gcloud",
    "az",
    "azcopy",
    "mc",
    "b2",
    "croc",
    "wormhole",
    "lp",
    "lpr",
    "obexftp",
    "bluetooth-sendto",
    "gio",
    // Message buses and push services: a publish reaches every subscriber.
    "mosquitto_pub",
    "mqttx",
    "kcat",
    "kafkacat",
    "kafka-console-producer",
    "kafka-console-producer.sh",
    "nats",
    "amqp-publish",
    "ntfy",
    "apprise",
    "telegram-send",
    "signal-cli",
    "matrix-commander",
    "gotify",
    "sendxmpp",
    "zulip-send",
    "slack-cli",
];

/// A program that sends mail or files off the machine.
pub(super) fn is_sender(b: &str) -> bool {
    SENDERS.contains(&b)
}

/// A media pipeline's capture input and whether an output is the network.
/// ffmpeg's `-f FMT` counts for the `-i` that follows it; outputs are the
/// operands that are not inputs. GStreamer: `…src` elements and sinks.
fn media(b: &str, args: &[String]) -> (Option<Capture>, bool) {
    let class = |a: &str| -> Option<Capture> {
        MEDIA_INPUTS
            .iter()
            .find(|(k, _)| a == *k || a.starts_with(k) && (k.contains("://") || k.starts_with('/')))
            .map(|(_, c)| *c)
    };
    let net = |a: &str| NETWORK_OUTPUTS.iter().any(|n| a.contains(n));
    if b.starts_with("gst-launch") {
        let elements: Vec<&str> = args
            .iter()
            .flat_map(|a| a.split(['!', ' ']))
            .map(|e| e.trim())
            .collect();
        let input = elements
            .iter()
            .filter(|e| e.ends_with("src"))
            .find_map(|e| class(e));
        let out = elements
            .iter()
            .any(|e| e.ends_with("sink") && net(e) || *e == "webrtcbin");
        return (input, out);
    }
    if matches!(b, "ffmpeg" | "avconv") {
        let (mut input, mut out, mut fmt) = (None, false, None::<&str>);
        let mut i = 0;
        while i < args.len() {
            let a = args[i].as_str();
            match a {
                "-f" => {
                    fmt = args.get(i + 1).map(String::as_str);
                    i += 2;
                    continue;
                }
                "-i" => {
                    let src = args.get(i + 1).map(String::as_str).unwrap_or("");
                    input = input.or_else(|| fmt.and_then(class)).or_else(|| class(src));
                    fmt = None;
                    i += 2;
                    continue;
                }
                _ if !a.starts_with('-') && net(a) => out = true,
                _ => {}
            }
            i += 1;
        }
        return (input, out);
    }
    // Players: only what they open, by URL or device, is an input.
    let input = args
        .iter()
        .filter(|a| a.contains("://") || a.starts_with("/dev/"))
        .find_map(|a| class(a));
    let out = args
        .iter()
        .any(|a| a.contains("sout") && (a.contains("access=") || a.contains("dst=")) && net(a));
    (input, out)
}

/// What device, if any, a command captures.
pub(super) fn capture(argv: &[Word]) -> Option<Capture> {
    let b = program_name(&argv.first()?.text);
    let args: Vec<String> = argv.iter().skip(1).map(|w| lower(&w.text)).collect();
    let has = |f: &[&str]| args.iter().any(|a| f.contains(&a.as_str()));
    // xinput takes its command with any number of dashes (`---test`).
    let first = args
        .first()
        .map(|a| a.trim_start_matches('-').to_string())
        .unwrap_or_default();
    let named = match b.as_str() {
        b if SCREEN_TOOLS.contains(&b) => Some(Capture::Screen),
        "import" if has(&["-window"]) => Some(Capture::Screen),
        "magick" | "gm" if first == "import" && has(&["-window"]) => Some(Capture::Screen),
        // `arecord -l`: the sound cards, not their sound.
        b if MIC_TOOLS.contains(&b) => {
            (!has(&["-l", "--list-devices", "--list-pcms"])).then_some(Capture::Mic)
        }
        "pw-cat" | "pacat" if has(&["-r", "--record"]) => Some(Capture::Mic),
        // sox records from the default device (`-d`) or a sound system (`-t alsa`).
        "sox" => {
            let from_device = args
                .iter()
                .position(|a| a == "-d" || a == "--default-device");
            let typed = args.windows(2).position(|w| {
                w[0] == "-t" && matches!(w[1].as_str(), "alsa" | "pulseaudio" | "coreaudio" | "oss")
            });
            let first_file = args.iter().position(|a| !a.starts_with('-'));
            from_device
                .or(typed)
                .filter(|&d| first_file.is_none_or(|f| d < f || typed == Some(d)))
                .map(|_| Capture::Mic)
        }
        b if CAMERA_TOOLS.contains(&b) => Some(Capture::Camera),
        // A live capture (no saved file read with `-r`).
        // (`-nnr F` reads one too: a bundle of letters ending in `r`;
        // ngrep reads a file with `-I`.)
        "tcpdump" | "tshark" | "dumpcap" | "ngrep" | "tcpflow" | "termshark"
            if !argv[1..].iter().any(|w| {
                let t = w.text.as_str();
                let letters = t.strip_prefix('-').filter(|l| {
                    !l.starts_with('-') && l.chars().all(|ch| ch.is_ascii_alphabetic())
                });
                if b == "ngrep" {
                    t == "-I"
                } else {
                    t == "-r" || t.starts_with("-r") || letters.is_some_and(|l| l.ends_with('r'))
                }
            }) =>
        {
            Some(Capture::Traffic)
        }
        "v4l2-ctl" if args.iter().any(|a| a.starts_with("--stream-")) => Some(Capture::Camera),
        b if KEY_TOOLS.contains(&b) => Some(Capture::Keys),
        // `xinput test 12`, `xinput --test-xi2 --root`, `query-state` in a
        // loop: every key pressed.
        "xinput" if first.starts_with("test") || first == "query-state" => Some(Capture::Keys),
        // xev shows its own window's events; pointed at another window or
        // the root, it logs what is typed there.
        "xev" if has(&["-id", "-root", "-name"]) => Some(Capture::Keys),
        // libinput hides key codes unless asked to show them.
        "libinput" if has(&["--show-keycodes"]) => Some(Capture::Keys),
        b if MEDIA.contains(&b) => return media(b, &args).0,
        _ => None,
    };
    // Byte readers pointed at a device read its data (`cat
    // /dev/input/event3`, `dd if=/dev/video0`); other programs name it.
    let reader = matches!(
        b.as_str(),
        "cat"
            | "dd"
            | "head"
            | "tail"
            | "od"
            | "xxd"
            | "hexdump"
            | "hd"
            | "strings"
            | "base64"
            | "cp"
            | "pv"
            | "tee"
            | "socat"
            | "nc"
            | "ncat"
            | "netcat"
            | "busybox"
    );
    named.or_else(|| {
        argv.iter().skip(1).filter(|_| reader).find_map(|w| {
            let t = w.text.trim_start_matches("if=");
            if paths::keystroke_device(t) {
                Some(Capture::Keys)
            } else if t.starts_with("/dev/video") || t.starts_with("/dev/v4l/") {
                Some(Capture::Camera)
            } else if t.starts_with("/dev/snd/pcm") && t.ends_with('c') {
                Some(Capture::Mic)
            } else if t.starts_with("/dev/fb") {
                Some(Capture::Screen)
            } else {
                None
            }
        })
    })
}

/// A command of the line that sends data off the machine: fetchers and
/// copiers, mailers and cloud CLIs, a media pipeline with a network output,
/// a redirect to `/dev/tcp`, and any of those named inside another
/// command's words (`xargs curl`, `sh -c 'curl …'`, `busybox nc`).
pub(super) fn line_sends(script: &Script) -> bool {
    let sender = |name: &str| {
        let b = program_name(name);
        tables::FETCHERS.contains(&b.as_str()) || is_sender(&b)
    };
    script.commands.iter().any(|k| {
        let pa = peeled(&k.argv);
        let b = pa
            .first()
            .map(|w| program_name(&w.text))
            .unwrap_or_default();
        let args: Vec<String> = pa.iter().skip(1).map(|w| lower(&w.text)).collect();
        let media_out = MEDIA.contains(&b.as_str()) && media(&b, &args).1;
        // A program's name as a word of its own (`xargs curl`, `busybox
        // nc`) or inside code (`sh -c 'curl …'`); a file name is not one.
        let named_inside = k.argv.iter().any(|w| {
            if w.text.contains(char::is_whitespace) {
                w.text
                    .split(|ch: char| {
                        ch.is_whitespace() || matches!(ch, ';' | '|' | '&' | '(' | '`')
                    })
                    .any(|t| !t.is_empty() && sender(t))
            } else {
                !w.text.contains(['/', '.']) && sender(&w.text)
            }
        });
        media_out
            || named_inside
            || b == "openssl" && args.iter().any(|a| a == "s_client")
            || b == "git" && args.iter().any(|a| a == "push" || a == "send-email")
            || k.redirects.iter().any(|r| {
                r.target.text.starts_with("/dev/tcp/") || r.target.text.starts_with("/dev/udp/")
            })
    })
}

impl Analyzer<'_> {
    /// A capture of the screen, the keys, the microphone or the camera.
    pub(super) fn captures(&mut self, c: &Cmd<'_>) {
        let Some(kind) = capture(&c.words) else {
            return;
        };
        let what = kind.what();
        if kind == Capture::Keys {
            self.block(format!(
                "captures keystrokes ({} records every key typed, passwords among them)",
                c.base
            ));
            return;
        }
        // Live traffic counts when the capture itself is piped on to a
        // sender (`tcpdump -w - | nc …`): a capture beside a `curl` to a
        // local server is a debugging session.
        let sends = if kind == Capture::Traffic {
            piped_to_sender(c)
        } else {
            line_sends(c.script)
        };
        if sends {
            self.block(format!(
                "exfiltration ({} captures {what} in a line that sends data over the network)",
                c.base
            ));
        }
        self.ask(format!("{} captures {what}", c.base));
    }
}

/// A later stage of `c`'s pipeline is a fetcher or a sender.
fn piped_to_sender(c: &Cmd<'_>) -> bool {
    let Some(me) = c
        .script
        .commands
        .iter()
        .position(|k| std::ptr::eq(k, c.src))
    else {
        return false;
    };
    let mut from = vec![me];
    for (i, k) in c.script.commands.iter().enumerate().skip(me + 1) {
        if k.stdin_from.is_some_and(|p| from.contains(&p)) {
            from.push(i);
            let b = peeled(&k.argv)
                .first()
                .map(|w| program_name(&w.text))
                .unwrap_or_default();
            if tables::FETCHERS.contains(&b.as_str()) || is_sender(&b) {
                return true;
            }
        }
    }
    false
}
