//! `jarvis listen`, `jarvis say` and `jarvis models`: the voice pipeline in
//! a terminal, with the same coordinator the desktop app uses.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use jarvis_protocol::{Event, VoiceState};
use jarvis_voice::capture::{AudioSource, MicConfig, MicSource, WavSource};
use jarvis_voice::coordinator::{VoiceConfig, VoiceCoordinator, VoiceParts};
use jarvis_voice::sink::{AudioSink, NullSink, RodioSink, StopFlag, WavSink};
use jarvis_voice::tts::split_sentences;
use jarvis_voice::{models, setup};

use crate::{TurnArgs, approver, home, open_brain, render};

#[derive(Args)]
pub struct ListenArgs {
    /// Use this WAV file as what was said (one push-to-talk turn) instead of the microphone.
    #[arg(long)]
    wav: Option<PathBuf>,
    /// Stop after speech to text; print the transcript.
    #[arg(long)]
    transcribe_only: bool,
    /// Keep listening after each reply until silence (microphone only).
    #[arg(long)]
    conversation: bool,
    /// Write the spoken reply to this WAV file instead of the speakers.
    #[arg(long)]
    out: Option<PathBuf>,
    /// piper, system or auto (default: voice.engine in config).
    #[arg(long)]
    engine: Option<String>,
    /// Microphone by name (default: voice.input_device, else the system default).
    #[arg(long)]
    device: Option<String>,
    /// List the microphones and exit.
    #[arg(long)]
    list_devices: bool,
    /// Continue this session.
    #[arg(long)]
    session: Option<String>,
    /// Print every event as a JSON line on stdout.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    turn: TurnArgs,
}

#[derive(Args)]
pub struct SayArgs {
    text: String,
    /// Write a WAV file instead of playing.
    #[arg(long)]
    out: Option<PathBuf>,
    /// piper, system or auto (default: voice.engine in config).
    #[arg(long)]
    engine: Option<String>,
}

#[derive(Subcommand)]
pub enum ModelsCommand {
    /// Known models, where they are, whether they are installed.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Download, verify and install models (resumes an interrupted download);
    /// with no names, the voice models.
    Install {
        names: Vec<String>,
        /// Download from this base URL instead (an offline mirror); env JARVIS_MODELS_MIRROR.
        #[arg(long)]
        mirror: Option<String>,
    },
    /// Check installed files against their checksums.
    Verify {
        names: Vec<String>,
    },
    Remove {
        name: String,
    },
    /// Add a chat model of your own to `models/catalog.json` (its sha256
    /// pinned), then `jarvis models install NAME` fetches and checks it.
    Add {
        name: String,
        /// Where the GGUF file is downloaded from (http or https).
        #[arg(long)]
        url: String,
        /// The file's sha256: a download that does not match is refused.
        #[arg(long)]
        sha256: String,
        /// The file's size in bytes.
        #[arg(long)]
        bytes: u64,
        /// The licence the file is published under, shown before download.
        #[arg(long)]
        license: String,
        /// The file's name in models/llm/ (default: the URL's last part).
        #[arg(long)]
        file: Option<String>,
        /// A line saying what it is.
        #[arg(long, default_value = "")]
        what: String,
        /// Offer it at first run and use it when llm.local_model is empty.
        #[arg(long)]
        default: bool,
    },
}

fn config() -> Result<jarvis_core::config::Config> {
    Ok(jarvis_core::config::ConfigStore::new(&home()?).load()?)
}

/// Where speech goes, and the WAV file behind it when it is one.
type Output = (Arc<dyn AudioSink>, Option<Arc<WavSink>>);

fn open_sink(out: Option<&PathBuf>) -> Result<Output> {
    match out {
        Some(path) => {
            let sink = Arc::new(WavSink::new(path.clone()));
            Ok((sink.clone(), Some(sink)))
        }
        None => match RodioSink::open_default() {
            Ok(sink) => Ok((Arc::new(sink), None)),
            Err(e) => {
                eprintln!(
                    "voice: {e}; replies are shown, not spoken (use --out FILE.wav to keep them)"
                );
                Ok((Arc::new(NullSink::with_speed(1000.0)), None))
            }
        },
    }
}

