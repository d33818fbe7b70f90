//! A turn's side of the budget: the check before each model request and
//! the booking after it.

use jarvis_protocol::{Event, Usage};

use super::context::{estimate_tokens, message_tokens};
use super::turn::Turn;
use crate::llm::{Assembled, ChatMessage};

/// Why this request may not go out, if so: today's caps, or the run's own
/// token limit. Said once per turn at 80 % of a cap.
pub(super) fn before_request(turn: &Turn<'_>, used: &Usage, rounds: u32) -> Option<String> {
    let inner = turn.inner;
    if let Some(why) = crate::budget::exhausted(inner) {
        return Some(why);
    }
    // What the ledger booked for this run's session counts estimates too
    // (a server that reports no usage cannot dodge the limit).
    if let Some(limit) = turn.run.spec.max_tokens
        && used
            .total_tokens
            .max(inner.store.session_tokens(turn.session).unwrap_or(0))
            >= limit
    {
        return Some(format!(
            "this run reached its limit of {limit} tokens (budget.task_max_tokens)"
        ));
    }
    if rounds == 1
        && let Some(w) = crate::budget::warning(inner)
    {
        turn.emit(Event::Notice { message: w });
    }
    None
}

/// Books the request in the ledger (estimated from the text when the
/// server reported no usage).
pub(super) fn after_request(
    turn: &Turn<'_>,
    request: &[ChatMessage],
    tools_tokens: u64,
    answer: &Assembled,
) {
    let prompt = request.iter().map(message_tokens).sum::<u64>() + tools_tokens;
    let completion = estimate_tokens(answer.content.as_deref().unwrap_or(""))
        + answer
            .tool_calls
            .iter()
            .map(|c| estimate_tokens(&c.arguments) + 8)
            .sum::<u64>();
    crate::budget::record(
        turn.inner,
        turn.run.spec.origin,
        Some(turn.session),
        answer.usage.as_ref(),
        (prompt, completion),
    );
}
