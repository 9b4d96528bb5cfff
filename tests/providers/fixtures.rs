//! Every supported real recording, decoded and mapped: the events and the final message it
//! really contains are compared with committed expected files, and feeding the bytes whole,
//! one byte at a time, or split at every offset gives the same result.
//!
//! Regenerate the expected files after a deliberate change with `INSTA_UPDATE=always` (or
//! `cargo insta review`), then read the diff against the recording before committing it.

use std::path::PathBuf;

use ponder_core::chat::{ChatEvent, Origin, StopReason};
use ponder_core::draft::{Draft, Turn};
use ponder_core::providers::stream::StreamDecoder;
use ponder_core::providers::{anthropic, gemini, ollama, openai_chat, openai_responses};
use ponder_tests::recordings::{
    Protocol, all_fixtures, is_stream, mapper, protocol_of, real_dir, wire_bytes,
};
use serde_json::{Value, json};

fn expected_path(fixture: &str) -> PathBuf {
    ponder_tests::workspace_root()
        .join("tests/fixtures/expected")
        .join(format!("{fixture}.snap"))
}

/// Runs the stream split into the given pieces; returns the normalised events and the turn.
fn run_stream(protocol: Protocol, pieces: &[&[u8]]) -> (Vec<ChatEvent>, Turn) {
    let mut decoder = StreamDecoder::new(mapper(protocol));
    let mut draft = Draft::new(origin(), decoder.mapper().default_source());
    let mut raw = Vec::new();
    for piece in pieces {
        decoder.feed(piece, &mut raw);
    }
    let replay = decoder.finish(&mut raw);
    let mut events = Vec::new();
    for event in raw {
        draft.apply(event, 0, &mut events);
    }
    let (turn, tail) = draft.finish(0, replay);
    events.extend(tail);
    (events, turn)
}

fn run_whole_response(protocol: Protocol, body: &str) -> (Vec<ChatEvent>, Turn) {
    let (provider, model) = ("fixture", "recorded");
    let mut raw = Vec::new();
    let replay = match protocol {
        Protocol::Anthropic => anthropic::parse_response(provider, model, body, &mut raw),
        Protocol::Chat => openai_chat::parse_response(
            provider,
            model,
            openai_chat::InlineThoughts::Tagged,
            body,
            &mut raw,
        ),
        Protocol::Responses => openai_responses::parse_response(provider, model, body, &mut raw),
        Protocol::Gemini => gemini::parse_response(provider, model, body, &mut raw),
        Protocol::Ollama => {
            let mut m = ollama::EventMapper::new(provider, model);
            m.on_line(body.trim(), &mut raw);
            Ok(m.finish())
        }
    }
    .unwrap_or_else(|e| panic!("{e}"));
    let mut draft = Draft::new(origin(), ponder_core::chat::ThoughtSource::Reasoning);
    let mut events = Vec::new();
    for event in raw {
        draft.apply(event, 0, &mut events);
    }
    let (turn, tail) = draft.finish(0, replay);
    events.extend(tail);
    (events, turn)
}

fn origin() -> Origin {
    Origin {
        provider: "fixture".into(),
        model: "recorded".into(),
    }
}

/// Events with consecutive deltas joined, so expected files read like the stream's content.
fn compact(events: &[ChatEvent]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for event in events {
        let (key, value) = match event {
            ChatEvent::ThinkingStart { source } => ("thinking_start", json!(source)),
            ChatEvent::ThinkingDelta { text } => ("thinking", json!(text)),
            ChatEvent::ThinkingSignature { signature } => ("signature", json!(signature)),
            ChatEvent::ThinkingData { data } => ("thinking_data", data.clone()),
            ChatEvent::ThinkingRedacted { data } => ("redacted", json!(data)),
            ChatEvent::ThinkingEnd => ("thinking_end", json!(true)),
            ChatEvent::TextDelta { text } => ("text", json!(text)),
            ChatEvent::ToolCall(call) => ("tool_call", json!(call)),
            ChatEvent::Usage(usage) => ("usage", json!(usage)),
            ChatEvent::Stop(reason) => ("stop", json!(reason)),
            ChatEvent::Error(error) => (
                "error",
                json!({"kind": error.kind, "status": error.status, "message": error.message}),
            ),
        };
        if let Some(last) = out.last_mut()
            && let Some(Value::String(previous)) = last.get_mut(key)
            && (key == "thinking" || key == "text")
        {
            previous.push_str(value.as_str().unwrap());
            continue;
        }
        // Only the last usage report matters for reading; keep the count of reports out.
        if key == "usage"
            && let Some(last) = out.last_mut()
            && last.get("usage").is_some()
        {
            *last = json!({ key: value });
            continue;
        }
        out.push(json!({ key: value }));
    }
    out
}

