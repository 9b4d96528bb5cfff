//! How a message's replay is written so that a long thought is on disk once.
//!
//! The replay is the provider's own turn (Anthropic's content blocks, a Responses output, Gemini
//! parts), kept verbatim to send back. It repeats the thoughts and the answer that the parts
//! already hold — for a long thought megabytes, written, checkpointed and read a second time.
//! Here every long string of the replay that is exactly the text of one of the message's parts
//! is written as `{"$part": N}` and put back on read. It looks at no provider's shape: any
//! string anywhere in the replay that equals a part's text is shared, anything else stays as it
//! was. An object of the provider's that happens to look like a reference (its only key is
//! `$part` or `$literal`) is written as `{"$literal": {...}}` and read back as it was.
//!
//! A row written this way says so (`"parts_shared": true` beside the replay's fields); rows
//! written before are read as they are.

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::chat::{Part, Replay};

/// Shorter strings are not worth a reference (and a signature or an id never equals a text).
const SHARED_FROM_BYTES: usize = 256;

const PART: &str = "$part";
const LITERAL: &str = "$literal";

/// The replay as it is written, with long texts of `parts` referred to.
pub(super) fn encode(replay: &Replay, parts: &[Part]) -> serde_json::Result<String> {
    let texts: Vec<Option<&str>> = parts.iter().map(part_text).collect();
    let shared = Shared {
        value: &replay.content,
        texts: &texts,
    };
    if !shared.refers() {
        return serde_json::to_string(replay);
    }
    serde_json::to_string(&Written {
        provider: &replay.provider,
        model: &replay.model,
        content: shared,
        parts_shared: true,
    })
}

/// Reads a stored replay, putting the parts' texts back where it refers to them. `None` when a
/// reference has no text to take (never written so; a replay that cannot be rebuilt whole is
/// left out rather than sent back changed).
pub(super) fn decode(json: &str, parts: &[Part]) -> serde_json::Result<Option<Replay>> {
    let stored: Stored = serde_json::from_str(json)?;
    let mut content = stored.content;
    if stored.parts_shared && !restore(&mut content, parts) {
        return Ok(None);
    }
    Ok(Some(Replay {
        provider: stored.provider,
        model: stored.model,
        content,
    }))
}

fn part_text(part: &Part) -> Option<&str> {
    match part {
        Part::Text { text } => Some(text.as_str()),
        Part::Thinking(block) => Some(block.text.as_str()),
        Part::ToolCall(_) | Part::ToolResult(_) | Part::Attachment(_) => None,
    }
    .filter(|t| t.len() >= SHARED_FROM_BYTES)
}

#[derive(Serialize)]
struct Written<'a> {
    provider: &'a str,
    model: &'a str,
    content: Shared<'a>,
    parts_shared: bool,
}

#[derive(Deserialize)]
struct Stored {
    provider: String,
    model: String,
    content: Value,
    #[serde(default)]
    parts_shared: bool,
}

/// A replay value written with references, without copying it.
#[derive(Clone, Copy)]
struct Shared<'a> {
    value: &'a Value,
    texts: &'a [Option<&'a str>],
}

impl<'a> Shared<'a> {
    fn at(self, value: &'a Value) -> Self {
        Self { value, ..self }
    }

    fn part_of(self, s: &str) -> Option<usize> {
        if s.len() < SHARED_FROM_BYTES {
            return None;
        }
        self.texts.iter().position(|t| *t == Some(s))
    }

    /// Whether anything in the value would be written as a reference.
    fn refers(self) -> bool {
        match self.value {
            Value::String(s) => self.part_of(s).is_some(),
            Value::Array(items) => items.iter().any(|v| self.at(v).refers()),
            Value::Object(map) => map.values().any(|v| self.at(v).refers()),
            _ => false,
        }
    }
}

fn looks_like_a_marker(map: &Map<String, Value>) -> bool {
    map.len() == 1 && (map.contains_key(PART) || map.contains_key(LITERAL))
}

impl Serialize for Shared<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.value {
            Value::String(s) => match self.part_of(s) {
                Some(index) => {
                    let mut map = serializer.serialize_map(Some(1))?;
                    map.serialize_entry(PART, &index)?;
                    map.end()
                }
                None => serializer.serialize_str(s),
            },
            Value::Array(items) => {
                let mut seq = serializer.serialize_seq(Some(items.len()))?;
                for item in items {
                    seq.serialize_element(&self.at(item))?;
                }
                seq.end()
            }
            Value::Object(map) if looks_like_a_marker(map) => {
                let mut outer = serializer.serialize_map(Some(1))?;
                outer.serialize_entry(LITERAL, &Fields(*self, map))?;
                outer.end()
            }
            Value::Object(map) => Fields(*self, map).serialize(serializer),
            other => other.serialize(serializer),
        }
    }
}

