//! Loop detection: the same tool call, with the same arguments, three times
//! in a row is refused with a reason instead of run again.

use std::collections::HashMap;

use serde_json::Value;

use crate::llm::ToolCall;

/// The same call this many times in a row is not run again.
const MAX_IDENTICAL_CALLS: u32 = 3;

fn signature(call: &ToolCall) -> String {
    let args = serde_json::from_str::<Value>(&call.arguments)
        .map(|v| v.to_string())
        .unwrap_or_else(|_| call.arguments.clone());
    format!("{}\u{0}{args}", call.name)
}

/// Loop detection over the calls of a round: the same call three times in
/// a row is refused with a reason instead of run.
#[derive(Default)]
pub(super) struct Repeats {
    last: Option<String>,
    count: u32,
}

impl Repeats {
    pub(super) fn refusals(&mut self, calls: &[ToolCall]) -> HashMap<String, String> {
        let mut refused = HashMap::new();
        for call in calls {
            let sig = signature(call);
            if self.last.as_deref() == Some(sig.as_str()) {
                self.count += 1;
            } else {
                self.count = 1;
                self.last = Some(sig);
            }
            if self.count >= MAX_IDENTICAL_CALLS {
                refused.insert(
                    call.id.clone(),
                    format!(
                        "error: this exact {} call was already made {} times in a row; it was not run again. Stop repeating it.",
                        call.name,
                        self.count - 1
                    ),
                );
            }
        }
        refused
    }
}
