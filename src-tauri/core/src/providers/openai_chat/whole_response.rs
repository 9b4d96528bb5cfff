//! A whole (not streamed) response read as the same events its stream would give: the
//! answer of a request sent with streaming off (the user's setting, or OpenAI's refusal to
//! stream to an unverified organisation), and the recordings that are whole.

use super::translate::{EventMapper, InlineThoughts};
use super::wire::Chunk;
use crate::chat::{ChatEvent, Replay};
use crate::providers::error::ProviderError;

/// A whole response, as the same events a stream would give.
pub fn parse_response(
    provider: &str,
    model: &str,
    inline: InlineThoughts,
    body: &str,
    out: &mut Vec<ChatEvent>,
) -> Result<Option<Replay>, ProviderError> {
    let chunk: Chunk =
        serde_json::from_str(body).map_err(|e| ProviderError::unreadable_response(provider, &e))?;
    let mut mapper = EventMapper::new(provider, model, inline);
    let mut stops = Vec::new();
    mapper.on_chunk(chunk, true, &mut stops);
    // Usage and the stop reason come after the content, as they do in a stream.
    let (tail, body): (Vec<_>, Vec<_>) = stops
        .into_iter()
        .partition(|e| matches!(e, ChatEvent::Stop(_) | ChatEvent::Usage(_)));
    out.extend(body);
    let replay = mapper.finish(out);
    out.extend(tail);
    mapper.done = true;
    Ok(replay)
}
