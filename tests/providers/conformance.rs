//! What every request must keep, whatever its protocol (Anthropic, OpenAI Chat, OpenAI
//! Responses, Gemini, Ollama): one function per rule. `Case::send` runs them all, so every
//! case in this binary — each golden, each tool-loop request, the table of every step on
//! every protocol in `tool_requests` — is held to them besides what the case itself asserts.
//! The tests here show each rule catches what it is about.

use std::collections::BTreeSet;

use ponder_core::catalog::{Catalog, ModelInfo};
use ponder_core::chat::{Message, Part, Role, ThinkingBlock, ThoughtSource};
use ponder_core::providers::request::WireRequest;
use serde_json::{Value, json};

use crate::case::{Sent, assistant, text, thought};

pub fn check(sent: &Sent) {
    no_thought_as_visible_text(sent);
    no_foreign_signature_sent(sent);
}

fn target(sent: &Sent) -> String {
    format!("{}/{}", sent.model.provider.id, sent.model.id)
}

// ---------------------------------------------------------------------------------------
// No thought is sent back as the assistant's own words

/// A thought sent as visible text teaches the model it said what it only thought, and
/// shows up in its next answer; thoughts go back in their own fields or not at all.
pub fn no_thought_as_visible_text(sent: &Sent) {
    let at = target(sent);
    let thoughts: Vec<&str> = sent
        .history
        .iter()
        .flat_map(|m| m.thinking())
        .map(|b| b.text.as_str())
        .filter(|t| !t.is_empty())
        .collect();
    for visible in visible_assistant_texts(&sent.request.body) {
        let visible = if sent.model.think_tags {
            without_think_tags(&visible)
        } else {
            assert!(
                !visible.contains("<think>"),
                "{at}: think tags in visible text: {visible}"
            );
            visible
        };
        for thought in &thoughts {
            assert!(
                !visible.contains(thought),
                "{at}: thought text sent as visible text: {visible:?}"
            );
        }
    }
}

/// The text of every assistant message as the provider would show it to the model as the
/// assistant's own words: Anthropic text blocks, Chat/Ollama `content`, Responses assistant
/// messages, Gemini parts that are not thoughts.
fn visible_assistant_texts(body: &Value) -> Vec<String> {
    let mut out = Vec::new();
    let push_content = |out: &mut Vec<String>, content: &Value| match content {
        Value::String(s) => out.push(s.clone()),
        Value::Array(blocks) => {
            for block in blocks {
                let kind = block["type"].as_str().unwrap_or("");
                if matches!(kind, "text" | "output_text" | "input_text")
                    && let Some(s) = block["text"].as_str()
                {
                    out.push(s.to_owned());
                }
            }
        }
        _ => {}
    };
    for message in body["messages"].as_array().into_iter().flatten() {
        if message["role"] == "assistant" {
            push_content(&mut out, &message["content"]);
        }
    }
    for item in body["input"].as_array().into_iter().flatten() {
        if item["role"] == "assistant" {
            push_content(&mut out, &item["content"]);
        }
    }
    for content in body["contents"].as_array().into_iter().flatten() {
        if content["role"] == "model" {
            for part in content["parts"].as_array().into_iter().flatten() {
                if part["thought"] != json!(true)
                    && let Some(s) = part["text"].as_str()
                {
                    out.push(s.to_owned());
                }
            }
        }
    }
    out
}

