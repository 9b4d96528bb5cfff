//! A whole (not streamed) response read as the same events its stream would give: the
//! answer of a request sent with streaming off (the user's setting, or OpenAI's refusal to
//! stream to an unverified organisation), and the recordings that are whole.

use super::translate::{EventMapper, stop_reason, usage_of};
use super::wire::Response;
use crate::chat::{ChatEvent, Replay};
use crate::providers::error::ProviderError;

/// A whole response, as the same events a stream would give.
pub fn parse_response(
    provider: &str,
    model: &str,
    body: &str,
    out: &mut Vec<ChatEvent>,
) -> Result<Option<Replay>, ProviderError> {
    let response: Response =
        serde_json::from_str(body).map_err(|e| ProviderError::unreadable_response(provider, &e))?;
    let mut mapper = EventMapper::new(provider, response.model.as_deref().unwrap_or(model));
    for (index, block) in response.content.into_iter().enumerate() {
        mapper.start_block(index, block, out);
        mapper.stop_block(index, out);
    }
    if let Some(usage) = response.usage {
        out.push(ChatEvent::Usage(usage_of(usage)));
    }
    if let Some(reason) = response.stop_reason {
        out.push(ChatEvent::Stop(stop_reason(&reason)));
    }
    mapper.done = true;
    Ok(mapper.finish())
}