/// An object's fields, each value written with references.
struct Fields<'a>(Shared<'a>, &'a Map<String, Value>);

impl Serialize for Fields<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_map(Some(self.1.len()))?;
        for (key, value) in self.1 {
            out.serialize_entry(key, &self.0.at(value))?;
        }
        out.end()
    }
}

/// Puts the texts back in place; false when a reference points at no text.
fn restore(value: &mut Value, parts: &[Part]) -> bool {
    match value {
        Value::Array(items) => items.iter_mut().all(|v| restore(v, parts)),
        Value::Object(map) => {
            if map.len() == 1 {
                if let Some(index) = map.get(PART) {
                    let text = index
                        .as_u64()
                        .and_then(|i| parts.get(usize::try_from(i).ok()?))
                        .and_then(part_text);
                    return match text {
                        Some(text) => {
                            *value = Value::String(text.to_owned());
                            true
                        }
                        None => false,
                    };
                }
                if let Some(Value::Object(inner)) = map.get_mut(LITERAL) {
                    // The provider's own object: its fields are read, it is not a marker.
                    let mut inner = std::mem::take(inner);
                    let whole = inner.values_mut().all(|v| restore(v, parts));
                    *value = Value::Object(inner);
                    return whole;
                }
            }
            map.values_mut().all(|v| restore(v, parts))
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::chat::ThinkingBlock;

    fn long(word: &str) -> String {
        word.repeat(SHARED_FROM_BYTES / word.len() + 1)
    }

    fn thinking(text: &str) -> Part {
        Part::Thinking(ThinkingBlock {
            text: text.into(),
            ..ThinkingBlock::default()
        })
    }

    fn replay(content: Value) -> Replay {
        Replay {
            provider: "anthropic".into(),
            model: "claude-sonnet-4-5".into(),
            content,
        }
    }

    #[test]
    fn every_replay_reads_back_as_it_was_written() {
        let thought = long("pondering ");
        let answer = long("answer ");
        let parts = vec![
            thinking(&thought),
            Part::Text {
                text: answer.clone(),
            },
            thinking("short"),
        ];
        // (what, replay content, whether it is written with references)
        let cases: Vec<(&str, Value, bool)> = vec![
            (
                "Anthropic blocks",
                json!({"role": "assistant", "content": [
                    {"type": "thinking", "thinking": thought, "signature": "sig"},
                    {"type": "text", "text": answer}]}),
                true,
            ),
            (
                "a Responses output with a summary",
                json!([{"type": "reasoning", "summary": [{"type": "summary_text", "text": thought}],
                        "encrypted_content": "gAAA"}]),
                true,
            ),
            ("short texts stay", json!({"thinking": "short"}), false),
            (
                "a long string that is no part's text stays",
                json!({"x": long("other ")}),
                false,
            ),
            (
                "provider objects that look like references",
                json!({"a": {"$part": 0}, "b": {"$literal": {"$part": 1}}, "c": [{"$literal": 3}],
                       "d": thought}),
                true,
            ),
            (
                "look-alikes without any reference",
                json!({"a": {"$part": 0}}),
                false,
            ),
            (
                "a look-alike holding a shared text",
                json!({"$literal": {"t": answer}}),
                true,
            ),
            ("not an object", json!(null), false),
        ];
        for (what, content, shares) in cases {
            let replay = replay(content);
            let written = encode(&replay, &parts).unwrap();
            assert_eq!(
                written.contains("\"parts_shared\":true"),
                shares,
                "{what}: {written}"
            );
            if shares {
                assert!(
                    written.len() < serde_json::to_string(&replay).unwrap().len(),
                    "{what}: nothing saved"
                );
            }
            assert_eq!(
                decode(&written, &parts).unwrap(),
                Some(replay.clone()),
                "{what}"
            );
        }
    }

    #[test]
    fn rows_written_before_read_as_they_are() {
        let thought = long("pondering ");
        let parts = vec![thinking(&thought)];
        // Written before references: a literal `$part` object is the provider's own.
        let old = json!({"provider": "openai", "model": "o3",
                         "content": {"a": {"$part": 0}, "t": thought}});
        assert_eq!(
            decode(&old.to_string(), &parts).unwrap().unwrap().content,
            old["content"]
        );
    }

    #[test]
    fn a_reference_without_its_text_leaves_the_replay_out() {
        let thought = long("pondering ");
        let written = encode(&replay(json!({"t": thought})), &[thinking(&thought)]).unwrap();
        assert_eq!(decode(&written, &[thinking("gone")]).unwrap(), None);
        assert_eq!(decode(&written, &[]).unwrap(), None);
    }
}