pub async fn listen(args: ListenArgs) -> Result<i32> {
    if args.list_devices {
        let devices = jarvis_voice::capture::input_devices();
        if devices.is_empty() {
            eprintln!("no microphone found");
            return Ok(1);
        }
        for d in devices {
            println!("{d}");
        }
        return Ok(0);
    }
    let home = home()?;
    let settings = config()?.voice;
    let interactive = std::io::stdin().is_terminal() && std::io::stderr().is_terminal();
    let input = approver::Input::spawn_if(interactive);
    let brain = open_brain(&args.turn, Arc::new(approver::Terminal::new(input)))?;
    let stt = setup::transcriber(&home, &settings)?;
    let silero = setup::silero(&home)?;
    let speaker = setup::speaker(&home, &settings, args.engine.as_deref())?;
    let (sink, wav_out) = open_sink(args.out.as_ref())?;
    let source: Box<dyn AudioSource> = match &args.wav {
        Some(path) => Box::new(WavSource::from_file(path, false)?),
        None => Box::new(MicSource::new(MicConfig {
            device: args
                .device
                .clone()
                .or_else(|| settings.input_device.clone()),
            keep_warm: settings.keep_mic_warm,
            ..MicConfig::default()
        })),
    };
    let session = args
        .session
        .clone()
        .unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    let mut cfg = VoiceConfig::new(session.clone());
    cfg.transcribe_only = args.transcribe_only;
    cfg.silence_timeout = std::time::Duration::from_secs(settings.silence_timeout_sec.max(1));
    let mut events = brain.subscribe();
    let parts = VoiceParts {
        source,
        stt,
        speaker,
        sink,
        silero,
    };
    let voice = VoiceCoordinator::start(Arc::new(brain.clone()), parts, cfg)?;
    let mut interrupts = crate::interrupts::Interrupts::listen()?;
    if args.wav.is_some() {
        // The file is what was said while the key was held; its end is the release.
        voice.press();
    } else if args.conversation {
        voice.converse();
    } else {
        voice.listen_once();
    }
    let mut out = render::Renderer::new(args.json);
    let mut heard = false;
    let mut started = false;
    let mut code = 1;
    loop {
        tokio::select! {
            ev = events.next() => {
                let Some(ev) = ev else { break };
                if !render::concerns(&ev, &session) {
                    continue;
                }
                out.event(&ev)?;
                match &ev.event {
                    Event::VoiceState { state: VoiceState::Listening } => started = true,
                    Event::VoiceTranscript { text, .. } => {
                        heard = true;
                        if args.transcribe_only && !args.json {
                            println!("{text}");
                        }
                    }
                    Event::VoiceState { state: VoiceState::Idle } if started => {
                        code = if heard { 0 } else { 1 };
                        break;
                    }
                    _ => {}
                }
            }
            _ = interrupts.next() => {
                voice.stop();
                code = 130;
                break;
            }
        }
    }
    out.finish();
    voice.shutdown();
    if let Some(w) = wav_out {
        match w.finish() {
            Ok(pcm) => eprintln!(
                "reply audio: {} ({} ms)",
                args.out
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default(),
                pcm.duration_ms()
            ),
            Err(e) if heard && !args.transcribe_only => eprintln!("no reply audio written: {e}"),
            Err(_) => {}
        }
    }
    if !heard {
        eprintln!("nothing was heard");
    }
    Ok(code)
}

/// A voice for `jarvis serve --voice`: texts sent here are spoken one after
/// another, in order, never over each other.
pub fn speaking_queue() -> Result<std::sync::mpsc::Sender<String>> {
    let home = home()?;
    let settings = config()?.voice;
    let speaker = setup::speaker(&home, &settings, None)?;
    let sink = Arc::new(RodioSink::open_default().context("no audio output for --voice")?);
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    std::thread::Builder::new()
        .name("serve-voice".into())
        .spawn(move || {
            let stop = StopFlag::new();
            for text in rx {
                for (i, s) in split_sentences(&text).into_iter().enumerate() {
                    match speaker.synthesize(&s) {
                        Ok(pcm) => {
                            // An announcement starts with the chime.
                            let pcm = if i == 0 {
                                jarvis_voice::coordinator::with_chime(pcm)
                            } else {
                                pcm
                            };
                            if let Err(e) = sink.play(&pcm, &stop) {
                                eprintln!("jarvis: could not play: {e}");
                            }
                        }
                        Err(e) => eprintln!("jarvis: could not speak: {e}"),
                    }
                }
            }
        })?;
    Ok(tx)
}

pub fn say(args: SayArgs) -> Result<i32> {
    let home = home()?;
    let settings = config()?.voice;
    let speaker = setup::speaker(&home, &settings, args.engine.as_deref())?;
    let (sink, wav_out): Output = match &args.out {
        Some(_) => open_sink(args.out.as_ref())?,
        None => (
            Arc::new(RodioSink::open_default().context("no audio output; use --out FILE.wav")?),
            None,
        ),
    };
    let sentences = split_sentences(&args.text);
    if sentences.is_empty() {
        bail!("nothing to say");
    }
    let started = Instant::now();
    let mut first_audio = None;
    let stop = StopFlag::new();
    for s in &sentences {
        let pcm = speaker.synthesize(s)?;
        first_audio.get_or_insert_with(|| started.elapsed());
        sink.play(&pcm, &stop)?;
    }
    let first_ms = first_audio.map(|d| d.as_millis()).unwrap_or(0);
    match wav_out {
        Some(w) => {
            let pcm = w.finish()?;
            eprintln!(
                "{}: {} ms of audio, {} engine, first audio after {first_ms} ms",
                args.out
                    .as_ref()
                    .map(|p| p.display().to_string())
                    .unwrap_or_default(),
                pcm.duration_ms(),
                speaker.engine()
            );
        }
        None => eprintln!(
            "{} engine, first audio after {first_ms} ms",
            speaker.engine()
        ),
    }
    Ok(0)
}

