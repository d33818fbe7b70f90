//! The catalog: every model file Jarvis can install, with where it comes
//! from and how it is checked.

use super::{Checksum, ModelFile, ModelKind, ModelSpec};

/// The models Jarvis can install.
pub const CATALOG: &[ModelSpec] = &[
    ModelSpec {
        name: "whisper-tiny.en",
        what: "speech to text, English (whisper.cpp tiny.en, 75 MB)",
        kind: ModelKind::Voice,
        license: "MIT",
        env: "JARVIS_STT_MODEL",
        files: &[ModelFile {
            path: "ggml-tiny.en.bin",
            url: "https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-tiny.en.bin",
            // Upstream's published SHA-1, and the sha256 of the rebuild from
            // PyPI packages described in the README (for offline machines).
            checksums: &[
                Checksum::Sha1("c78c86eb1a8faa21b369bcd33207cc90d64ae9df"),
                Checksum::Sha256(
                    "d16050124c5e21c45f264653a08c69fed83ea0885975d3471d6a5614c3266035",
                ),
            ],
            approx_bytes: 77_704_715,
        }],
    },
    ModelSpec {
        name: "silero-vad",
        what: "voice activity detection (Silero v6.2.0, 0.9 MB)",
        kind: ModelKind::Voice,
        license: "MIT",
        env: "JARVIS_VAD_MODEL",
        files: &[ModelFile {
            path: "silero-v6.2.0-ggml.bin",
            url: "https://github.com/ggml-org/whisper.cpp/raw/master/models/for-tests-silero-v6.2.0-ggml.bin",
            checksums: &[Checksum::Sha256(
                "2aa269b785eeb53a82983a20501ddf7c1d9c48e33ab63a41391ac6c9f7fb6987",
            )],
            approx_bytes: 885_098,
        }],
    },
    ModelSpec {
        name: "piper-joe",
        what: "neural voice, US English male (Piper joe medium, 63 MB)",
        kind: ModelKind::Voice,
        license: "MIT (voice data: see the voice's MODEL_CARD)",
        env: "JARVIS_TTS_VOICE",
        files: &[
            ModelFile {
                path: "piper/en_US-joe-medium.onnx",
                url: "https://huggingface.co/rhasspy/piper-voices/resolve/v1.0.0/en/en_US/joe/medium/en_US-joe-medium.onnx",
                checksums: &[Checksum::PinOnInstall],
                approx_bytes: 63_201_294,
            },
            ModelFile {
                path: "piper/en_US-joe-medium.onnx.json",
                url: "https://huggingface.co/rhasspy/piper-voices/resolve/v1.0.0/en/en_US/joe/medium/en_US-joe-medium.onnx.json",
                checksums: &[Checksum::PinOnInstall],
                approx_bytes: 4_794,
            },
        ],
    },
    // Chat models for the embedded engine. Their digests are pinned on
    // first download (the hub's pages could not be read from the machine
    // this catalog was written on); `jarvis models verify` checks against
    // the pin from then on.
    ModelSpec {
        name: "qwen2.5-1.5b",
        what: "chat with tool calling, the default (Qwen2.5 1.5B Instruct, Q4_K_M, 1.1 GB)",
        kind: ModelKind::Language,
        license: "Apache-2.0",
        env: "JARVIS_LOCAL_MODEL",
        files: &[ModelFile {
            path: "llm/qwen2.5-1.5b-instruct-q4_k_m.gguf",
            url: "https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/main/qwen2.5-1.5b-instruct-q4_k_m.gguf",
            checksums: &[Checksum::PinOnInstall],
            approx_bytes: 1_120_000_000,
        }],
    },
    ModelSpec {
        name: "qwen3-0.6b",
        what: "chat with tool calling, light (Qwen3 0.6B, Q8_0, 0.6 GB)",
        kind: ModelKind::Language,
        license: "Apache-2.0",
        env: "JARVIS_LOCAL_MODEL",
        files: &[ModelFile {
            path: "llm/Qwen3-0.6B-Q8_0.gguf",
            url: "https://huggingface.co/Qwen/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q8_0.gguf",
            checksums: &[Checksum::PinOnInstall],
            approx_bytes: 640_000_000,
        }],
    },
    ModelSpec {
        name: "qwen3-4b",
        what: "chat with tool calling, larger (Qwen3 4B, Q4_K_M, 2.5 GB)",
        kind: ModelKind::Language,
        license: "Apache-2.0",
        env: "JARVIS_LOCAL_MODEL",
        files: &[ModelFile {
            path: "llm/Qwen3-4B-Q4_K_M.gguf",
            url: "https://huggingface.co/Qwen/Qwen3-4B-GGUF/resolve/main/Qwen3-4B-Q4_K_M.gguf",
            checksums: &[Checksum::PinOnInstall],
            approx_bytes: 2_500_000_000,
        }],
    },
];