/// Removes `<think>…</think>` spans: models that reason inline wrote them in their visible
/// text and must get them back there.
fn without_think_tags(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("<think>") {
        out.push_str(&rest[..start]);
        match rest[start..].find("</think>") {
            Some(end) => rest = &rest[start + end + "</think>".len()..],
            None => {
                rest = "";
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

// ---------------------------------------------------------------------------------------
// No model gets another model's signatures or opaque data

/// Signatures, redacted thinking and encrypted reasoning mean something only to the model
/// that wrote them: another one rejects the request over them, or reads what it cannot
/// check. After a switch they stay behind, whatever the settings say.
pub fn no_foreign_signature_sent(sent: &Sent) {
    let at = target(sent);
    let mut sent_strings = Vec::new();
    strings(&sent.request.body, &mut sent_strings);
    for secret in foreign_secrets(sent) {
        assert!(
            !sent_strings.iter().any(|s| s.contains(&secret)),
            "{at}: another model's signature or data was sent: {secret}"
        );
    }
}

/// The opaque data of the assistant turns another model wrote, less any the target's own
/// turns carry too (those go back legitimately). Public so a table can tell that the rule
/// had something to check.
pub fn foreign_secrets(sent: &Sent) -> BTreeSet<String> {
    let mut foreign = BTreeSet::new();
    let mut own = BTreeSet::new();
    for message in sent.history.iter().filter(|m| m.role == Role::Assistant) {
        if written_by(message, &sent.model) {
            own.extend(opaque_data(message));
        } else {
            foreign.extend(opaque_data(message));
        }
    }
    &foreign - &own
}

/// The same provider and the same model id, as the core decides it: a sibling model of the
/// same vendor cannot read the signatures either.
fn written_by(message: &Message, model: &ModelInfo) -> bool {
    message
        .origin
        .as_ref()
        .is_some_and(|o| o.provider == model.provider.id && o.model.eq_ignore_ascii_case(&model.id))
}

/// Where each protocol puts what only its model can read: Anthropic's `signature` and
/// redacted `data`, Gemini's `thoughtSignature` (`thought_signature` on its Chat endpoint),
/// the Responses API's `encrypted_content`, Copilot's `reasoning_opaque`, OpenRouter's signed
/// `reasoning_details`.
const OPAQUE_KEYS: &[&str] = &[
    "signature",
    "thoughtSignature",
    "thought_signature",
    "encrypted_content",
    "reasoning_opaque",
];

fn opaque_data(message: &Message) -> BTreeSet<String> {
    let mut out = Vec::new();
    for block in message.thinking() {
        out.extend(block.signature.clone());
        out.extend(block.redacted.clone());
        if let Some(data) = &block.provider_data {
            opaque_strings(data, &mut out);
        }
    }
    if let Some(replay) = &message.replay {
        opaque_strings(&replay.content, &mut out);
    }
    out.into_iter().filter(|s| !s.is_empty()).collect()
}

fn opaque_strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            let redacted = map.get("type") == Some(&json!("redacted_thinking"));
            for (key, value) in map {
                let opaque = OPAQUE_KEYS.contains(&key.as_str()) || (redacted && key == "data");
                match value {
                    Value::String(s) if opaque => out.push(s.clone()),
                    _ => opaque_strings(value, out),
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| opaque_strings(v, out)),
        _ => {}
    }
}

/// Every string in a body, keys too, unescaped: a secret is looked for in what the provider
/// reads, not in its JSON spelling.
fn strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Object(map) => {
            for (key, value) in map {
                out.push(key.clone());
                strings(value, out);
            }
        }
        Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        _ => {}
    }
}

// ---------------------------------------------------------------------------------------
// Each rule catches what it is about

const THOUGHT: &str =
    "The user asks for the boiling point of water at sea level; that is 100 degrees Celsius.";
const ANSWER: &str = "Water boils at 100 °C at sea level.";

fn sent_to(provider: &str, model: &str, history: Vec<Message>, body: Value) -> Sent {
    Sent {
        model: Catalog::builtin().resolve(Some(provider), model).unwrap(),
        history,
        request: WireRequest {
            body,
            notices: Vec::new(),
        },
    }
}

fn fails(check: fn(&Sent), sent: &Sent) -> bool {
    std::panic::catch_unwind(|| check(sent)).is_err()
}

/// A thought copied into an answer is caught in every shape, and `<think>` spans pass
/// only for models that reason inline.
#[test]
fn the_visible_text_check_catches_a_leak() {
    let leak = |provider: &str, model: &str, body: Value| {
        let turn = assistant(
            "anthropic",
            "claude-sonnet-4-5",
            "claude-sonnet-4-5",
            vec![thought(THOUGHT, ThoughtSource::Thinking), text(ANSWER)],
            json!({}),
        );
        fails(
            no_thought_as_visible_text,
            &sent_to(provider, model, vec![turn], body),
        )
    };
    let as_text = format!("{THOUGHT}\n\n{ANSWER}");
    let in_tags = format!("<think>{THOUGHT}</think>{ANSWER}");
    assert!(leak(
        "anthropic",
        "claude-sonnet-4-5",
        json!({ "messages": [{ "role": "assistant", "content": [{ "type": "text", "text": as_text }] }] })
    ));
    assert!(leak(
        "deepseek",
        "deepseek-v4-pro",
        json!({ "messages": [{ "role": "assistant", "content": as_text }] })
    ));
    assert!(leak(
        "openai",
        "o3",
        json!({ "input": [{ "type": "message", "role": "assistant", "content": [{ "type": "output_text", "text": as_text }] }] })
    ));
    assert!(leak(
        "google",
        "gemini-3-pro-preview",
        json!({ "contents": [{ "role": "model", "parts": [{ "text": as_text }] }] })
    ));
    assert!(leak(
        "deepseek",
        "deepseek-v4-pro",
        json!({ "messages": [{ "role": "assistant", "content": in_tags }] })
    ));
    assert!(!leak(
        "minimax",
        "MiniMax-M2",
        json!({ "messages": [{ "role": "assistant", "content": in_tags }] })
    ));
    assert!(!leak(
        "google",
        "gemini-3-pro-preview",
        json!({ "contents": [{ "role": "model", "parts": [{ "text": THOUGHT, "thought": true }, { "text": ANSWER }] }] })
    ));
}

/// Each protocol's opaque data, wherever Ponder keeps it (on the thought or in the
/// native turn), is caught when it reaches another model, and passes when it goes back
/// to its own.
#[test]
fn the_foreign_signature_check_catches_a_leak() {
    let on_block = |block: ThinkingBlock| {
        assistant(
            "anthropic",
            "claude-sonnet-4-5",
            "claude-sonnet-4-5-20250929",
            vec![Part::Thinking(block), text(ANSWER)],
            json!({}),
        )
    };
    let in_replay = |provider: &str, model: &str, content: Value| {
        assistant(
            provider,
            model,
            model,
            vec![thought(THOUGHT, ThoughtSource::Thought), text(ANSWER)],
            content,
        )
    };
    // (the turn, its secret, a model that is not the one that wrote it)
    let turns = [
        (
            on_block(ThinkingBlock {
                text: THOUGHT.into(),
                signature: Some("sig-on-the-block".into()),
                ..ThinkingBlock::default()
            }),
            "sig-on-the-block",
            ("openai", "o3"),
        ),
        (
            on_block(ThinkingBlock {
                redacted: Some("redacted-on-the-block".into()),
                ..ThinkingBlock::default()
            }),
            "redacted-on-the-block",
            ("google", "gemini-3-pro-preview"),
        ),
        (
            in_replay(
                "anthropic",
                "claude-sonnet-4-5",
                json!({ "content": [{ "type": "redacted_thinking", "data": "redacted-in-replay" }] }),
            ),
            "redacted-in-replay",
            ("ollama", "qwen3"),
        ),
        (
            in_replay(
                "google",
                "gemini-3-pro-preview",
                json!({ "parts": [{ "text": ANSWER, "thoughtSignature": "gemini-sig" }] }),
            ),
            "gemini-sig",
            ("anthropic", "claude-sonnet-4-5"),
        ),
        (
            in_replay(
                "openai",
                "o3",
                json!({ "items": [{ "type": "reasoning", "encrypted_content": "gAAAA-enc" }] }),
            ),
            "gAAAA-enc",
            ("deepseek", "deepseek-v4-pro"),
        ),
        (
            in_replay(
                "copilot",
                "gemini-3.8-flash",
                json!({ "content": "", "reasoning_opaque": "copilot-opaque" }),
            ),
            "copilot-opaque",
            ("google", "gemini-3-pro-preview"),
        ),
        (
            in_replay(
                "deepseek",
                "deepseek-v4-pro",
                json!({ "tool_calls": [{ "extra_content": { "google": { "thought_signature": "call-sig" } } }] }),
            ),
            "call-sig",
            ("deepseek", "deepseek-reasoner"),
        ),
        (
            in_replay(
                "openrouter",
                "anthropic/claude-sonnet-4.5",
                json!({ "reasoning_details": [{ "type": "reasoning.text", "signature": "openrouter-sig" }] }),
            ),
            "openrouter-sig",
            ("anthropic", "claude-sonnet-4-5"),
        ),
    ];
    for (turn, secret, (provider, model)) in turns {
        let origin = turn.origin.clone().unwrap();
        // Deep in the body and inside a longer string, as a protocol might carry it.
        let body = json!({ "messages": [{ "role": "assistant", "content": [{ "x": format!("…{secret}…") }] }] });
        let to_another = sent_to(provider, model, vec![turn.clone()], body.clone());
        assert!(
            fails(no_foreign_signature_sent, &to_another),
            "{secret} to {provider}/{model}"
        );
        let back_home = sent_to(&origin.provider, &origin.model, vec![turn], body);
        assert!(
            !fails(no_foreign_signature_sent, &back_home),
            "{secret} back to {}/{}",
            origin.provider,
            origin.model
        );
    }
}
