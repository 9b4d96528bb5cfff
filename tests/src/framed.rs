//! Real recordings that exist only as whole JSON responses (Anthropic's thinking + tool use,
//! DeepSeek's and Groq's tool calls, Kimi's on Bedrock), replayed as the stream the API would
//! have sent for them: the same content, framed as stream events.

use ponder_mock_provider::Reply;
use serde_json::{Value, json};

/// A recording in `tests/fixtures/real`, read as JSON.
pub fn real(path: &str) -> Value {
    let path = crate::recordings::real_dir().join(path);
    serde_json::from_slice(&std::fs::read(&path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A whole Chat Completions response as one streamed chunk and `[DONE]`.
pub fn chat_stream(response: &Value) -> Reply {
    let choice = &response["choices"][0];
    let mut delta = choice["message"].clone();
    if let Some(calls) = delta["tool_calls"].as_array_mut() {
        for (i, call) in calls.iter_mut().enumerate() {
            call["index"] = json!(i);
        }
    }
    let chunk = json!({
        "id": response["id"], "object": "chat.completion.chunk", "model": response["model"],
        "choices": [{ "index": 0, "delta": delta, "finish_reason": choice["finish_reason"] }],
        "usage": response["usage"],
    });
    Reply::sse(format!("data: {chunk}\n\ndata: [DONE]\n\n"))
}

/// DeepSeek's recorded tool-call answer (`deepseek/pydantic-deepseek-reasoner-tool-calls.json`,
/// its reasoning kept) with its call renamed to a tool the test's server has.
pub fn deepseek_calling(name: &str, arguments: &Value) -> Value {
    let mut response = real("deepseek/pydantic-deepseek-reasoner-tool-calls.json");
    response["choices"][0]["message"]["tool_calls"][0]["function"] =
        json!({ "name": name, "arguments": arguments.to_string() });
    response
}

/// A Bedrock Converse response (Kimi K2 thinking on Bedrock) as the Chat Completions answer
/// Moonshot's own API gives for it: `reasoningContent` as `reasoning_content`, `toolUse` as
/// `tool_calls`, text as content.
pub fn converse_as_chat(converse: &Value, model: &str) -> Value {
    let mut reasoning = String::new();
    let mut content = String::new();
    let mut calls = Vec::new();
    for block in converse["output"]["message"]["content"].as_array().unwrap() {
        if let Some(text) = block["reasoningContent"]["reasoningText"]["text"].as_str() {
            reasoning.push_str(text);
        } else if let Some(text) = block["text"].as_str() {
            content.push_str(text);
        } else if let Some(call) = block.get("toolUse") {
            calls.push(json!({
                "id": call["toolUseId"], "type": "function",
                "function": { "name": call["name"], "arguments": call["input"].to_string() }
            }));
        }
    }
    let mut message = json!({ "role": "assistant", "content": content });
    if !reasoning.is_empty() {
        message["reasoning_content"] = json!(reasoning);
    }
    if !calls.is_empty() {
        message["tool_calls"] = Value::Array(calls);
    }
    let usage = &converse["usage"];
    json!({
        "id": "chatcmpl-from-converse", "object": "chat.completion", "model": model,
        "choices": [{ "index": 0, "message": message,
            "finish_reason": if converse["stopReason"] == "tool_use" { "tool_calls" } else { "stop" } }],
        "usage": { "prompt_tokens": usage["inputTokens"], "completion_tokens": usage["outputTokens"] },
    })
}

/// A whole Messages response as the stream Anthropic sends for it.
pub fn anthropic_stream(message: &Value) -> Reply {
    let mut events = Vec::new();
    let mut head = message.clone();
    head["content"] = json!([]);
    events.push((
        "message_start",
        json!({ "type": "message_start", "message": head }),
    ));
    for (index, block) in message["content"].as_array().unwrap().iter().enumerate() {
        let mut start = block.clone();
        let delta = match block["type"].as_str().unwrap() {
            "thinking" => {
                start["thinking"] = json!("");
                start["signature"] = json!("");
                vec![
                    json!({ "type": "thinking_delta", "thinking": block["thinking"] }),
                    json!({ "type": "signature_delta", "signature": block["signature"] }),
                ]
            }
            "text" => {
                start["text"] = json!("");
                vec![json!({ "type": "text_delta", "text": block["text"] })]
            }
            "tool_use" => {
                start["input"] = json!({});
                vec![
                    json!({ "type": "input_json_delta", "partial_json": block["input"].to_string() }),
                ]
            }
            _ => Vec::new(),
        };
        events.push((
            "content_block_start",
            json!({ "type": "content_block_start", "index": index, "content_block": start }),
        ));
        for d in delta {
            events.push((
                "content_block_delta",
                json!({ "type": "content_block_delta", "index": index, "delta": d }),
            ));
        }
        events.push((
            "content_block_stop",
            json!({ "type": "content_block_stop", "index": index }),
        ));
    }
    events.push((
        "message_delta",
        json!({ "type": "message_delta", "delta": { "stop_reason": message["stop_reason"] }, "usage": { "output_tokens": message["usage"]["output_tokens"] } }),
    ));
    events.push(("message_stop", json!({ "type": "message_stop" })));
    let text: String = events
        .iter()
        .map(|(name, data)| format!("event: {name}\ndata: {data}\n\n"))
        .collect();
    Reply::sse(text)
}
