//! How a message's parts are written so that its text and thoughts are on disk once.
//!
//! A row keeps its visible text in the `text` column and its thought text in the `thoughts`
//! column, which the search index and the previews read. The parts (JSON) held the same text
//! again — for a long answer megabytes more to escape, write, checkpoint and parse. Now a row
//! with text or thoughts writes its parts with each text part's and each thinking block's
//! text left empty and says where in its column each one is:
//! `{"thoughts_at": [[start, length], …], "text_at": [[start, length], …], "parts": [ … ]}`
//! (byte offsets, one pair per part of that kind in order). Rows with neither are a plain
//! array. Rows written before are read as they are: a plain array holds everything, and an
//! object without `text_at` (schema version 8) holds its text in its parts.

use std::borrow::Cow;

use serde::{Deserialize, Serialize, de};

use crate::chat::{Part, ThinkingBlock};

/// A message's columns as written. A column made of one part's text borrows it: a long
/// answer's thought is megabytes, and the write copies it anyway.
#[derive(Debug, PartialEq)]
pub(super) struct Columns<'a> {
    pub parts: String,
    /// The visible text, for search and previews.
    pub text: Cow<'a, str>,
    /// Every thinking block's text, joined by newlines: what the search index reads.
    pub thoughts: Cow<'a, str>,
}

type Places = Vec<(usize, usize)>;

#[derive(Serialize)]
struct Written<'a> {
    thoughts_at: Places,
    text_at: Places,
    parts: Vec<Cow<'a, Part>>,
}

#[derive(Deserialize)]
struct Stored {
    thoughts_at: Places,
    text_at: Option<Places>,
    parts: Vec<Part>,
}

pub(super) fn encode(parts: &[Part]) -> serde_json::Result<Columns<'_>> {
    let mut text = Column::default();
    let mut thoughts = Column::default();
    for part in parts {
        match part {
            Part::Text { text: t } => text.push(t, false),
            // As rows were always joined: empty blocks add no line.
            Part::Thinking(block) => thoughts.push(&block.text, true),
            Part::ToolCall(_) | Part::ToolResult(_) | Part::Attachment(_) => {}
        }
    }
    let parts = if thoughts.text.is_empty() && text.text.is_empty() {
        serde_json::to_string(parts)?
    } else {
        serde_json::to_string(&Written {
            thoughts_at: thoughts.places,
            text_at: text.places,
            parts: parts.iter().map(without_text).collect(),
        })?
    };
    Ok(Columns {
        parts,
        text: text.text,
        thoughts: thoughts.text,
    })
}

/// A column being joined from parts' texts, with each one's place in it.
#[derive(Default)]
struct Column<'a> {
    text: Cow<'a, str>,
    places: Places,
}

impl<'a> Column<'a> {
    /// Adds a part's text; with `lines`, after a newline when the column is not empty.
    fn push(&mut self, part: &'a str, lines: bool) {
        if self.places.is_empty() {
            self.text = Cow::Borrowed(part);
            self.places.push((0, part.len()));
            return;
        }
        let text = self.text.to_mut();
        if lines && !text.is_empty() {
            text.push('\n');
        }
        self.places.push((text.len(), part.len()));
        text.push_str(part);
    }
}