fn summary(events: &[ChatEvent], turn: &Turn) -> Value {
    json!({
        "events": compact(events),
        "message": turn.message,
        "usage": turn.usage,
        "stop": turn.stop,
        "error": turn.error.as_ref().map(|e| json!({"kind": e.kind, "message": e.message})),
    })
}

/// Compares with the committed snapshot `tests/fixtures/expected/<provider>/<file>.snap`
/// (insta; `INSTA_UPDATE=always` writes it again — read it against the recording first).
fn check_against_expected(fixture: &str, actual: &Value) {
    let path = expected_path(fixture);
    let dir = path.parent().unwrap().to_owned();
    let name = path.file_stem().unwrap().to_string_lossy().into_owned();
    insta::with_settings!({
        snapshot_path => dir,
        prepend_module_to_snapshot => false,
        omit_expression => true,
        info => &fixture,
    }, {
        insta::assert_json_snapshot!(name, actual);
    });
}

#[test]
fn every_supported_recording_matches_its_expected_file() {
    let mut checked = 0;
    for fixture in all_fixtures() {
        let Some(protocol) = protocol_of(&fixture) else {
            continue;
        };
        let path = real_dir().join(&fixture);
        let (events, turn) = if is_stream(&fixture) {
            run_stream(protocol, &[&wire_bytes(&path)])
        } else if fixture.ends_with(".json") {
            run_whole_response(protocol, &std::fs::read_to_string(&path).unwrap())
        } else {
            continue;
        };
        check_against_expected(&fixture, &summary(&events, &turn));
        checked += 1;
    }
    assert!(checked >= 70, "checked {checked} recordings");
}

#[test]
fn any_chunking_gives_the_same_result() {
    for fixture in all_fixtures().into_iter().filter(|f| is_stream(f)) {
        let Some(protocol) = protocol_of(&fixture) else {
            continue;
        };
        let bytes = wire_bytes(&real_dir().join(&fixture));
        let (events, turn) = run_stream(protocol, &[&bytes]);
        let whole = summary(&events, &turn);
        let singles: Vec<&[u8]> = bytes.chunks(1).collect();
        let (events, turn) = run_stream(protocol, &singles);
        assert_eq!(
            summary(&events, &turn),
            whole,
            "{fixture}: one byte at a time"
        );
        // Every split point for small recordings; a stride keeps the big ones quick in debug builds.
        let stride = (bytes.len() / 400).max(1);
        for at in (1..bytes.len()).step_by(stride) {
            let (events, turn) = run_stream(protocol, &[&bytes[..at], &bytes[at..]]);
            assert!(
                summary(&events, &turn) == whole,
                "{fixture}: split at byte {at}"
            );
        }
    }
}

