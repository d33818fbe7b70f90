//! The catalog: every model file Jarvis can install, with where it comes
//! from and how it is checked.

use std::borrow::Cow;

use super::{Checksum, ModelFile, ModelKind, ModelSpec, Text};

const fn t(s: &'static str) -> Text {
    Cow::Borrowed(s)
}

/// The models Jarvis can install.
pub const CATALOG: &[ModelSpec] = &[
    ModelSpec {
        name: t("whisper-tiny.en"),
        what: t("speech to text, English (whisper.cpp tiny.en, 75 MB)"),
        kind: ModelKind::Voice,
        license: t("MIT"),
        env: "JARVIS_STT_MODEL",
        files: Cow::Borrowed(&[ModelFile {
            path: t("ggml-tiny.en.bin"),
            url: t("https://huggingface.co/ggerganov/whisper.cpp/resolve/main/ggml-tiny.en.bin"),
            // Upstream's published SHA-1, and the sha256 of the rebuild from
            // PyPI packages described in the README (for offline machines).
            checksums: Cow::Borrowed(&[
                Checksum::Sha1(t("c78c86eb1a8faa21b369bcd33207cc90d64ae9df")),
                Checksum::Sha256(t(
                    "d16050124c5e21c45f264653a08c69fed83ea0885975d3471d6a5614c3266035",
                )),
            ]),
            approx_bytes: 77_704_715,
        }]),
        user: false,
        default: false,
    },
    ModelSpec {
        name: t("silero-vad"),
        what: t("voice activity detection (Silero v6.2.0, 0.9 MB)"),
        kind: ModelKind::Voice,
        license: t("MIT"),
        env: "JARVIS_VAD_MODEL",
        files: Cow::Borrowed(&[ModelFile {
            path: t("silero-v6.2.0-ggml.bin"),
            url: t(
                "https://github.com/ggml-org/whisper.cpp/raw/master/models/for-tests-silero-v6.2.0-ggml.bin",
            ),
            checksums: Cow::Borrowed(&[Checksum::Sha256(t(
                "2aa269b785eeb53a82983a20501ddf7c1d9c48e33ab63a41391ac6c9f7fb6987",
            ))]),
            approx_bytes: 885_098,
        }]),
        user: false,
        default: false,
    },
    ModelSpec {
        name: t("piper-joe"),
        what: t("neural voice, US English male (Piper joe medium, 63 MB)"),
        kind: ModelKind::Voice,
        license: t("MIT (voice data: see the voice's MODEL_CARD)"),
        env: "JARVIS_TTS_VOICE",
        files: Cow::Borrowed(&[
            ModelFile {
                path: t("piper/en_US-joe-medium.onnx"),
                url: t(
                    "https://huggingface.co/rhasspy/piper-voices/resolve/v1.0.0/en/en_US/joe/medium/en_US-joe-medium.onnx",
                ),
                checksums: Cow::Borrowed(&[Checksum::PinOnInstall]),
                approx_bytes: 63_201_294,
            },
            ModelFile {
                path: t("piper/en_US-joe-medium.onnx.json"),
                url: t(
                    "https://huggingface.co/rhasspy/piper-voices/resolve/v1.0.0/en/en_US/joe/medium/en_US-joe-medium.onnx.json",
                ),
                checksums: Cow::Borrowed(&[Checksum::PinOnInstall]),
                approx_bytes: 4_794,
            },
        ]),
        user: false,
        default: false,
    },
    // Chat models for the embedded engine: Qwen's own GGUF files, fetched
    // at a fixed revision of their repository and checked against the
    // sha256 the hub publishes for that revision (the LFS object id).
    ModelSpec {
        name: t("qwen2.5-1.5b"),
        what: t("chat with tool calling, the default (Qwen2.5 1.5B Instruct, Q4_K_M, 1.1 GB)"),
        kind: ModelKind::Language,
        license: t("Apache-2.0"),
        env: "JARVIS_LOCAL_MODEL",
        files: Cow::Borrowed(&[ModelFile {
            path: t("llm/qwen2.5-1.5b-instruct-q4_k_m.gguf"),
            url: t(
                "https://huggingface.co/Qwen/Qwen2.5-1.5B-Instruct-GGUF/resolve/91cad51170dc346986eccefdc2dd33a9da36ead9/qwen2.5-1.5b-instruct-q4_k_m.gguf",
            ),
            checksums: Cow::Borrowed(&[Checksum::Sha256(t(
                "6a1a2eb6d15622bf3c96857206351ba97e1af16c30d7a74ee38970e434e9407e",
            ))]),
            approx_bytes: 1_117_320_736,
        }]),
        user: false,
        default: true,
    },
    ModelSpec {
        name: t("qwen3-0.6b"),
        what: t("chat with tool calling, light (Qwen3 0.6B, Q8_0, 0.6 GB)"),
        kind: ModelKind::Language,
        license: t("Apache-2.0"),
        env: "JARVIS_LOCAL_MODEL",
        files: Cow::Borrowed(&[ModelFile {
            path: t("llm/Qwen3-0.6B-Q8_0.gguf"),
            url: t(
                "https://huggingface.co/Qwen/Qwen3-0.6B-GGUF/resolve/23749fefcc72300e3a2ad315e1317431b06b590a/Qwen3-0.6B-Q8_0.gguf",
            ),
            checksums: Cow::Borrowed(&[Checksum::Sha256(t(
                "9465e63a22add5354d9bb4b99e90117043c7124007664907259bd16d043bb031",
            ))]),
            approx_bytes: 639_446_688,
        }]),
        user: false,
        default: false,
    },
    ModelSpec {
        name: t("qwen3-4b"),
        what: t("chat with tool calling, larger (Qwen3 4B, Q4_K_M, 2.5 GB)"),
        kind: ModelKind::Language,
        license: t("Apache-2.0"),
        env: "JARVIS_LOCAL_MODEL",
        files: Cow::Borrowed(&[ModelFile {
            path: t("llm/Qwen3-4B-Q4_K_M.gguf"),
            url: t(
                "https://huggingface.co/Qwen/Qwen3-4B-GGUF/resolve/bc640142c66e1fdd12af0bd68f40445458f3869b/Qwen3-4B-Q4_K_M.gguf",
            ),
            checksums: Cow::Borrowed(&[Checksum::Sha256(t(
                "7485fe6f11af29433bc51cab58009521f205840f5b4ae3a32fa7f92e8534fdf5",
            ))]),
            approx_bytes: 2_497_280_256,
        }]),
        user: false,
        default: false,
    },
];
