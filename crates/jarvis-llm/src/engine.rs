//! One loaded model and the decode loop. A context is made per request
//! (cheap beside the model), so requests never see each other's cache.

use std::num::NonZeroU32;
use std::path::Path;
use std::time::Instant;

use llama_cpp_2::context::params::LlamaContextParams;
use llama_cpp_2::llama_backend::LlamaBackend;
use llama_cpp_2::llama_batch::LlamaBatch;
use llama_cpp_2::model::LlamaModel;
use llama_cpp_2::model::params::LlamaModelParams;
use llama_cpp_2::sampling::LlamaSampler;

const BATCH: usize = 512;

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("cannot start llama.cpp: {0}")]
    Backend(String),
    #[error("cannot load the model {path}: {why}")]
    Load { path: String, why: String },
    #[error("cannot make a context of {ctx} tokens: {0}", ctx = .1)]
    Context(String, u32),
    #[error(
        "the conversation is {prompt} tokens and the model's context is {ctx}: \
         start a new conversation or raise --ctx"
    )]
    Overflow { prompt: usize, ctx: u32 },
    #[error("the model failed to decode: {0}")]
    Decode(String),
    #[error("the grammar for the tool call was refused: {0}")]
    Grammar(String),
}

#[derive(Debug, Clone, Copy)]
pub struct EngineOptions {
    pub ctx: u32,
    pub threads: i32,
}

/// What one request asks the model to do.
#[derive(Debug, Clone)]
pub struct Generation {
    pub prompt: String,
    pub max_tokens: u32,
    /// 0 is greedy.
    pub temperature: f32,
    pub top_p: f32,
    pub seed: u32,
    pub grammar: Option<String>,
    /// When set, the grammar applies only from what triggers it on, not
    /// from the start (`auto`: text is free, a call must be well formed).
    pub trigger: Option<Trigger>,
}

