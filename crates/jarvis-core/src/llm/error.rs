use thiserror::Error;

/// Why a model request failed. Every variant says what happened in words a
/// user can act on; none carries the API key.
#[derive(Debug, Error)]
pub enum LlmError {
    #[error("cannot reach the model server at {url}: {reason}")]
    Connect { url: String, reason: String },
    #[error("the model server at {url} answered HTTP {status}: {body}")]
    Http {
        url: String,
        status: u16,
        body: String,
    },
    #[error("gave up after {attempts} attempts: {last}")]
    RetriesExhausted {
        attempts: u32,
        #[source]
        last: Box<LlmError>,
    },
    #[error("the model server went silent for {secs:.1} s mid-stream (idle timeout)")]
    IdleTimeout { secs: f64 },
    #[error("the model server reported an error: {message}")]
    Provider { message: String },
    #[error("malformed stream chunk #{chunk}: {reason} (data: {snippet})")]
    MalformedChunk {
        chunk: usize,
        reason: String,
        snippet: String,
    },
    #[error("malformed event stream: {0}")]
    Sse(String),
    #[error(
        "the stream ended after {chunks} chunks without a finish reason or [DONE]: the answer is incomplete"
    )]
    Truncated { chunks: usize },
    #[error("the model returned an empty answer (finish reason: {finish_reason:?})")]
    EmptyAnswer { finish_reason: Option<String> },
    #[error("cancelled")]
    Cancelled,
    #[error("invalid model configuration: {0}")]
    Config(String),
}

impl LlmError {
    /// Errors worth another attempt: the request may succeed unchanged.
    pub fn is_retryable(&self) -> bool {
        match self {
            LlmError::Connect { .. } => true,
            LlmError::Http { status, .. } => *status == 429 || (500..600).contains(status),
            _ => false,
        }
    }
}