/// Any recorded stream cut into any pieces (up to eight cuts anywhere, UTF-8 sequences and
/// SSE or NDJSON lines included) reads exactly as the whole.
#[test]
fn any_split_of_any_recording_reads_as_the_whole() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    let streams: Vec<(String, Protocol, Vec<u8>, Value)> = all_fixtures()
        .into_iter()
        .filter(|f| is_stream(f))
        .filter_map(|f| {
            let protocol = protocol_of(&f)?;
            let bytes = wire_bytes(&real_dir().join(&f));
            let (events, turn) = run_stream(protocol, &[&bytes]);
            let whole = summary(&events, &turn);
            Some((f, protocol, bytes, whole))
        })
        .collect();
    let mut runner = TestRunner::new(Config {
        cases: std::env::var("PONDER_PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(10_000),
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(
            &(
                any::<prop::sample::Index>(),
                prop::collection::vec(any::<prop::sample::Index>(), 1..9),
            ),
            |(which, cuts)| {
                let (name, protocol, bytes, whole) = which.get(&streams);
                let mut at: Vec<usize> = cuts.iter().map(|c| c.index(bytes.len())).collect();
                at.sort_unstable();
                at.dedup();
                let mut pieces: Vec<&[u8]> = Vec::new();
                let mut from = 0;
                for &cut in &at {
                    pieces.push(&bytes[from..cut]);
                    from = cut;
                }
                pieces.push(&bytes[from..]);
                let (events, turn) = run_stream(*protocol, &pieces);
                prop_assert!(summary(&events, &turn) == *whole, "{name}: cut at {at:?}");
                Ok(())
            },
        )
        .unwrap();
}

#[test]
fn the_suggested_core_set_means_what_it_says() {
    let run = |fixture: &str| {
        let protocol = protocol_of(fixture).unwrap();
        let path = real_dir().join(fixture);
        if is_stream(fixture) {
            run_stream(protocol, &[&wire_bytes(&path)])
        } else {
            run_whole_response(protocol, &std::fs::read_to_string(&path).unwrap())
        }
    };
    // Anthropic: thinking with its signature, then the answer.
    let (_, turn) = run("anthropic/pydantic-sonnet4-thinking-stream.sse");
    let block = turn.message.thinking().next().unwrap();
    assert!(!block.text.is_empty() && block.signature.is_some());
    assert!(!turn.message.text().is_empty());
    // Two redacted blocks, kept as such.
    let (_, turn) = run("anthropic/pydantic-sonnet45-redacted-thinking-stream.sse");
    assert_eq!(
        turn.message.thinking().filter(|b| b.is_redacted()).count(),
        2
    );
    // display: omitted — a block with only a signature survives.
    let (_, turn) = run("anthropic/vercel-sonnet5-thinking-omitted-signature-only-stream.jsonl");
    let block = turn.message.thinking().next().unwrap();
    assert!(block.text.is_empty() && block.signature.is_some());
    // <thinking> inside a text block stays text.
    let (_, turn) = run("anthropic/vercel-claude3-opus-inline-thinking-tag-tool-use.json");
    assert!(turn.message.thinking().next().is_none());
    assert!(turn.message.text().contains("<thinking>"));
    // Gemini: MAX_TOKENS with no parts at all means it ran out while thinking.
    let (_, turn) = run("google/pydantic-gemini25-pro-max-tokens-empty.json");
    assert_eq!(
        turn.stop,
        Some(StopReason::MaxTokens {
            while_thinking: true
        })
    );
    // The signature on a trailing empty-text part is kept for replay.
    let (_, turn) = run("google/vercel-gemini3-pro-thoughtsignature-stream.jsonl");
    let replay = serde_json::to_string(&turn.message.replay).unwrap();
    assert!(replay.contains("thoughtSignature"));
    // An error inside a 200 stream keeps what arrived before it.
    let (_, turn) =
        run("openrouter/pydantic-openrouter-minimax-m2-reasoning-midstream-error-stream.sse");
    assert!(turn.error.is_some());
    assert!(turn.message.thinking().next().is_some());
    // Responses: the finished reasoning item with encrypted content rides on the block.
    let (_, turn) = run("openai/pydantic-responses-o3-mini-reasoning-summary-stream.sse");
    let data = turn
        .message
        .thinking()
        .next()
        .unwrap()
        .provider_data
        .clone()
        .unwrap();
    assert_eq!(data["type"], "reasoning");
    // In-stream quota error.
    let (_, turn) = run("openai/vercel-responses-error-insufficient-quota-stream.jsonl");
    assert_eq!(turn.error.unwrap().kind.as_str(), "quota");
    // Inline <think> in content.
    let (_, turn) = run("inline-think/pydantic-groq-r1-distill-inline-think.json");
    assert!(turn.message.thinking().next().is_some());
    assert!(!turn.message.text().contains("<think>"));
}

#[test]
fn unsupported_recordings_are_named_with_a_reason() {
    let skipped: Vec<String> = all_fixtures()
        .into_iter()
        .filter(|f| protocol_of(f).is_none())
        .collect();
    // Exactly these: Bedrock (9), Cohere (3), the Bedrock-framed inline-think stream (1) and the
    // error bodies (7). A supported recording skipped by mistake changes the count.
    let by_reason = |prefix: &str| skipped.iter().filter(|f| f.starts_with(prefix)).count();
    assert_eq!(
        [
            by_reason("bedrock/"),
            by_reason("cohere/"),
            by_reason("inline-think/"),
            by_reason("errors/")
        ],
        [9, 3, 1, 7],
        "{skipped:?}"
    );
    assert_eq!(skipped.len(), 20, "{skipped:?}");
}