/// What starts a lazy grammar.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Trigger {
    /// A tag the model writes before a call (Hermes `<tool_call>`).
    Word(&'static str),
    /// A regular expression that must match the whole reply so far; the
    /// grammar takes over from its first group (Llama 3's bare JSON call,
    /// which has no tag).
    Pattern(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Finish {
    /// The model ended its turn (or the grammar was complete).
    Stop,
    /// `max_tokens`, or the end of the context.
    Length,
    /// The model was saying the same few tokens over and over (a small
    /// model at temperature 0 can fall into a loop it never leaves).
    Looping,
    /// The client went away.
    Cancelled,
}

#[derive(Debug, Clone, Copy, Default)]
pub struct Usage {
    pub prompt_tokens: usize,
    pub completion_tokens: usize,
    pub prompt_ms: f64,
    pub predicted_ms: f64,
}

pub struct Engine {
    // Dropped after the model (fields drop in order).
    model: LlamaModel,
    backend: LlamaBackend,
    opts: EngineOptions,
}

impl Engine {
    pub fn load(path: &Path, opts: EngineOptions) -> Result<Self, EngineError> {
        let mut backend = LlamaBackend::init().map_err(|e| EngineError::Backend(e.to_string()))?;
        backend.void_logs();
        if !path.is_file() {
            return Err(EngineError::Load {
                path: path.display().to_string(),
                why: "no such file".into(),
            });
        }
        let model = LlamaModel::load_from_file(&backend, path, &LlamaModelParams::default())
            .map_err(|e| EngineError::Load {
                path: path.display().to_string(),
                why: e.to_string(),
            })?;
        Ok(Engine {
            model,
            backend,
            opts,
        })
    }

    pub fn model(&self) -> &LlamaModel {
        &self.model
    }

    /// The GGUF's own chat template, when it has one.
    pub fn chat_template(&self) -> Option<String> {
        self.model.meta_val_str("tokenizer.chat_template").ok()
    }

    pub fn context_size(&self) -> u32 {
        self.opts.ctx
    }

    /// Runs `g`, handing each piece of text to `on_text` as soon as it is
    /// whole UTF-8; `on_text` returning false stops at once.
    pub fn generate(
        &self,
        g: &Generation,
        mut on_text: impl FnMut(&str) -> bool,
    ) -> Result<(Finish, Usage), EngineError> {
        let ctx_size = self.opts.ctx;
        let params = LlamaContextParams::default()
            .with_n_ctx(NonZeroU32::new(ctx_size))
            .with_n_batch(BATCH as u32)
            .with_n_threads(self.opts.threads)
            .with_n_threads_batch(self.opts.threads);
        let mut ctx = self
            .model
            .new_context(&self.backend, params)
            .map_err(|e| EngineError::Context(e.to_string(), ctx_size))?;
        let vocab = self.model.vocab();
        let tokens = vocab.tokenize(g.prompt.as_bytes(), true, true);
        if tokens.len() >= ctx_size as usize {
            return Err(EngineError::Overflow {
                prompt: tokens.len(),
                ctx: ctx_size,
            });
        }
        let room = ctx_size as usize - tokens.len();
        let limit = (g.max_tokens as usize).min(room);
        let mut usage = Usage {
            prompt_tokens: tokens.len(),
            ..Usage::default()
        };
        let started = Instant::now();
        let mut batch = LlamaBatch::new(BATCH, 1);
        let last = tokens.len().saturating_sub(1);
        for (chunk_at, chunk) in tokens.chunks(BATCH).enumerate() {
            batch.clear();
            for (k, t) in chunk.iter().enumerate() {
                let pos = chunk_at * BATCH + k;
                batch
                    .add(*t, pos as i32, &[0], pos == last)
                    .map_err(|e| EngineError::Decode(e.to_string()))?;
            }
            ctx.decode(&mut batch)
                .map_err(|e| EngineError::Decode(e.to_string()))?;
        }
        usage.prompt_ms = started.elapsed().as_secs_f64() * 1000.0;
        let mut sampler = self.sampler(g)?;
        let generating = Instant::now();
        let mut pending: Vec<u8> = Vec::new();
        let mut pos = tokens.len();
        let mut finish = Finish::Length;
        let mut said: Vec<i32> = Vec::new();
        while usage.completion_tokens < limit {
            // Sampling accepts the token into every sampler (the grammar
            // included); accepting it again would advance the grammar twice.
            let token = sampler.sample(&ctx, batch.n_tokens() - 1);
            if vocab.is_eog(token) {
                finish = Finish::Stop;
                break;
            }
            usage.completion_tokens += 1;
            said.push(token.0);
            if looping(&said) {
                finish = Finish::Looping;
                break;
            }
            pending.extend(vocab.token_to_piece(token, false, None));
            let whole = match std::str::from_utf8(&pending) {
                Ok(s) => s.len(),
                Err(e) => e.valid_up_to(),
            };
            if whole > 0 {
                let text: Vec<u8> = pending.drain(..whole).collect();
                if !on_text(&String::from_utf8_lossy(&text)) {
                    finish = Finish::Cancelled;
                    break;
                }
            }
            batch.clear();
            batch
                .add(token, pos as i32, &[0], true)
                .map_err(|e| EngineError::Decode(e.to_string()))?;
            pos += 1;
            ctx.decode(&mut batch)
                .map_err(|e| EngineError::Decode(e.to_string()))?;
        }
        // Bytes left over are a character cut by the token limit: dropped,
        // not shown as a replacement character.
        if let Ok(rest) = std::str::from_utf8(&pending)
            && !rest.is_empty()
            && finish != Finish::Cancelled
        {
            on_text(rest);
        }
        usage.predicted_ms = generating.elapsed().as_secs_f64() * 1000.0;
        Ok((finish, usage))
    }

    fn sampler(&self, g: &Generation) -> Result<LlamaSampler, EngineError> {
        let mut chain = Vec::new();
        if let Some(grammar) = &g.grammar {
            let sampler = match &g.trigger {
                Some(Trigger::Word(w)) => {
                    LlamaSampler::grammar_lazy(&self.model, grammar, "root", [*w], &[])
                }
                Some(Trigger::Pattern(p)) => LlamaSampler::grammar_lazy_patterns(
                    &self.model,
                    grammar,
                    "root",
                    std::slice::from_ref(p),
                    &[],
                ),
                None => LlamaSampler::grammar(&self.model, grammar, "root"),
            };
            chain.push(sampler.map_err(|e| EngineError::Grammar(e.to_string()))?);
        }
        if g.temperature <= 0.0 {
            chain.push(LlamaSampler::greedy());
        } else {
            chain.push(LlamaSampler::top_p(g.top_p.clamp(0.01, 1.0), 1));
            chain.push(LlamaSampler::temp(g.temperature));
            chain.push(LlamaSampler::dist(g.seed));
        }
        Ok(LlamaSampler::chain_simple(chain))
    }
}

/// Tokens in a row that must repeat one short block before the answer is
/// cut as a loop: long enough that a ruler of dashes or a repeated table
/// row goes through, short enough that a loop costs seconds, not minutes.
const LOOP_SPAN: usize = 96;

/// Whether the last [`LOOP_SPAN`] tokens are one block of at most 24
/// tokens said again and again.
fn looping(said: &[i32]) -> bool {
    if said.len() < LOOP_SPAN {
        return false;
    }
    let tail = &said[said.len() - LOOP_SPAN..];
    (1..=24).any(|period| tail.iter().skip(period).zip(tail).all(|(a, b)| a == b))
}

#[cfg(test)]
mod tests {
    use llama_cpp_2::token::LlamaToken;
    use llama_cpp_2::token::data::LlamaTokenData;
    use llama_cpp_2::token::data_array::LlamaTokenDataArray;

    use super::*;
    use crate::grammar::{auto_grammar, auto_trigger};

    #[test]
    fn a_short_block_said_over_and_over_is_a_loop() {
        let error_lines: Vec<i32> = [27, 1526, 29, 198].repeat(30);
        assert!(looping(&error_lines));
        let same: Vec<i32> = vec![12; LOOP_SPAN];
        assert!(looping(&same));
        // Prose does not repeat exactly; a long table row may, but not 96
        // tokens of one block of 24 or fewer.
        let prose: Vec<i32> = (0..200).map(|i| (i * 7919) % 1000).collect();
        assert!(!looping(&prose));
        let long_row: Vec<i32> = (0..40).collect::<Vec<_>>().repeat(3);
        assert!(!looping(&long_row));
        assert!(!looping(&same[..LOOP_SPAN - 1]));
    }
    use crate::template::Format;

    /// The token `sampler` picks when `favoured` is the model's first
    /// choice and every other token ties behind it.
    fn pick(engine: &Engine, sampler: &mut LlamaSampler, favoured: LlamaToken) -> String {
        let data = engine
            .model()
            .vocab()
            .tokens()
            .map(|t| LlamaTokenData::new(t, if t == favoured { 10.0 } else { 0.0 }, 0.0));
        let mut all = LlamaTokenDataArray::from_iter(data, false);
        sampler.apply(&mut all);
        let chosen = all.selected_token().unwrap_or(favoured);
        String::from_utf8_lossy(&engine.model().vocab().token_to_piece(chosen, false, None))
            .into_owned()
    }

    fn feed(engine: &Engine, sampler: &mut LlamaSampler, text: &str) {
        for t in engine
            .model()
            .vocab()
            .tokenize(text.as_bytes(), false, false)
        {
            sampler.accept(t);
        }
    }

    /// Llama 3's `auto`: free text stays free, and a reply that begins as
    /// a call object (`{"name"`) is held to the tools' schemas from there.
    /// The real vocabulary and llama.cpp's lazy grammar, with no model
    /// choice involved: the test model cannot be made to write a Llama 3
    /// call on its own.
    #[test]
    fn llama_3s_lazy_grammar_waits_for_a_call_then_holds_it_to_the_schema() {
        let Some(path) = jarvis_testkit::test_gguf() else {
            return;
        };
        let engine = Engine::load(
            &path,
            EngineOptions {
                ctx: 256,
                threads: 2,
            },
        )
        .unwrap();
        let tools: Vec<crate::api::Tool> = serde_json::from_value(serde_json::json!([
            {"type": "function", "function": {"name": "get_weather", "parameters": {
                "type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}
        ]))
        .unwrap();
        let g = Generation {
            prompt: String::new(),
            max_tokens: 1,
            temperature: 0.0,
            top_p: 1.0,
            seed: 1,
            grammar: Some(auto_grammar(&tools, Format::Llama3).unwrap()),
            trigger: Some(auto_trigger(Format::Llama3)),
        };
        let hello = engine.model().vocab().tokenize(b" Hello", false, false)[0];

        // Text: the model's choice stands.
        let mut text = engine.sampler(&g).unwrap();
        feed(&engine, &mut text, "Sure, the weather");
        assert_eq!(pick(&engine, &mut text, hello), " Hello");

        // A call begun: `Hello` is not what the schema allows next.
        let mut call = engine.sampler(&g).unwrap();
        feed(&engine, &mut call, "{\"name\": \"");
        let next = pick(&engine, &mut call, hello);
        assert_ne!(next, " Hello");
        assert!(
            !next.is_empty() && "get_weather\"".starts_with(next.as_str()),
            "the grammar allows only the tool's name next, got {next:?}"
        );
    }
}
