//! A whole (not streamed) response read as the same events its stream would give: the
//! answer of a request sent with streaming off (the user's setting, or OpenAI's refusal to
//! stream to an unverified organisation), and the recordings that are whole.

use serde_json::{Value, json};

use super::translate::EventMapper;
use super::wire::ResponseTail;
use crate::chat::{ChatEvent, Replay};
use crate::providers::error::{ProviderError, from_stream_error};

/// A whole response, as the same events a stream would give.
pub fn parse_response(
    provider: &str,
    model: &str,
    body: &str,
    out: &mut Vec<ChatEvent>,
) -> Result<Option<Replay>, ProviderError> {
    let mut response: ResponseTail =
        serde_json::from_str(body).map_err(|e| ProviderError::unreadable_response(provider, &e))?;
    let mut mapper = EventMapper::new(provider, model);
    if let Some(error) = response.error.clone().filter(|e| !e.is_null()) {
        out.push(ChatEvent::Error(from_stream_error(
            provider,
            &json!({ "error": error }),
        )));
    }
    for item in std::mem::take(&mut response.output) {
        match item.get("type").and_then(Value::as_str) {
            // The finished item's summary (or raw reasoning text) is shown by `item_done`,
            // as for a stream that sent it only there.
            Some("reasoning") => mapper.start_reasoning(out),
            Some("message") => {
                for part in item
                    .get("content")
                    .and_then(Value::as_array)
                    .into_iter()
                    .flatten()
                {
                    let text = part
                        .get("text")
                        .or_else(|| part.get("refusal"))
                        .and_then(Value::as_str);
                    if let Some(text) = text {
                        out.push(ChatEvent::TextDelta {
                            text: text.to_owned(),
                        });
                    }
                }
            }
            _ => {}
        }
        mapper.item_done(item, out);
    }
    if response.status.is_some() || response.usage.is_some() {
        mapper.finish_response(response, out);
    }
    Ok(mapper.finish())
}
