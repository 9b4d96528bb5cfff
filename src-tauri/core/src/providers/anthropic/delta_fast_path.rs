//! The event that makes up nearly all of a long stream — a content block's delta, written the
//! way Anthropic's API writes it — read by matching its fixed parts and borrowing its text,
//! instead of through a JSON parser.
//!
//! Anything else (another event, other spacing, another key order, a key more) is left to
//! the JSON parser (`StreamEvent::parse_json`), so this only ever decides how fast
//! an event is read, never what it means; the tests hold both readings equal.

use std::borrow::Cow;

use super::wire::Delta;

const HEAD: &str = r#"{"type":"content_block_delta","index":"#;

/// The block index and delta of the event `data` is, when it is a block delta written exactly
/// as the API writes one.
pub(super) fn delta(data: &str) -> Option<(usize, Delta<'_>)> {
    let rest = data.strip_prefix(HEAD)?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    // A leading zero is not JSON; more than 9 digits is not an index anyone sends.
    if digits == 0 || digits > 9 || (digits > 1 && rest.starts_with('0')) {
        return None;
    }
    let index = rest[..digits].parse().ok()?;
    let rest = rest[digits..].strip_prefix(r#","delta":{"type":""#)?;
    let (kind, field) = [
        ("thinking_delta", "thinking"),
        ("text_delta", "text"),
        ("signature_delta", "signature"),
        ("input_json_delta", "partial_json"),
    ]
    .into_iter()
    .find(|(kind, _)| rest.starts_with(kind))?;
    let rest = rest[kind.len()..].strip_prefix(r#"",""#)?;
    let rest = rest.strip_prefix(field)?.strip_prefix(r#"":""#)?;
    let (text, after, escaped) = string_body(rest)?;
    // The API pads some events with spaces before their last brace.
    let after = skip_json_space(after.strip_prefix('}')?);
    if !skip_json_space(after.strip_prefix('}')?).is_empty() {
        return None;
    }
    let body = if escaped {
        // Escapes are JSON's to undo: the string, both quotes included, through the parser.
        let start = data.len() - rest.len() - 1;
        Cow::Owned(serde_json::from_str::<String>(&data[start..start + text.len() + 2]).ok()?)
    } else {
        Cow::Borrowed(text)
    };
    let delta = match kind {
        "thinking_delta" => Delta::ThinkingDelta(body),
        "text_delta" => Delta::TextDelta(body),
        "signature_delta" => Delta::SignatureDelta(body),
        _ => Delta::InputJsonDelta(body),
    };
    Some((index, delta))
}

/// A JSON string's body up to its closing quote (escapes skipped over, not undone), what
/// follows the quote, and whether it holds escapes. `None` when the string never closes or
/// holds a raw control character.
///
/// One pass over the bytes: a delta's text is a token or a few, so a vector search's set-up
/// (and a second pass for control characters) cost more than looking at each byte.
fn string_body(s: &str) -> Option<(&str, &str, bool)> {
    let bytes = s.as_bytes();
    let mut at = 0;
    let mut escaped = false;
    while let Some(&b) = bytes.get(at) {
        match b {
            b'"' => return Some((&s[..at], &s[at + 1..], escaped)),
            b'\\' => {
                escaped = true;
                at += 2;
            }
            // JSON forbids raw control characters in strings; the parser says so properly.
            0..=0x1f => return None,
            _ => at += 1,
        }
    }
    None
}

/// What follows JSON's whitespace (space, tab, line feed, carriage return) at the start of `s`.
fn skip_json_space(s: &str) -> &str {
    let n = s
        .bytes()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\n' | b'\r'))
        .count();
    &s[n..]
}

#[cfg(test)]
mod tests {
    use super::super::wire::StreamEvent;
    use super::*;

    /// The same event through the parser, to compare with.
    fn parsed(data: &str) -> Option<String> {
        StreamEvent::parse_json(data).ok().map(|e| format!("{e:?}"))
    }

    #[test]
    fn reads_the_api_shape_as_the_parser_does_and_leaves_every_other_shape_to_it() {
        let cases = [
            // (event, read here)
            (
                r#"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Let me think."}}"#,
                true,
            ),
            (
                r#"{"type":"content_block_delta","index":12,"delta":{"type":"text_delta","text":"Hello"}}"#,
                true,
            ),
            (
                r#"{"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQBCgIYAhIM"}}"#,
                true,
            ),
            (
                r#"{"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Par"}}"#,
                true,
            ),
            (
                r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\nb \"q\" \\ \u00e9 \ud83d\ude00 end"}}"#,
                true,
            ),
            (
                r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":""}}"#,
                true,
            ),
            (
                r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ends in a backslash\\"}}"#,
                true,
            ),
            // Left to the parser: other spacing, order, keys, types and broken ones.
            (
                r#"{"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "x"}}"#,
                false,
            ),
            (
                r#"{"index":0,"type":"content_block_delta","delta":{"type":"text_delta","text":"x"}}"#,
                false,
            ),
            (
                r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x","extra":1}}"#,
                false,
            ),
            (
                r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"},"extra":1}"#,
                false,
            ),
            (
                r#"{"type":"content_block_delta","index":0,"delta":{"type":"citations_delta","citation":{}}}"#,
                false,
            ),
            (
                r#"{"type":"content_block_delta","index":01,"delta":{"type":"text_delta","text":"x"}}"#,
                false,
            ),
            (
                r#"{"type":"content_block_delta","index":-1,"delta":{"type":"text_delta","text":"x"}}"#,
                false,
            ),
            (
                r#"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" is a question"}       }"#,
                true,
            ),
            (
                r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}}  "#,
                true,
            ),
            (
                r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}} }"#,
                false,
            ),
            (
                r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}"#,
                false,
            ),
            (
                r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x}}"#,
                false,
            ),
            (
                r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"bad \q escape"}}"#,
                false,
            ),
            (
                r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"raw	tab"}}"#,
                false,
            ),
            (
                r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x\"}}"#,
                false,
            ),
            (
                r#"{"type":"content_block_delta","index":99999999999,"delta":{"type":"text_delta","text":"x"}}"#,
                false,
            ),
            (r#"{"type":"message_stop"}"#, false),
        ];
        for (data, here) in cases {
            let fast = delta(data).map(|(index, delta)| {
                format!("{:?}", StreamEvent::ContentBlockDelta { index, delta })
            });
            assert_eq!(fast.is_some(), here, "{data}");
            if let Some(fast) = fast {
                assert_eq!(Some(fast), parsed(data), "{data}");
            }
        }
        // Bytes a raw string cannot show: a form feed is not JSON's whitespace, and a raw
        // line feed is no more allowed after a backslash than anywhere else in a string.
        for data in [
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"x\"}\u{c}}",
            "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"a\\\nb\"}}",
        ] {
            assert!(delta(data).is_none(), "{data:?}");
            assert!(parsed(data).is_none(), "{data:?}");
        }
    }

    #[test]
    fn text_without_escapes_is_borrowed_from_the_event() {
        let data = r#"{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"plain"}}"#;
        let Some((0, Delta::ThinkingDelta(Cow::Borrowed(text)))) = delta(data) else {
            panic!("not borrowed");
        };
        assert_eq!(text, "plain");
    }
}