/// The part as written: a text part or thinking block without its text, everything else as
/// it is.
fn without_text(part: &Part) -> Cow<'_, Part> {
    match part {
        Part::Text { .. } => Cow::Owned(Part::Text {
            text: String::new(),
        }),
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

/// Reads the parts back, each text part's text taken from `text` and each thinking block's
/// from `thoughts`. Places that do not fit their column are an error like any unreadable JSON.
pub(super) fn decode(parts: &str, text: &str, thoughts: &str) -> serde_json::Result<Vec<Part>> {
    if !parts.trim_start().starts_with('{') {
        return serde_json::from_str(parts);
    }
    let Stored {
        thoughts_at,
        text_at,
        mut parts,
    } = serde_json::from_str(parts)?;
    fill(
        &mut parts,
        thoughts_at,
        thoughts,
        "thoughts",
        |part| match part {
            Part::Thinking(block) => Some(&mut block.text),
            _ => None,
        },
    )?;
    if let Some(text_at) = text_at {
        fill(&mut parts, text_at, text, "texts", |part| match part {
            Part::Text { text } => Some(text),
            _ => None,
        })?;
    }
    Ok(parts)
}

/// Gives each part that `slot` picks its text from `column`, at its place in `places`.
fn fill(
    parts: &mut [Part],
    places: Places,
    column: &str,
    what: &str,
    slot: impl Fn(&mut Part) -> Option<&mut String>,
) -> serde_json::Result<()> {
    let mut slots: Vec<&mut String> = parts.iter_mut().filter_map(slot).collect();
    if slots.len() != places.len() {
        return Err(de::Error::custom(format!(
            "{} {what} but {} places for them",
            slots.len(),
            places.len()
        )));
    }
    for (slot, (start, length)) in slots.iter_mut().zip(places) {
        **slot = start
            .checked_add(length)
            .and_then(|end| column.get(start..end))
            .ok_or_else(|| {
                de::Error::custom(format!(
                    "a place ({start}, {length}) is not in the stored {what}"
                ))
            })?
            .to_owned();
    }
    Ok(())
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
    fn every_message_reads_back_as_it_was_written_with_its_text_and_thoughts_once() {
        let call = Part::ToolCall(ToolCall {
            id: "call_1".into(),
            name: "search".into(),
            arguments: "{}".into(),
        });
        let redacted = Part::Thinking(ThinkingBlock {
            redacted: Some("ENCRYPTED".into()),
            ..ThinkingBlock::default()
        });
        // (what, parts, the text column, the thoughts column)
        let cases: Vec<(&str, Vec<Part>, &str, &str)> = vec![
            ("no parts", vec![], "", ""),
            (
                "an answer alone",
                vec![text("Hello there")],
                "Hello there",
                "",
            ),
            (
                "a thought and an answer",
                vec![thinking("Let me see."), text("Yes, indeed.")],
                "Yes, indeed.",
                "Let me see.",
            ),
            (
                "thoughts and texts around a tool call, with multi-byte text and newlines",
                vec![
                    thinking("first\nthought é"),
                    text("Looking it up…\n"),
                    call.clone(),
                    thinking("😀 second"),
                    text(""),
                    text("Done: ☃."),
                ],
                "Looking it up…\nDone: ☃.",
                "first\nthought é\n😀 second",
            ),
            (
                "encrypted and empty thoughts",
                vec![
                    redacted.clone(),
                    thinking(""),
                    thinking("after"),
                    thinking(""),
                ],
                "",
                "after\n",
            ),
            (
                "nothing but an encrypted thought and a call",
                vec![redacted, call],
                "",
                "",
            ),
        ];
        for (what, parts, text_column, thoughts) in cases {
            let written = encode(&parts).unwrap();
            assert_eq!(written.text, text_column, "{what}");
            assert_eq!(written.thoughts, thoughts, "{what}");
            // One part's text is the column itself: borrowed, not copied.
            let one = |text: bool| {
                parts
                    .iter()
                    .filter(|p| match p {
                        Part::Text { .. } => text,
                        Part::Thinking(_) => !text,
                        _ => false,
                    })
                    .count()
                    == 1
            };
            assert_eq!(
                matches!(written.text, Cow::Borrowed(_)),
                one(true),
                "{what}"
            );
            assert_eq!(
                matches!(written.thoughts, Cow::Borrowed(_)),
                one(false),
                "{what}"
            );
            for long in [
                "Hello there",
                "Let me see",
                "Yes, indeed",
                "Looking it up",
                "second",
                "Done: ",
            ] {
                assert!(
                    !written.parts.contains(long),
                    "{what}: {long:?} is written twice: {}",
                    written.parts
                );
            }
            assert_eq!(
                decode(&written.parts, &written.text, &written.thoughts).unwrap(),
                parts,
                "{what}"
            );
        }
    }

    #[test]
    fn rows_written_before_read_as_they_are() {
        let parts = vec![thinking("kept in the parts"), text("answer")];
        let old = serde_json::to_string(&parts).unwrap();
        assert_eq!(decode(&old, "answer", "kept in the parts").unwrap(), parts);
        // The text and thoughts columns of an old row are not needed to read it.
        assert_eq!(decode(&old, "", "").unwrap(), parts);
        // Schema version 8 took the thoughts out of the parts, not the text.
        let v8 = r#"{"thoughts_at":[[0,17]],"parts":[{"type":"thinking","text":"","source":"thinking","signature":"sig","provider_data":{"thoughtSignature":"abc"},"hidden":true,"duration_ms":5,"token_estimate":2},{"type":"text","text":"answer"}]}"#;
        assert_eq!(decode(v8, "answer", "kept in the parts").unwrap(), parts);
        assert_eq!(decode(v8, "", "kept in the parts").unwrap(), parts);
    }

    #[test]
    fn columns_that_do_not_match_their_places_are_an_error_not_a_panic() {
        let parts = [thinking("héllo"), text("añb")];
        let written = encode(&parts).unwrap();
        for (text, thoughts, what) in [
            ("añb", "", "thoughts missing"),
            ("añb", "h", "thoughts cut"),
            // Long enough, but the place ends inside the emoji (bytes 4..8).
            ("añb", "hél😀", "thoughts cut inside a character"),
            ("", "héllo", "text missing"),
            ("añ", "héllo", "text cut"),
            ("a😀", "héllo", "text cut inside a character"),
        ] {
            assert!(decode(&written.parts, text, thoughts).is_err(), "{what}");
        }
        assert!(decode(&written.parts, "añb", "héllo").is_ok());
        let miscounted = r#"{"thoughts_at":[[0,1],[1,1]],"parts":[{"type":"thinking","text":"","source":null}]}"#;
        assert!(decode(miscounted, "", "ab").is_err());
        let far = r#"{"thoughts_at":[[18446744073709551615,2]],"parts":[{"type":"thinking","text":"","source":null}]}"#;
        assert!(decode(far, "", "ab").is_err());
        let texts_miscounted = r#"{"thoughts_at":[],"text_at":[[0,1]],"parts":[]}"#;
        assert!(decode(texts_miscounted, "ab", "").is_err());
        let text_far = r#"{"thoughts_at":[],"text_at":[[1,18446744073709551615]],"parts":[{"type":"text","text":""}]}"#;
        assert!(decode(text_far, "ab", "").is_err());
    }
}
