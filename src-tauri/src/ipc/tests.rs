use serde_json::json;

use ponder_core::chat::{Part, ThoughtSource};

use super::message::{THOUGHT_PREVIEW_BYTES, Thoughts, summarizes};
use super::*;
use crate::error::IpcError;

/// The UI reads these events by their JSON: this pins it, beside the generated types.
#[test]
fn stream_events_serialize_as_the_ui_expects() {
    let cases = [
        (
            StreamEvent::Started {
                run_id: "r".into(),
                user_message_id: "u".into(),
                message_id: "m".into(),
            },
            json!({"type": "started", "runId": "r", "userMessageId": "u", "messageId": "m"}),
        ),
        (
            StreamEvent::ThinkingStart {
                source: ThoughtSource::Summary,
            },
            json!({"type": "thinkingStart", "source": "summary"}),
        ),
        (
            StreamEvent::ThinkingDelta {
                text: "hm".into(),
                at: 1.5,
            },
            json!({"type": "thinkingDelta", "text": "hm", "at": 1.5}),
        ),
        (StreamEvent::ThinkingEnd, json!({"type": "thinkingEnd"})),
        (
            StreamEvent::TextDelta {
                text: "Hi".into(),
                at: 2.0,
            },
            json!({"type": "textDelta", "text": "Hi", "at": 2.0}),
        ),
        (
            StreamEvent::Retry {
                attempt: 1,
                wait_ms: 500,
                message: "Overloaded".into(),
            },
            json!({"type": "retry", "attempt": 1, "waitMs": 500, "message": "Overloaded"}),
        ),
        (
            StreamEvent::Error {
                error: IpcError::provider("auth", "invalid x-api-key".into()),
                message: None,
            },
            json!({"type": "error", "error": {"code": "auth", "message": "invalid x-api-key"}, "message": null}),
        ),
    ];
    for (event, expected) in cases {
        assert_eq!(serde_json::to_value(&event).unwrap(), expected);
    }
}

#[test]
fn thinking_parts_show_no_signature_or_provider_data() {
    let part = Part::Thinking(ponder_core::chat::ThinkingBlock {
        text: "t".into(),
        source: Some(ThoughtSource::Thinking),
        signature: Some("SECRET-SIGNATURE".into()),
        provider_data: Some(json!({"encrypted_content": "SECRET-DATA"})),
        ..Default::default()
    });
    let view = serde_json::to_string(&PartView::from(&part)).unwrap();
    assert!(!view.contains("SECRET"), "{view}");
    assert!(view.contains("\"type\":\"thinking\""));
}

#[test]
fn a_long_thought_is_previewed_by_its_start_with_the_whole_estimate() {
    let thought = |text: &str| {
        Part::Thinking(ponder_core::chat::ThinkingBlock {
            text: text.into(),
            source: Some(ThoughtSource::Thinking),
            ..Default::default()
        })
    };
    // Lines of 33 bytes, with a two-byte character to cut beside: about 8 KB.
    let long: String = (0..250)
        .map(|i| format!("line {i:03} of the thought, é ok...\n"))
        .collect();
    assert_eq!(long.lines().next().unwrap().len(), 33);
    let view = |text: &str, thoughts| match PartView::of(&thought(text), false, thoughts) {
        PartView::Thinking {
            text,
            partial,
            token_estimate,
            ..
        } => (text, partial, token_estimate),
        other => panic!("{other:?}"),
    };
    let (start, partial, estimate) = view(&long, Thoughts::Previewed);
    assert!(partial);
    assert!(start.len() <= THOUGHT_PREVIEW_BYTES && start.len() > THOUGHT_PREVIEW_BYTES - 34);
    assert!(
        long.starts_with(&start) && start.ends_with("ok..."),
        "cut at a line end"
    );
    assert_eq!(
        estimate,
        Some(u32::try_from(long.chars().count().div_ceil(4)).unwrap())
    );
    // Short thoughts, and whole views, are as stored.
    assert_eq!(
        view("short", Thoughts::Previewed),
        ("short".into(), false, None)
    );
    assert_eq!(view(&long, Thoughts::Whole), (long.clone(), false, None));
    // One unbroken line is cut at a character boundary.
    let line = "é".repeat(3_000);
    let (start, partial, _) = view(&line, Thoughts::Previewed);
    assert!(partial && line.starts_with(&start) && start.len() == THOUGHT_PREVIEW_BYTES);
}

#[test]
fn claude_4_thinking_is_labelled_a_summary_and_3_7_is_not() {
    let block = Part::Thinking(ponder_core::chat::ThinkingBlock {
        text: "t".into(),
        source: Some(ThoughtSource::Thinking),
        ..Default::default()
    });
    let origin = |model: &str| ponder_core::chat::Origin {
        provider: "anthropic".into(),
        model: model.into(),
    };
    let summary =
        |model: &str| match PartView::of(&block, summarizes(Some(&origin(model))), Thoughts::Whole)
        {
            PartView::Thinking { summary, .. } => summary,
            _ => unreachable!(),
        };
    assert!(summary("claude-opus-4-5"));
    assert!(summary("claude-sonnet-4-20250514"));
    assert!(
        !summary("claude-3-7-sonnet-20250219"),
        "3.7 returns its full thinking"
    );
}
