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
}

impl Capture {
    fn what(self) -> &'static str {
        match self {
            Capture::Screen => "the screen",
            Capture::Keys => "keystrokes",
            Capture::Mic => "the microphone",
            Capture::Camera => "the camera",
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

/// Inputs of media pipelines, by the device class they open.
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
];

/// Outputs of media pipelines that are the network.
const MEDIA_NETWORK: &[&str] = &[
    "tcp://",
    "udp://",
    "rtp://",
    "rtsp://",
    "rtmp://",
    "rtmps://",
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
    "souphttpclientsink",
    "shout2send",
    "webrtcbin",
];

/// Programs that send mail: their input or attachments leave.
const MAILERS: &[&str] = &[
    "mail", "mailx", "s-nail", "mutt", "neomutt", "sendmail", "msmtp", "ssmtp", "swaks", "mpack",
];

/// What device, if any, a command captures.
pub(super) fn capture(argv: &[Word]) -> Option<Capture> {
    let b = lower(&base_name(&argv.first()?.text));
    let args: Vec<String> = argv.iter().skip(1).map(|w| lower(&w.text)).collect();
    let has = |f: &[&str]| args.iter().any(|a| f.contains(&a.as_str()));
    let named = match b.as_str() {
        b if SCREEN_TOOLS.contains(&b) => Some(Capture::Screen),
        "import" if has(&["-window"]) => Some(Capture::Screen),
        // `arecord -l`: the sound cards, not their sound.
        b if MIC_TOOLS.contains(&b) => {
            (!has(&["-l", "-L", "--list-devices", "--list-pcms"])).then_some(Capture::Mic)
        }
        "pw-cat" | "pacat" if has(&["-r", "--record"]) => Some(Capture::Mic),
        "sox" if has(&["-d", "--default-device"]) && args.first().is_some_and(|a| a == "-d") => {
            Some(Capture::Mic)
        }
        b if CAMERA_TOOLS.contains(&b) => Some(Capture::Camera),
        "v4l2-ctl" if args.iter().any(|a| a.starts_with("--stream-")) => Some(Capture::Camera),
        b if KEY_TOOLS.contains(&b) => Some(Capture::Keys),
        // `xinput test 12`, `xinput --test-xi2 --root`: every key pressed.
        "xinput" => args
            .iter()
            .find(|a| !a.starts_with("--") || a.starts_with("--test"))
            .filter(|a| a.trim_start_matches('-').starts_with("test"))
            .map(|_| Capture::Keys),
        // libinput hides key codes unless asked to show them.
        "libinput" if has(&["--show-keycodes"]) => Some(Capture::Keys),
        b if MEDIA.contains(&b) => args.iter().find_map(|a| {
            MEDIA_INPUTS
                .iter()
                .find(|(k, _)| {
                    a == k
                        || a.starts_with(k) && (k.contains("://") || k.starts_with('/'))
                        || a.split(['!', ' ']).any(|e| e == *k)
                })
                .map(|(_, c)| *c)
        }),
        _ => None,
    };
    // Listing or describing a device reads none of its data.
    let describes = matches!(
        b.as_str(),
        "ls" | "stat"
            | "du"
            | "test"
            | "["
            | "[["
            | "realpath"
            | "readlink"
            | "namei"
            | "file"
            | "udevadm"
            | "lsof"
            | "fuser"
            | "getfacl"
            | "v4l2-ctl"
    );
    named.or_else(|| {
        // Any other program reading the devices themselves (`cat
        // /dev/input/event3`, `dd if=/dev/video0`).
        argv.iter().skip(1).filter(|_| !describes).find_map(|w| {
            let t = w.text.trim_start_matches("if=");
            if paths::keystroke_device(t) {
                Some(Capture::Keys)
            } else if t.starts_with("/dev/video") {
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
/// copiers, mailers, a media pipeline with a network output, a redirect to
/// `/dev/tcp`.
pub(super) fn line_sends(script: &Script) -> bool {
    script.commands.iter().any(|k| {
        let pa = peeled(&k.argv);
        let b = pa
            .first()
            .map(|w| lower(&base_name(&w.text)))
            .unwrap_or_default();
        let media_out = MEDIA.contains(&b.as_str())
            && pa.iter().skip(1).any(|w| {
                let l = lower(&w.text);
                MEDIA_NETWORK
                    .iter()
                    .any(|n| l.starts_with(n) || l.split(['!', ' ']).any(|e| e == *n))
            });
        tables::FETCHERS.contains(&b.as_str())
            || MAILERS.contains(&b.as_str())
            || media_out
            || b == "openssl" && pa.iter().any(|w| w.text == "s_client")
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
        if line_sends(c.script) {
            self.block(format!(
                "exfiltration ({} captures {what} in a line that sends data over the network)",
                c.base
            ));
        }
        self.ask(format!("{} captures {what}", c.base));
    }
}