pub async fn models_cmd(command: ModelsCommand) -> Result<i32> {
    let home = home()?;
    match command {
        ModelsCommand::List { json } => {
            if let Err(e) = models::user::load(&home) {
                eprintln!("warning: your models are not listed: {e}");
            }
            let list = models::list(&home);
            if json {
                println!("{}", serde_json::to_string_pretty(&list)?);
            } else {
                for m in list {
                    let mark = if m.installed { "✓" } else { "✗" };
                    let note = match (m.overridden, m.user) {
                        (true, _) => " (from env)",
                        (false, true) => " (added by you)",
                        _ => "",
                    };
                    println!(
                        "{mark} {:<16} {}\n    {} · licence {}{note}",
                        m.name,
                        m.what,
                        m.path.display(),
                        m.license
                    );
                }
            }
            Ok(0)
        }
        ModelsCommand::Install { names, mirror } => {
            crate::refuse_if_agent("models install")?;
            let mirror = mirror.or_else(env_mirror);
            // With no names, the voice set: chat models are a gigabyte and
            // more each, fetched only when named.
            let names = if names.is_empty() {
                models::CATALOG
                    .iter()
                    .filter(|m| m.kind == models::ModelKind::Voice)
                    .map(|m| m.name.to_string())
                    .collect()
            } else {
                names
            };
            for name in names {
                let files = install_with_bar(&home, &name, mirror.as_deref()).await?;
                for f in files {
                    eprintln!("✓ {name}: {}", f.display());
                }
                if let Some(m) = models::language_model(&home, &name) {
                    let pick = if m.default {
                        String::new()
                    } else {
                        format!(" && jarvis config set llm.local_model {name}")
                    };
                    eprintln!("  to talk to it: jarvis config set llm.provider embedded{pick}");
                }
            }
            Ok(0)
        }
        ModelsCommand::Verify { names } => {
            let names: Vec<String> = if names.is_empty() {
                models::list(&home)
                    .into_iter()
                    .filter(|m| m.installed && !m.overridden)
                    .map(|m| m.name)
                    .collect()
            } else {
                names
            };
            let mut bad = 0;
            for name in names {
                match models::verify(&home, &name) {
                    Ok(files) => eprintln!("✓ {name}: {} file(s) match", files.len()),
                    Err(e) => {
                        bad += 1;
                        eprintln!("✗ {name}: {e}");
                    }
                }
            }
            Ok(if bad == 0 { 0 } else { 1 })
        }
        ModelsCommand::Add {
            name,
            url,
            sha256,
            bytes,
            license,
            file,
            what,
            default,
        } => {
            crate::refuse_if_agent("models add")?;
            let file = file.unwrap_or_else(|| {
                url.rsplit('/')
                    .next()
                    .and_then(|f| f.split(['?', '#']).next())
                    .unwrap_or_default()
                    .to_string()
            });
            models::user::add(
                &home,
                models::user::UserModel {
                    name: name.clone(),
                    what,
                    license,
                    file,
                    url,
                    sha256: sha256.to_ascii_lowercase(),
                    bytes,
                    default,
                },
            )?;
            eprintln!(
                "added {name} to {}; fetch it with `jarvis models install {name}`",
                models::user::path(&home).display()
            );
            Ok(0)
        }
        ModelsCommand::Remove { name } => {
            crate::refuse_if_agent("models remove")?;
            for f in models::remove(&home, &name)? {
                eprintln!("removed {}", f.display());
            }
            Ok(0)
        }
    }
}

/// `JARVIS_MODELS_MIRROR`: a base URL laid out like the models folder.
pub fn env_mirror() -> Option<String> {
    std::env::var("JARVIS_MODELS_MIRROR")
        .ok()
        .filter(|m| !m.is_empty())
}

/// Downloads one model with a progress bar on the terminal.
pub async fn install_with_bar(
    home: &std::path::Path,
    name: &str,
    mirror: Option<&str>,
) -> Result<Vec<std::path::PathBuf>> {
    let bar = progress_bar();
    let files = models::install(home, name, mirror, |p| {
        if let Some(t) = p.total {
            bar.set_length(t);
        }
        if p.resumed_from > 0 && bar.position() == 0 {
            bar.println(format!("resuming {} at {} bytes", p.file, p.resumed_from));
        }
        bar.set_message(p.file.clone());
        bar.set_position(p.done);
    })
    .await
    .with_context(|| format!("installing {name}"))?;
    bar.finish_and_clear();
    Ok(files)
}

fn progress_bar() -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(0);
    bar.set_style(
        indicatif::ProgressStyle::with_template(
            "{msg} [{bar:30}] {bytes}/{total_bytes} {bytes_per_sec} eta {eta}",
        )
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> "),
    );
    bar
}
