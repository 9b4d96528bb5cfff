use super::*;

fn chunk_with_call(index: u64, id: &str, arguments: &str) -> String {
    json!({"choices": [{"index": 0, "delta": {"tool_calls": [
        {"index": index, "id": id, "function": {"name": "lookup", "arguments": arguments}}
    ]}}]})
    .to_string()
}

#[test]
fn a_huge_tool_call_index_keys_one_call_instead_of_sizing_a_list() {
    let mut mapper = EventMapper::new("openai", "gpt-4.1", InlineThoughts::None);
    let mut out = Vec::new();
    mapper.on_data(
        &chunk_with_call(1_000_000_000, "call_1", "{\"q\":"),
        &mut out,
    );
    mapper.on_data(&chunk_with_call(1_000_000_000, "", "1}"), &mut out);
    assert_eq!(mapper.calls.len(), 1);
    assert!(mapper.calls.capacity() < 64);
    mapper.finish(&mut out);
    let calls: Vec<_> = out
        .iter()
        .filter_map(|e| match e {
            ChatEvent::ToolCall(call) => Some(call.arguments.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(calls, ["{\"q\":1}"]);
}

#[test]
fn calls_come_out_in_index_order_and_too_many_end_the_turn() {
    let mut mapper = EventMapper::new("openai", "gpt-4.1", InlineThoughts::None);
    let mut out = Vec::new();
    mapper.on_data(&chunk_with_call(7, "b", "{}"), &mut out);
    mapper.on_data(&chunk_with_call(3, "a", "{}"), &mut out);
    mapper.finish(&mut out);
    let ids: Vec<_> = out
        .iter()
        .filter_map(|e| match e {
            ChatEvent::ToolCall(call) => Some(call.id.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(ids, ["a", "b"]);

    let mut mapper = EventMapper::new("openai", "gpt-4.1", InlineThoughts::None);
    let mut out = Vec::new();
    for index in 0..(MAX_TOOL_CALLS as u64 + 10) {
        mapper.on_data(&chunk_with_call(index * 1_000_003, "c", "{}"), &mut out);
    }
    assert_eq!(mapper.calls.len(), MAX_TOOL_CALLS);
    let errors = out
        .iter()
        .filter(|e| matches!(e, ChatEvent::Error(err) if err.kind == crate::providers::error::ErrorKind::Decode))
        .count();
    assert_eq!(errors, 1);
}

/// Gemini's OpenAI-compatible endpoint puts a call's thought signature in `extra_content`
/// (Google's "Thought signatures" guide, OpenAI compatibility) and rejects the next request
/// unless it comes back on that call: it is kept in the replay, on its call only.
#[test]
fn extra_content_on_a_call_is_kept_on_that_call() {
    let mut mapper = EventMapper::new(
        "custom-gemini",
        "gemini-3-pro-preview",
        InlineThoughts::None,
    );
    let mut out = Vec::new();
    let signed = json!({"choices": [{"index": 0, "delta": {"role": "assistant", "tool_calls": [{
        "extra_content": {"google": {"thought_signature": "Cs4BAdHtim9-signature-A"}},
        "function": {"arguments": "{\"location\":\"Paris\"}", "name": "get_weather"},
        "id": "function-call-1", "index": 0, "type": "function"
    }]}}]});
    let plain = json!({"choices": [{"index": 0, "delta": {"tool_calls": [{
        "function": {"arguments": "{\"location\":\"London\"}", "name": "get_weather"},
        "id": "function-call-2", "index": 1, "type": "function"
    }]}, "finish_reason": "tool_calls"}]});
    mapper.on_data(&signed.to_string(), &mut out);
    mapper.on_data(&plain.to_string(), &mut out);
    let replay = mapper.finish(&mut out).unwrap();
    let calls = replay.content["tool_calls"].as_array().unwrap();
    assert_eq!(
        calls[0]["extra_content"],
        json!({"google": {"thought_signature": "Cs4BAdHtim9-signature-A"}})
    );
    assert!(calls[1].get("extra_content").is_none());
}

#[test]
fn copilots_reasoning_text_is_a_thought() {
    // A Gemini 3 stream through Copilot's Chat Completions (codecompanion.nvim's recorded stub).
    let mut mapper = EventMapper::new("copilot", "gemini-3-pro-preview", InlineThoughts::None);
    let mut out = Vec::new();
    for chunk in [
        r#"{"choices":[{"index":0,"delta":{"content":null,"role":"assistant","reasoning_text":"**Discovering Update Scope**\n\nI'm currently"}}],"created":1763682744,"id":"takfaZb8F-DrlOoPh4G-2AU","model":"gemini-3-pro-preview"}"#,
        r#"{"choices":[{"index":0,"delta":{"content":"I will search.","role":"assistant"}}],"created":1763682744,"id":"takfaZb8F-DrlOoPh4G-2AU","model":"gemini-3-pro-preview"}"#,
        r#"{"choices":[{"finish_reason":"stop","index":0,"delta":{"content":null,"role":"assistant","reasoning_opaque":"lgxMQq0m/J6c"}}],"created":1763682744,"id":"takfaZb8F-DrlOoPh4G-2AU","model":"gemini-3-pro-preview"}"#,
    ] {
        mapper.on_data(chunk, &mut out);
    }
    // The signature is kept for the next request, beside the thoughts it signs.
    let replay = mapper.finish(&mut out).unwrap();
    assert_eq!(replay.content["reasoning_opaque"], "lgxMQq0m/J6c");
    assert_eq!(
        replay.content["reasoning_content"],
        "**Discovering Update Scope**\n\nI'm currently"
    );
    assert!(
        out.iter().any(|e| matches!(
            e,
            ChatEvent::ThinkingStart {
                source: ThoughtSource::ReasoningText
            }
        )),
        "{out:?}"
    );
    let thought: String = out
        .iter()
        .filter_map(|e| match e {
            ChatEvent::ThinkingDelta { text } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(thought, "**Discovering Update Scope**\n\nI'm currently");
    assert!(
        out.iter()
            .any(|e| matches!(e, ChatEvent::TextDelta { text } if text == "I will search."))
    );
}
