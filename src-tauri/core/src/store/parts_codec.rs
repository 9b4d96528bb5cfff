//! How a message's parts are written so that its thoughts are on disk once.
//!
//! A row keeps its thought text in the `thoughts` column, which the search index reads. The
//! parts (JSON) held the same text again — for a long thought megabytes more to escape, write,
//! checkpoint and parse. Now a row with thoughts writes its parts with each thinking block's
//! text left empty and says where in `thoughts` each one is:
//! `{"thoughts_at": [[start, length], …], "parts": [ … ]}` (byte offsets, one pair per thinking
//! block in order). Rows without thoughts, and rows written before, are a plain array and are
//! read as they are.

use std::borrow::Cow;

use serde::{Deserialize, Serialize, de};

use crate::chat::{Part, ThinkingBlock};

/// A message's columns as written.
#[derive(Debug, PartialEq)]
pub(super) struct Columns {
    pub parts: String,
    /// The visible text, for search and previews.
    pub text: String,
    /// Every thinking block's text, joined by newlines: what the search index reads.
    pub thoughts: String,
}

#[derive(Serialize)]
struct Written<'a> {
    thoughts_at: Vec<(usize, usize)>,
    parts: Vec<Cow<'a, Part>>,
}

#[derive(Deserialize)]
struct Stored {
    thoughts_at: Vec<(usize, usize)>,
    parts: Vec<Part>,
}

pub(super) fn encode(parts: &[Part]) -> serde_json::Result<Columns> {
    let mut text = String::new();
    let mut thoughts = String::new();
    let mut thoughts_at = Vec::new();
    for part in parts {
        match part {
            Part::Text { text: t } => text.push_str(t),
            Part::Thinking(block) => {
                // As rows were always joined: empty blocks add no line.
                if !thoughts.is_empty() {
                    thoughts.push('\n');
                }
                thoughts_at.push((thoughts.len(), block.text.len()));
                thoughts.push_str(&block.text);
            }
            Part::ToolCall(_) | Part::ToolResult(_) => {}
        }
    }
    let parts = if thoughts.is_empty() {
        serde_json::to_string(parts)?
    } else {
        serde_json::to_string(&Written {
            thoughts_at,
            parts: parts.iter().map(without_thought).collect(),
        })?
    };
    Ok(Columns {
        parts,
        text,
        thoughts,
    })
}

/// The part as written: a thinking block without its text, everything else as it is.
fn without_thought(part: &Part) -> Cow<'_, Part> {
    match part {
        // Field by field, so that the text is never copied (and a new field is not forgotten).
        Part::Thinking(ThinkingBlock {
            text: _,
            source,
            signature,
            redacted,
            provider_data,
            hidden,
            duration_ms,
            token_estimate,
        }) => Cow::Owned(Part::Thinking(ThinkingBlock {
            text: String::new(),
            source: *source,
            signature: signature.clone(),
            redacted: redacted.clone(),
            provider_data: provider_data.clone(),
            hidden: *hidden,
            duration_ms: *duration_ms,
            token_estimate: *token_estimate,
        })),
        other => Cow::Borrowed(other),
    }
}

