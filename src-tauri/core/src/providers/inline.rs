//! Files in a request body. A protocol's translation writes a short mark where a file's
//! base64 goes; the body is serialized with the marks, and each mark is then replaced by the
//! file's base64 as the bytes are written out. So a 20 MB PDF exists once in base64, in the
//! body itself, rather than again in the JSON tree and in a data URL; and a preview of the
//! request shows a line about the file in its place, never megabytes.
//!
//! A mark carries a random value fixed for the process, so no text in a conversation can
//! stand for a file.

use std::sync::OnceLock;

use base64::Engine;

use crate::chat::{Message, Payload};

const MARK_LEN: usize = 17 + 16 + 1 + 64;

fn prefix() -> &'static str {
    static PREFIX: OnceLock<String> = OnceLock::new();
    PREFIX.get_or_init(|| {
        let nonce = uuid::Uuid::now_v7().as_u128() as u64 ^ std::process::id() as u64;
        format!("ponder-inline-fi:{nonce:016x}:")
    })
}

/// What a translation writes where the file with this hash goes.
pub fn mark(sha256: &str) -> String {
    format!("{}{sha256}", prefix())
}

/// `body` with each mark replaced by its file as `messages` hold it: bytes as base64, a
/// described file as `[attached: …]`. A mark for a file the messages do not hold stays.
pub fn write(body: &[u8], messages: &[Message]) -> Vec<u8> {
    let prefix = prefix().as_bytes();
    let payload = |sha: &[u8]| {
        messages
            .iter()
            .flat_map(Message::attachments)
            .find(|f| f.sha256.as_bytes() == sha)
            .and_then(|f| f.data.as_ref())
    };
    let extra: usize = messages
        .iter()
        .flat_map(Message::attachments)
        .map(|f| match &f.data {
            Some(Payload::Bytes(b)) => b.len().div_ceil(3) * 4,
            _ => 0,
        })
        .sum();
    let mut out = Vec::with_capacity(body.len() + extra);
    let mut rest = body;
    while let Some(at) = find(rest, prefix) {
        out.extend_from_slice(&rest[..at]);
        let end = (at + MARK_LEN).min(rest.len());
        let sha = &rest[at + prefix.len()..end];
        match payload(sha) {
            Some(Payload::Bytes(bytes)) => {
                let start = out.len();
                out.resize(start + bytes.len().div_ceil(3) * 4, 0);
                let written = base64::engine::general_purpose::STANDARD
                    .encode_slice(bytes, &mut out[start..])
                    .expect("the room made is base64's size");
                out.truncate(start + written);
            }
            Some(Payload::Described(about)) => {
                let line = serde_json::to_string(&format!("[attached: {about}]"))
                    .expect("a string serializes");
                out.extend_from_slice(&line.as_bytes()[1..line.len() - 1]);
            }
            _ => out.extend_from_slice(&rest[at..end]),
        }
        rest = &rest[end..];
    }
    out.extend_from_slice(rest);
    out
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attachments::Kind;
    use crate::chat::{Attachment, Part};

    fn with(data: Payload) -> Vec<Message> {
        let mut m = Message::user("look");
        m.parts.push(Part::Attachment(Attachment {
            sha256: "ab".repeat(32),
            kind: Kind::Png,
            name: "a.png".into(),
            bytes: 3,
            pages: None,
            pixels: None,
            data: Some(data),
        }));
        vec![m]
    }

    #[test]
    fn a_mark_becomes_the_files_base64_or_its_description_and_nothing_else_changes() {
        let mark = mark(&"ab".repeat(32));
        assert_eq!(mark.len(), MARK_LEN);
        let body = serde_json::to_vec(&serde_json::json!({
            "url": format!("data:image/png;base64,{mark}"),
            "data": mark,
            "text": "ponder-inline-fi:0000000000000000:abab",
        }))
        .unwrap();
        let sent = write(&body, &with(Payload::Bytes(b"\x89PNG".to_vec().into())));
        let sent: serde_json::Value = serde_json::from_slice(&sent).unwrap();
        assert_eq!(sent["url"], "data:image/png;base64,iVBORw==");
        assert_eq!(sent["data"], "iVBORw==");
        assert_eq!(sent["text"], "ponder-inline-fi:0000000000000000:abab");

        let shown = write(
            &body,
            &with(Payload::Described("image/png, 1.9 KiB \"x\"".into())),
        );
        let shown: serde_json::Value = serde_json::from_slice(&shown).unwrap();
        assert_eq!(shown["data"], "[attached: image/png, 1.9 KiB \"x\"]");

        // A file the messages do not hold leaves its mark (the request says what is missing).
        let other = write(&body, &[Message::user("no files")]);
        assert_eq!(other, body);
    }
}