/// Reads the parts back, each thinking block's text taken from `thoughts`. Places that do not
/// fit the thoughts are an error like any unreadable JSON.
pub(super) fn decode(parts: &str, thoughts: &str) -> serde_json::Result<Vec<Part>> {
    if !parts.trim_start().starts_with('{') {
        return serde_json::from_str(parts);
    }
    let Stored {
        thoughts_at,
        mut parts,
    } = serde_json::from_str(parts)?;
    let blocks = parts
        .iter()
        .filter(|p| matches!(p, Part::Thinking(_)))
        .count();
    if blocks != thoughts_at.len() {
        return Err(de::Error::custom(format!(
            "{blocks} thoughts but {} places for them",
            thoughts_at.len()
        )));
    }
    let mut places = thoughts_at.into_iter();
    for part in &mut parts {
        if let Part::Thinking(block) = part
            && let Some((start, length)) = places.next()
        {
            block.text = start
                .checked_add(length)
                .and_then(|end| thoughts.get(start..end))
                .ok_or_else(|| {
                    de::Error::custom(format!(
                        "a thought's place ({start}, {length}) is not in the stored thoughts"
                    ))
                })?
                .to_owned();
        }
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::chat::{ThoughtSource, ToolCall};

    fn thinking(text: &str) -> Part {
        Part::Thinking(ThinkingBlock {
            text: text.into(),
            source: Some(ThoughtSource::Thinking),
            signature: Some("sig".into()),
            provider_data: Some(json!({"thoughtSignature": "abc"})),
            hidden: true,
            duration_ms: Some(5),
            token_estimate: Some(2),
            ..ThinkingBlock::default()
        })
    }

    fn text(t: &str) -> Part {
        Part::Text { text: t.into() }
    }

    #[test]
    fn every_message_reads_back_as_it_was_written_with_its_thoughts_once() {
        let call = Part::ToolCall(ToolCall {
            id: "call_1".into(),
            name: "search".into(),
            arguments: "{}".into(),
        });
        let redacted = Part::Thinking(ThinkingBlock {
            redacted: Some("ENCRYPTED".into()),
            ..ThinkingBlock::default()
        });
        // (what, parts, the thoughts column)
        let cases: Vec<(&str, Vec<Part>, &str)> = vec![
            ("no parts", vec![], ""),
            ("an answer alone", vec![text("Hello")], ""),
            (
                "a thought and an answer",
                vec![thinking("Let me see."), text("Yes.")],
                "Let me see.",
            ),
            (
                "thoughts around a tool call, with multi-byte text and newlines",
                vec![
                    thinking("first\nthought é"),
                    call,
                    thinking("😀 second"),
                    text("Done."),
                ],
                "first\nthought é\n😀 second",
            ),
            (
                "encrypted and empty thoughts",
                vec![redacted, thinking(""), thinking("after"), thinking("")],
                "after\n",
            ),
        ];
        for (what, parts, thoughts) in cases {
            let written = encode(&parts).unwrap();
            assert_eq!(written.thoughts, thoughts, "{what}");
            assert_eq!(
                written.text,
                parts
                    .iter()
                    .filter_map(|p| match p {
                        Part::Text { text } => Some(text.as_str()),
                        _ => None,
                    })
                    .collect::<String>(),
                "{what}"
            );
            let long_thought = parts.iter().any(|p| match p {
                Part::Thinking(b) => b.text.len() > 3,
                _ => false,
            });
            if long_thought {
                assert!(
                    !written.parts.contains("Let me see") && !written.parts.contains("second"),
                    "{what}: the thought is written twice: {}",
                    written.parts
                );
            }
            assert_eq!(
                decode(&written.parts, &written.thoughts).unwrap(),
                parts,
                "{what}"
            );
        }
    }

    #[test]
    fn rows_written_before_read_as_they_are() {
        let parts = vec![thinking("kept in the parts"), text("answer")];
        let old = serde_json::to_string(&parts).unwrap();
        assert_eq!(decode(&old, "kept in the parts").unwrap(), parts);
        // The thoughts column of an old row is not needed to read it.
        assert_eq!(decode(&old, "").unwrap(), parts);
    }

    #[test]
    fn thoughts_that_do_not_match_their_places_are_an_error_not_a_panic() {
        let written = encode(&[thinking("héllo"), text("a")]).unwrap();
        for (thoughts, what) in [
            ("", "missing"),
            ("h", "cut"),
            // Long enough, but the place ends inside the emoji (bytes 4..8).
            ("hél😀", "cut inside a character"),
        ] {
            assert!(decode(&written.parts, thoughts).is_err(), "{what}");
        }
        let miscounted = r#"{"thoughts_at":[[0,1],[1,1]],"parts":[{"type":"thinking","text":"","source":null}]}"#;
        assert!(decode(miscounted, "ab").is_err());
        let far = r#"{"thoughts_at":[[18446744073709551615,2]],"parts":[{"type":"thinking","text":"","source":null}]}"#;
        assert!(decode(far, "ab").is_err());
    }
}
