//! Request goldens: hand-built conversations turned into provider request bodies by
//! `providers::to_wire`, compared exactly with committed files under
//! `tests/fixtures/requests/<case>.snap` (`{"body": …, "notices": […]}`), where `<case>`
//! is the test function's name (`golden!`).
//!
//! The rules are each provider's round-trip rules (see each protocol's module documentation)
//! and the conversation's thought settings. Each case also asserts the rule it is about, so a
//! wrongly blessed file still fails; the rules every request keeps whatever its protocol (no
//! thought sent back as visible text, no model sent another model's signatures) are checked
//! on every case by `Case::send` (see `conformance`).

use ponder_core::chat::{Message, Origin, Part, Role, ThinkingBlock, ThoughtSource};
use ponder_core::reasoning::{ApiChoice, Choice, ReasoningSettings, StripFromContext};
use serde_json::{Value, json};

use crate::case::{Case, SYSTEM, Sent, TOOL_RESULT, assistant, call, include, text, thought, user};
use crate::conformance::foreign_secrets;
use crate::golden::golden;

// ---------------------------------------------------------------------------------------
// Building conversations

fn settings(strip: StripFromContext, include_in_context: bool) -> ReasoningSettings {
    ReasoningSettings {
        strip_from_context: strip,
        include_in_context,
        ..ReasoningSettings::default()
    }
}

/// An Anthropic thinking block with its signature.
fn signed(text: &str, signature: &str) -> Part {
    Part::Thinking(ThinkingBlock {
        text: text.into(),
        source: Some(ThoughtSource::Thinking),
        signature: Some(signature.into()),
        ..ThinkingBlock::default()
    })
}

fn redacted(data: &str) -> Part {
    Part::Thinking(ThinkingBlock {
        source: Some(ThoughtSource::Thinking),
        redacted: Some(data.into()),
        ..ThinkingBlock::default()
    })
}

/// A thought that came with provider data (a Responses reasoning item).
fn thought_with_data(text: &str, source: ThoughtSource, data: Value) -> Part {
    Part::Thinking(ThinkingBlock {
        text: text.into(),
        source: Some(source),
        provider_data: Some(data),
        ..ThinkingBlock::default()
    })
}

// Anthropic, claude-sonnet-4-5.

const SONNET_SNAPSHOT: &str = "claude-sonnet-4-5-20250929";

fn anthropic_turn(thinking: &str, signature: &str, answer: &str) -> Message {
    assistant(
        "anthropic",
        "claude-sonnet-4-5",
        SONNET_SNAPSHOT,
        vec![signed(thinking, signature), text(answer)],
        json!({
            "role": "assistant",
            "content": [
                { "type": "thinking", "thinking": thinking, "signature": signature },
                { "type": "text", "text": answer }
            ]
        }),
    )
}

const SIG_A1: &str = "EqQBCkYIBxgCKkDq1ZbJ0n9v5cWxhGm8YpX3bT0aVq2Lr7sKfN4uHcE1dIwQy6oPzR9tJ5mB8vA2nXlS3kD7gF0hU4jC1eQzEgzA1b2C3d4E5f6G7h8aDKs9T0u1V2w3X4y5ZiIwQm9pLk8jH7gF6dS5aA4sQ3wE2rT1yU0iO9pL8kJ7hG6fD5sA4qW3eR2tY1uI0oP==";
const SIG_A2: &str = "EpMCCkYIBxgCKkBv8N2mQ4rT6yU1iO3pA5sD7fG9hJ0kL2zX4cV6bN8mQ1wE3rT5yU7iO9pA1sD3fG5hJ7kL9zX1cV3bN5mQ7wEEgyB2c3D4e5F6g7H8i9JaDOp1Q2r3S4t5U6v7W8x9IjCz1A2b3C4d5E6f7G8h9I0j1K2l3M4n5O6p7Q8r9S0t1U2v3W4x5Y6z7A8b9C0d==";
const SIG_A3: &str = "ErcBCkYIBxgCKkA3fG5hJ7kL9zX1cV3bN5mQ7wE9rT1yU3iO5pA7sD9fG1hJ3kL5zX7cV9bN1mQ3wE5rT7yU9iO1pA3sD5fG7hEgxC3d4E5f6G7h8I9j0KaDPq2R3s4T5u6V7w8X9y0ZiMA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0U1v2W3x4Y5z6A7b8C9d0E==";
const REDACTED_DATA: &str = "EvgFCkYIBxgCKkBmxKtCnM3xlr1zpw0Ik4FY0bnznKLdj7THnWO4shd9HwIVkqwnbh16iMbUaK/y21Cf3e2zpej0nWdCG/JL5N0xEgywjBGi+v35EN0uLGcaDK+qOqA2s01rnZ0ZLiIwAHciryf6vOoMFDZlnCyaZHZW3oO8qmEGf/zyZgLzdE3WMFC1WxzUOnJDHiRRbAbVKt8EjEfzriU8Jbhw38s6vbMj6ZkQW7xHrQqPoYbDJlnBuZKdj0n+9XmYNTqGbgChQnsCdFT47uxmimkxRzas5L/pE9XbElYde8WAB0zDdbdSRhROBmDWuCsUh6JFtH9ydDWhxrQ2IU0pFQD/SrGLVueS1g==";

const T1: &str = "The user asks for the boiling point of water at sea level; that is 100 degrees Celsius, so I should state it plainly.";
const R1: &str = "Water boils at 100 °C at sea level.";
const T2: &str =
    "Now they want Fahrenheit: 100 × 9/5 + 32 gives 212, which is the familiar figure.";
const R2: &str = "That is 212 °F.";
const T3: &str = "At altitude the pressure drops, so the boiling point falls by roughly one degree per 300 metres.";
const R3: &str = "It is lower at altitude, about 93 °C in Denver.";

/// Three exchanges [T1,R1], [T2,R2], [T3,R3] with thoughts, then a new question.
fn seed_history(turn: impl Fn(&str, &str, usize) -> Message) -> Vec<Message> {
    vec![
        user("At what temperature does water boil?"),
        turn(T1, R1, 1),
        user("And in Fahrenheit?"),
        turn(T2, R2, 2),
        user("Does it change in the mountains?"),
        turn(T3, R3, 3),
        user("Thanks. What about pressure cookers?"),
    ]
}

fn anthropic_seed_history() -> Vec<Message> {
    seed_history(|t, r, n| anthropic_turn(t, [SIG_A1, SIG_A2, SIG_A3][n - 1], r))
}

// DeepSeek and the other OpenAI-compatible vendors.

fn chat_turn(
    provider: &str,
    model: &str,
    replay_model: &str,
    thinking: &str,
    answer: &str,
    tool: Option<(&str, &str, &str)>,
) -> Message {
    let mut parts = vec![thought(thinking, ThoughtSource::ReasoningContent)];
    if !answer.is_empty() {
        parts.push(text(answer));
    }
    let mut content = json!({
        "role": "assistant",
        "content": answer,
        "reasoning_content": thinking,
    });
    if let Some((id, name, arguments)) = tool {
        parts.push(call(id, name, arguments));
        content["tool_calls"] = json!([{
            "id": id,
            "type": "function",
            "function": { "name": name, "arguments": arguments }
        }]);
    }
    assistant(provider, model, replay_model, parts, content)
}

fn deepseek_v4(thinking: &str, answer: &str, tool: Option<(&str, &str, &str)>) -> Message {
    chat_turn(
        "deepseek",
        "deepseek-v4-pro",
        "deepseek-v4-pro",
        thinking,
        answer,
        tool,
    )
}

const WEATHER_CALL: (&str, &str, &str) = (
    "call_00_sXqYgMESDht75NCLLZtt9804",
    "get_weather",
    "{\"city\": \"Paris\"}",
);

const T_TOOL: &str =
    "To answer I need today's Paris forecast, which only the get_weather tool can give me.";

/// The assistant messages of a `messages`-shaped body.
fn assistants(body: &Value) -> Vec<&Value> {
    body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["role"] == "assistant")
        .collect()
}

// ---------------------------------------------------------------------------------------
// First turns: system + one user message, with a thinking choice.

fn first_turn() -> Vec<Message> {
    vec![user("How many prime numbers are there below 30?")]
}

#[test]
fn first_turn_anthropic_sonnet45_medium() {
    let sent = Case::to("anthropic/claude-sonnet-4-5")
        .at(Choice::MEDIUM)
        .history(first_turn())
        .send();
    let body = &sent.request.body;
    assert_eq!(body["system"], SYSTEM);
    assert_eq!(body["thinking"]["type"], "enabled");
    assert!(sent.request.notices.is_empty());
    golden!(&sent);
}

#[test]
fn first_turn_responses_o3_high() {
    let sent = Case::to("openai/o3")
        .at(Choice::HIGH)
        .history(first_turn())
        .send();
    let body = &sent.request.body;
    assert_eq!(body["reasoning"]["effort"], "high");
    assert_eq!(body["store"], false);
    assert_eq!(body["instructions"], SYSTEM);
    golden!(&sent);
}

#[test]
fn first_turn_chat_o3_high() {
    let sent = Case::to("openai/o3")
        .at(Choice::HIGH)
        .api(ApiChoice::Chat)
        .history(first_turn())
        .send();
    let body = &sent.request.body;
    assert_eq!(body["reasoning_effort"], "high");
    assert_eq!(body["messages"][0]["role"], "system");
    assert!(body.get("input").is_none());
    golden!(&sent);
}

#[test]
fn first_turn_gemini25_pro_high() {
    let sent = Case::to("google/gemini-2.5-pro")
        .at(Choice::HIGH)
        .history(first_turn())
        .send();
    let config = &sent.request.body["generationConfig"]["thinkingConfig"];
    assert!(config["thinkingBudget"].is_u64() && config.get("thinkingLevel").is_none());
    golden!(&sent);
}

#[test]
fn first_turn_gemini3_pro_low() {
    let sent = Case::to("google/gemini-3-pro-preview")
        .at(Choice::LOW)
        .history(first_turn())
        .send();
    let config = &sent.request.body["generationConfig"]["thinkingConfig"];
    assert!(config.get("thinkingLevel").is_some() && config.get("thinkingBudget").is_none());
    golden!(&sent);
}

#[test]
fn first_turn_deepseek_v4_pro_high() {
    let sent = Case::to("deepseek/deepseek-v4-pro")
        .at(Choice::HIGH)
        .history(first_turn())
        .send();
    assert_eq!(sent.request.body["thinking"]["type"], "enabled");
    golden!(&sent);
}

#[test]
fn first_turn_ollama_qwen3_high() {
    let sent = Case::to("ollama/qwen3")
        .at(Choice::HIGH)
        .history(first_turn())
        .send();
    assert!(sent.request.body.get("think").is_some());
    golden!(&sent);
}

// ---------------------------------------------------------------------------------------
// Anthropic: after thinking and after redacted thinking (§1.4).

fn anthropic_after_thinking() -> Vec<Message> {
    vec![
        user("At what temperature does water boil?"),
        anthropic_turn(T1, SIG_A1, R1),
        user("And in Fahrenheit?"),
    ]
}

#[test]
fn anthropic_after_thinking_default() {
    let sent = Case::to("anthropic/claude-sonnet-4-5")
        .at(Choice::MEDIUM)
        .history(anthropic_after_thinking())
        .send();
    let body = &sent.request.body;
    assert_eq!(
        assistants(body)[0]["content"],
        json!([{ "type": "text", "text": R1 }]),
        "includeInContext false: the thinking block is not sent"
    );
    assert!(sent.request.notices.is_empty());
    golden!(&sent);
}

#[test]
fn anthropic_after_thinking_include() {
    let sent = Case::to("anthropic/claude-sonnet-4-5")
        .at(Choice::MEDIUM)
        .settings(include())
        .history(anthropic_after_thinking())
        .send();
    let history = anthropic_after_thinking();
    assert_eq!(
        assistants(&sent.request.body)[0]["content"],
        history[1].replay.as_ref().unwrap().content["content"],
        "includeInContext true: the turn goes back verbatim, signature and all"
    );
    assert!(sent.request.notices.is_empty());
    golden!(&sent);
}

fn anthropic_redacted_turn() -> Message {
    assistant(
        "anthropic",
        "claude-sonnet-4-5",
        SONNET_SNAPSHOT,
        vec![redacted(REDACTED_DATA), signed(T1, SIG_A1), text(R1)],
        json!({
            "role": "assistant",
            "content": [
                { "type": "redacted_thinking", "data": REDACTED_DATA },
                { "type": "thinking", "thinking": T1, "signature": SIG_A1 },
                { "type": "text", "text": R1 }
            ]
        }),
    )
}

fn anthropic_after_redacted() -> Vec<Message> {
    vec![
        user("At what temperature does water boil?"),
        anthropic_redacted_turn(),
        user("And in Fahrenheit?"),
    ]
}

#[test]
fn anthropic_after_redacted_include() {
    let sent = Case::to("anthropic/claude-sonnet-4-5")
        .at(Choice::MEDIUM)
        .settings(include())
        .history(anthropic_after_redacted())
        .send();
    let content = &assistants(&sent.request.body)[0]["content"];
    assert_eq!(
        content[0],
        json!({ "type": "redacted_thinking", "data": REDACTED_DATA }),
        "the redacted block goes back verbatim and first"
    );
    assert_eq!(content.as_array().unwrap().len(), 3);
    golden!(&sent);
}

#[test]
fn anthropic_after_redacted_default() {
    let sent = Case::to("anthropic/claude-sonnet-4-5")
        .at(Choice::MEDIUM)
        .history(anthropic_after_redacted())
        .send();
    assert_eq!(
        assistants(&sent.request.body)[0]["content"],
        json!([{ "type": "text", "text": R1 }])
    );
    assert!(sent.request.notices.is_empty());
    golden!(&sent);
}

/// The last assistant turn ends in tool use: its (redacted) thinking must go back even
/// though the settings say not to, with a notice.
#[test]
fn anthropic_tool_turn_redacted_default() {
    let tool_turn = assistant(
        "anthropic",
        "claude-sonnet-4-5",
        SONNET_SNAPSHOT,
        vec![
            redacted(REDACTED_DATA),
            signed(T_TOOL, SIG_A2),
            call(
                "toolu_01YGzqpRE16Vricda3Aqcejo",
                "get_weather",
                "{\"city\":\"Paris\"}",
            ),
        ],
        json!({
            "role": "assistant",
            "content": [
                { "type": "redacted_thinking", "data": REDACTED_DATA },
                { "type": "thinking", "thinking": T_TOOL, "signature": SIG_A2 },
                { "type": "tool_use", "id": "toolu_01YGzqpRE16Vricda3Aqcejo", "name": "get_weather", "input": { "city": "Paris" } }
            ]
        }),
    );
    let history = vec![
        user("At what temperature does water boil?"),
        anthropic_turn(T1, SIG_A1, R1),
        user("What is the weather in Paris?"),
        tool_turn.clone(),
        user("Also tell me in Celsius."),
    ];
    let sent = Case::to("anthropic/claude-sonnet-4-5")
        .at(Choice::MEDIUM)
        .history(history)
        .send();
    let body = &sent.request.body;
    assert_eq!(
        assistants(body)[0]["content"],
        json!([{ "type": "text", "text": R1 }]),
        "an earlier plain turn keeps no thinking"
    );
    assert_eq!(
        assistants(body)[1]["content"],
        tool_turn.replay.unwrap().content["content"]
    );
    assert!(sent.has_notice("Anthropic requires it"));
    golden!(&sent);
}

// ---------------------------------------------------------------------------------------
// A model switch: an Anthropic turn with signatures, then another vendor (§0.2, 3.4).

fn switched_history() -> Vec<Message> {
    vec![
        user("At what temperature does water boil?"),
        anthropic_redacted_turn(),
        user("And in Fahrenheit?"),
    ]
}

/// None of these protocols takes another model's thoughts back in any form, so the
/// settings' wish to include them is refused, and the user told. The turn's signature and
/// redacted data stay behind by the conformance rule every case keeps; that they are what
/// the rule looked for is checked here, so the rule cannot pass these cases by looking at
/// nothing.
fn thoughts_left_behind_and_told(sent: &Sent) {
    let looked_for = foreign_secrets(sent);
    assert!(looked_for.contains(SIG_A1) && looked_for.contains(REDACTED_DATA));
    assert!(
        !sent.request.body.to_string().contains(T1),
        "a foreign thought was sent"
    );
    assert!(
        sent.has_notice("Thoughts from anthropic/claude-sonnet-4-5 were not sent"),
        "{:?}",
        sent.request.notices
    );
}

#[test]
fn switch_anthropic_to_responses() {
    let sent = Case::to("openai/o3")
        .at(Choice::HIGH)
        .settings(include())
        .history(switched_history())
        .send();
    thoughts_left_behind_and_told(&sent);
    assert_eq!(
        sent.request.body["input"][1],
        json!({ "role": "assistant", "content": R1 })
    );
    golden!(&sent);
}

#[test]
fn switch_anthropic_to_gemini3() {
    let sent = Case::to("google/gemini-3-pro-preview")
        .at(Choice::HIGH)
        .settings(include())
        .history(switched_history())
        .send();
    thoughts_left_behind_and_told(&sent);
    assert_eq!(
        sent.request.body["contents"][1],
        json!({ "role": "model", "parts": [{ "text": R1 }] })
    );
    golden!(&sent);
}

#[test]
fn switch_anthropic_to_deepseek_v4() {
    let sent = Case::to("deepseek/deepseek-v4-pro")
        .at(Choice::HIGH)
        .settings(include())
        .history(switched_history())
        .send();
    thoughts_left_behind_and_told(&sent);
    assert_eq!(
        assistants(&sent.request.body)[0],
        &json!({ "role": "assistant", "content": R1 })
    );
    golden!(&sent);
}

// ---------------------------------------------------------------------------------------
// DeepSeek reasoner vs V4, Kimi (§4.1, 4.2).

fn reasoner_history() -> Vec<Message> {
    let turn = |thinking: &str, answer: &str, tool| {
        chat_turn(
            "deepseek",
            "deepseek-reasoner",
            "deepseek-reasoner",
            thinking,
            answer,
            tool,
        )
    };
    vec![
        user("At what temperature does water boil?"),
        turn(T1, R1, None),
        user("What is the weather in Paris?"),
        turn(T_TOOL, "", Some(WEATHER_CALL)),
        user("Also tell me in Celsius."),
    ]
}

/// DeepSeek's thinking mode behind `deepseek-reasoner` (V3.2 and later) answers 400 unless a
/// tool-call turn's `reasoning_content` comes back with its calls.
#[test]
fn deepseek_reasoner_include() {
    let sent = Case::to("deepseek/deepseek-reasoner")
        .at(Choice::Default)
        .settings(include())
        .history(reasoner_history())
        .send();
    let sent_back = assistants(&sent.request.body);
    assert_eq!(sent_back[0]["reasoning_content"], T1);
    assert_eq!(sent_back[1]["reasoning_content"], T_TOOL);
    assert!(sent_back[1]["tool_calls"].is_array());
    assert!(
        sent.request.notices.is_empty(),
        "{:?}",
        sent.request.notices
    );
    golden!(&sent);
}

#[test]
fn deepseek_reasoner_default() {
    let sent = Case::to("deepseek/deepseek-reasoner")
        .at(Choice::Default)
        .history(reasoner_history())
        .send();
    let sent_back = assistants(&sent.request.body);
    assert!(sent_back[0].get("reasoning_content").is_none());
    assert_eq!(
        sent_back[1]["reasoning_content"], T_TOOL,
        "the tool-call turn carries its reasoning"
    );
    assert_eq!(
        sent.request.notices,
        ["Reasoning of tool-call turns was sent back: DeepSeek requires it"]
    );
    golden!(&sent);
}

/// The original R1 answers 400 on any `reasoning_content` in its input.
#[test]
fn deepseek_r1_include() {
    let turn = |thinking: &str, answer: &str| {
        chat_turn(
            "deepseek",
            "deepseek-r1",
            "deepseek-r1",
            thinking,
            answer,
            None,
        )
    };
    let history = vec![
        user("At what temperature does water boil?"),
        turn(T1, R1),
        user("And in Fahrenheit?"),
    ];
    let sent = Case::to("deepseek/deepseek-r1")
        .at(Choice::Default)
        .settings(include())
        .history(history)
        .send();
    for message in assistants(&sent.request.body) {
        assert!(message.get("reasoning_content").is_none());
    }
    assert_eq!(
        sent.request.notices,
        ["deepseek-r1 rejects earlier reasoning, so it was left out"]
    );
    golden!(&sent);
}

/// Copilot relays Gemini's thoughts as `reasoning_text` signed by `reasoning_opaque`; a tool
/// loop must send both back on the turn that called, or the next request is refused.
#[test]
fn copilot_gemini_opaque_tool_turn_default() {
    let turn = |thinking: &str, answer: &str, opaque: &str, tool: Option<(&str, &str, &str)>| {
        let mut message = chat_turn(
            "copilot",
            "gemini-3.8-flash",
            "gemini-3.8-flash",
            thinking,
            answer,
            tool,
        );
        let replay = message.replay.as_mut().unwrap();
        replay.content["reasoning_opaque"] = json!(opaque);
        message
    };
    let history = vec![
        user("At what temperature does water boil?"),
        turn(T1, R1, "opaque-A-FAKE", None),
        user("What is the weather in Paris?"),
        turn(T_TOOL, "", "opaque-B-FAKE", Some(WEATHER_CALL)),
        user("Also tell me in Celsius."),
    ];
    let sent = Case::to("copilot/gemini-3.8-flash")
        .at(Choice::Default)
        .history(history)
        .send();
    let sent_back = assistants(&sent.request.body);
    assert!(sent_back[0].get("reasoning_opaque").is_none());
    assert!(sent_back[0].get("reasoning_text").is_none());
    assert_eq!(sent_back[1]["reasoning_opaque"], "opaque-B-FAKE");
    assert_eq!(sent_back[1]["reasoning_text"], T_TOOL);
    assert!(sent_back[1].get("reasoning_content").is_none());
    assert!(sent.has_notice("sent back with its signature"));
    golden!(&sent);
}

#[test]
fn deepseek_v4_tool_turn_default() {
    let history = vec![
        user("At what temperature does water boil?"),
        deepseek_v4(T1, R1, None),
        user("What is the weather in Paris?"),
        deepseek_v4(T_TOOL, "", Some(WEATHER_CALL)),
        user("Also tell me in Celsius."),
    ];
    let sent = Case::to("deepseek/deepseek-v4-pro")
        .at(Choice::HIGH)
        .history(history)
        .send();
    let body = &sent.request.body;
    let sent_back = assistants(body);
    assert!(
        sent_back[0].get("reasoning_content").is_none(),
        "a plain turn keeps the setting"
    );
    assert_eq!(
        sent_back[1]["reasoning_content"], T_TOOL,
        "a tool-call turn always carries it"
    );
    assert!(sent_back[1]["tool_calls"].is_array());
    assert_eq!(
        sent.request.notices,
        ["Reasoning of tool-call turns was sent back: DeepSeek requires it"]
    );
    golden!(&sent);
}

#[test]
fn kimi_k25_tool_turn_default() {
    let turn = |thinking: &str, answer: &str, tool| {
        chat_turn("moonshot", "kimi-k2.5", "kimi-k2.5", thinking, answer, tool)
    };
    let history = vec![
        user("At what temperature does water boil?"),
        turn(T1, R1, None),
        user("What is the weather in Paris?"),
        turn(
            T_TOOL,
            "Let me check.",
            Some(("get_weather:0", "get_weather", "{\"city\":\"Paris\"}")),
        ),
        user("Also tell me in Celsius."),
    ];
    let sent = Case::to("moonshot/kimi-k2.5")
        .at(Choice::Default)
        .history(history)
        .send();
    let sent_back = assistants(&sent.request.body);
    assert!(sent_back[0].get("reasoning_content").is_none());
    assert_eq!(sent_back[1]["reasoning_content"], T_TOOL);
    assert!(sent.has_notice("Moonshot requires it"));
    golden!(&sent);
}

// ---------------------------------------------------------------------------------------
// Gemini 3 thought signatures (§3.4).

const GEMINI_SIG_TEXT: &str = "Eo0HCooHAb4+9vutXdtKMt+r7Z3gLh52ZQ3RKYDzp4A6PHh0dLuvI1KwnLxDS/qm8wn4Gm9NNNQ1nBS/rrCAvr4GUTqanTkyxQb0ctdgoMiQJ/BwIXliPqJ5C+YtnXZfktX+roGCDmCE4qimrCzgW4TytiSC4glx6CPNVCUT2S/vrK3WT1Dn8DpykEIddvSH5PRxAOXQ";
const GEMINI_SIG_CALL: &str = "EpwECpkEAdHtim86ETW8V4+qxyxWDha4/3VXdFm652EpxpxjJe1O3/95mcVWWPd8xbhSpqu6CXQDQE6jrBXvT9jP3mB2iROjcBKfvpoaYTg5jW0q1Bx6xzDDynyx0wOJmXU/msrzloqD871tuysrO8zrgkv7e2lfa34UzUBpWtos4Y2qQhDJ+X2rrcns8YAYmXYIcZgh";
const GEMINI_THOUGHT_1: &str = "**Counting the letters**\n\nI'm going through strawberry letter by letter and marking every r I find.";
const GEMINI_THOUGHT_2: &str = "**Planning the lookup**\n\nI need the current weather in Paris, so I'll call get_weather with the city.";
const GEMINI_ANSWER: &str =
    "There are **3** \"r\"s in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y.";

fn gemini3_history() -> Vec<Message> {
    let turn = |parts: Vec<Part>, wire: Value| {
        assistant(
            "google",
            "gemini-3-pro-preview",
            "gemini-3-pro-preview",
            parts,
            json!({ "role": "model", "parts": wire }),
        )
    };
    vec![
        user("How many r's are in strawberry?"),
        // The signature arrived late, on a trailing part with empty text.
        turn(
            vec![
                thought(GEMINI_THOUGHT_1, ThoughtSource::Thought),
                text(GEMINI_ANSWER),
            ],
            json!([
                { "text": GEMINI_THOUGHT_1, "thought": true },
                { "text": GEMINI_ANSWER },
                { "text": "", "thoughtSignature": GEMINI_SIG_TEXT }
            ]),
        ),
        user("What is the weather in Paris?"),
        // A signed function call.
        turn(
            vec![
                thought(GEMINI_THOUGHT_2, ThoughtSource::Thought),
                call("", "get_weather", "{\"city\":\"Paris\"}"),
            ],
            json!([
                { "text": GEMINI_THOUGHT_2, "thought": true },
                {
                    "functionCall": { "name": "get_weather", "args": { "city": "Paris" } },
                    "thoughtSignature": GEMINI_SIG_CALL
                }
            ]),
        ),
        user("Also tell me in Celsius."),
    ]
}

#[test]
fn gemini3_signatures_default() {
    let sent = Case::to("google/gemini-3-pro-preview")
        .at(Choice::HIGH)
        .history(gemini3_history())
        .send();
    let contents = &sent.request.body["contents"];
    assert_eq!(
        contents[1]["parts"],
        json!([
            { "text": GEMINI_ANSWER },
            { "text": "", "thoughtSignature": GEMINI_SIG_TEXT }
        ]),
        "the unsigned thought part is left out, the signed empty part goes back"
    );
    assert_eq!(
        contents[3]["parts"],
        json!([{
            "functionCall": { "name": "get_weather", "args": { "city": "Paris" } },
            "thoughtSignature": GEMINI_SIG_CALL
        }])
    );
    assert!(
        sent.has_notice("Thought signatures were sent back"),
        "{:?}",
        sent.request.notices
    );
    golden!(&sent);
}

#[test]
fn gemini3_signatures_include() {
    let sent = Case::to("google/gemini-3-pro-preview")
        .at(Choice::HIGH)
        .settings(include())
        .history(gemini3_history())
        .send();
    let history = gemini3_history();
    let contents = &sent.request.body["contents"];
    for (sent_at, history_at) in [(1, 1), (3, 3)] {
        assert_eq!(
            contents[sent_at],
            history[history_at].replay.as_ref().unwrap().content,
            "kept: every part exactly as received"
        );
    }
    assert!(sent.request.notices.is_empty());
    golden!(&sent);
}

// ---------------------------------------------------------------------------------------
// OpenAI Responses with encrypted reasoning (§2.3).

const SUMMARY_1: &str = "**Recalling the boiling point**\n\nWater boils at 100 degrees Celsius under standard atmospheric pressure.";
const SUMMARY_2: &str =
    "**Fetching the forecast**\n\nI need live data for Paris, so I will call get_weather.";

fn reasoning_item(id: &str, summary: &str, encrypted: &str) -> Value {
    json!({
        "id": id,
        "type": "reasoning",
        "encrypted_content": encrypted,
        "summary": [{ "type": "summary_text", "text": summary }]
    })
}

fn responses_history() -> Vec<Message> {
    let item_1 = reasoning_item(
        "rs_0f35ed53160b395301693cc95817ac8190b978637daea4987e",
        SUMMARY_1,
        "gAAAAABpPMlcH0HHEv5_ozHwP5Gxz5ZLE7A8Aw7GK94sa1KWHqXLrAch29KZrZqCzH6PkWnLWTxIZv4TL70DPoKbS_ryNp6d2rC8vS04U7qWLdsbYnsqmPYVCCQ2Rigd84Yh9mgctGTs_w5x7NY3pm5lOxUv5jGHAW20nAMGfpFAAYRjW1aAA7f1CjfcXgm8CgNOc1Mu==",
    );
    let item_2 = reasoning_item(
        "rs_68c42d29124881968e24c1ca8c1fc7860e8bc41441c948f6",
        SUMMARY_2,
        "gAAAAABoxC0_aDtrISw_zls0dyams-nhm23et1xecYaqlI8y44ih0g9FA5T3R9ueXIOX9seSrysa48qci5QTep_TNFkxcjPMbWeQxolRKeCjWk0jLpC2FdKdscfb56KfeSTklKz_CaD-VubFOUgtqg==",
    );
    vec![
        user("At what temperature does water boil?"),
        assistant(
            "openai",
            "o3",
            "o3-2025-04-16",
            vec![
                thought_with_data(SUMMARY_1, ThoughtSource::Summary, item_1.clone()),
                text(R1),
            ],
            json!({ "items": [
                item_1,
                {
                    "id": "msg_0f35ed53160b395301693cc95c1d288190997018450969162b",
                    "type": "message",
                    "status": "completed",
                    "content": [{ "type": "output_text", "annotations": [], "logprobs": [], "text": R1 }],
                    "role": "assistant"
                }
            ]}),
        ),
        user("What is the weather in Paris?"),
        assistant(
            "openai",
            "o3",
            "o3-2025-04-16",
            vec![
                thought_with_data(SUMMARY_2, ThoughtSource::Summary, item_2.clone()),
                call(
                    "call_gL7JE6GDeGGsFubqO2XGytyO",
                    "get_weather",
                    "{\"city\":\"Paris\"}",
                ),
            ],
            json!({ "items": [
                item_2,
                {
                    "arguments": "{\"city\":\"Paris\"}",
                    "call_id": "call_gL7JE6GDeGGsFubqO2XGytyO",
                    "id": "fc_68c42d3e9e4881968b15fbb8253f58540e8bc41441c948f6",
                    "name": "get_weather",
                    "status": "completed",
                    "type": "function_call"
                }
            ]}),
        ),
        user("Also tell me in Celsius."),
    ]
}

/// The `function_call_output` answering a turn's call.
fn tool_output(message: &Message) -> Value {
    let call = message.tool_calls().next().unwrap();
    json!({ "type": "function_call_output", "call_id": call.id, "output": TOOL_RESULT })
}

fn replayed_items(message: &Message) -> Vec<Value> {
    message.replay.as_ref().unwrap().content["items"]
        .as_array()
        .unwrap()
        .clone()
}

#[test]
fn responses_encrypted_default() {
    let history = responses_history();
    let sent = Case::to("openai/o3")
        .at(Choice::HIGH)
        .history(history.clone())
        .send();
    let body = &sent.request.body;
    assert_eq!(body["store"], false);
    let input = body["input"].as_array().unwrap();
    let mut expected = vec![
        input[0].clone(),
        json!({ "role": "assistant", "content": R1 }),
    ];
    expected.push(input[2].clone());
    expected.extend(replayed_items(&history[3]));
    expected.push(tool_output(&history[3]));
    expected.push(input.last().unwrap().clone());
    assert_eq!(
        input, &expected,
        "the plain turn as text, the tool turn's items in order, then the tool's output"
    );
    assert!(
        sent.has_notice("OpenAI requires it"),
        "{:?}",
        sent.request.notices
    );
    golden!(&sent);
}

#[test]
fn responses_encrypted_include() {
    let history = responses_history();
    let sent = Case::to("openai/o3")
        .at(Choice::HIGH)
        .settings(include())
        .history(history.clone())
        .send();
    let body = &sent.request.body;
    assert_eq!(body["store"], false);
    let input = body["input"].as_array().unwrap();
    let mut expected = vec![input[0].clone()];
    expected.extend(replayed_items(&history[1]));
    expected.push(input[3].clone());
    expected.extend(replayed_items(&history[3]));
    expected.push(tool_output(&history[3]));
    expected.push(input.last().unwrap().clone());
    assert_eq!(input, &expected, "every turn's items, in order");
    for item in input.iter().filter(|i| i["type"] == "reasoning") {
        assert!(item["encrypted_content"].is_string());
    }
    assert!(sent.request.notices.is_empty());
    golden!(&sent);
}

/// OpenAI's Chat Completions takes no reasoning back (§2.2): thoughts of an earlier o3 turn
/// (from the Responses API) are not sent, and the user is told since the settings wanted them.
#[test]
fn chat_o3_after_responses_turn_include() {
    let history = responses_history()[..3].to_vec();
    let sent = Case::to("openai/o3")
        .at(Choice::HIGH)
        .api(ApiChoice::Chat)
        .settings(include())
        .history(history)
        .send();
    let sent_back = assistants(&sent.request.body);
    assert_eq!(sent_back[0], &json!({ "role": "assistant", "content": R1 }));
    assert!(sent.has_notice("o3"), "{:?}", sent.request.notices);
    golden!(&sent);
}

// ---------------------------------------------------------------------------------------
// MiniMax (§4.3): the whole assistant message verbatim.

const T_MINIMAX: &str =
    "The user greets me and asks about boiling water; 100 °C at sea level is the standard answer.";

#[test]
fn minimax_think_tags_verbatim() {
    let with_tags = format!("<think>\n{T_MINIMAX}\n</think>\n\n{R1}");
    let tool_tags = format!("<think>\n{T_TOOL}\n</think>\n\nLet me check the forecast.");
    let history = vec![
        user("At what temperature does water boil?"),
        assistant(
            "minimax",
            "MiniMax-M2",
            "MiniMax-M2",
            vec![thought(T_MINIMAX, ThoughtSource::ThinkTag), text(R1)],
            json!({ "role": "assistant", "content": with_tags }),
        ),
        user("What is the weather in Paris?"),
        assistant(
            "minimax",
            "MiniMax-M2",
            "MiniMax-M2",
            vec![
                thought(T_TOOL, ThoughtSource::ThinkTag),
                text("Let me check the forecast."),
                call("call_function_1", "get_weather", "{\"city\":\"Paris\"}"),
            ],
            json!({
                "role": "assistant",
                "content": tool_tags,
                "tool_calls": [{
                    "id": "call_function_1",
                    "type": "function",
                    "function": { "name": "get_weather", "arguments": "{\"city\":\"Paris\"}" }
                }]
            }),
        ),
        user("Also tell me in Celsius."),
    ];
    let sent = Case::to("minimax/MiniMax-M2")
        .at(Choice::Default)
        .history(history)
        .send();
    let sent_back = assistants(&sent.request.body);
    assert_eq!(sent_back[0]["content"], with_tags.as_str());
    assert_eq!(sent_back[1]["content"], tool_tags.as_str());
    assert!(sent_back[1]["tool_calls"].is_array());
    assert!(
        sent.has_notice("MiniMax requires it"),
        "{:?}",
        sent.request.notices
    );
    golden!(&sent);
}

/// With `reasoning_split` the thoughts come in `reasoning_details`, which must go back too.
#[test]
fn minimax_reasoning_details_default() {
    let details = json!([{
        "type": "reasoning.text",
        "id": "reasoning-text-1",
        "format": "MiniMax-response-v1",
        "index": 0,
        "text": T_MINIMAX
    }]);
    let history = vec![
        user("At what temperature does water boil?"),
        assistant(
            "minimax",
            "MiniMax-M2",
            "MiniMax-M2",
            vec![
                thought(T_MINIMAX, ThoughtSource::ReasoningDetails),
                text(R1),
            ],
            json!({ "role": "assistant", "content": R1, "reasoning_details": details }),
        ),
        user("And in Fahrenheit?"),
    ];
    let sent = Case::to("minimax/MiniMax-M2")
        .at(Choice::HIGH)
        .history(history)
        .send();
    assert_eq!(sent.request.body["reasoning_split"], true);
    let sent_back = assistants(&sent.request.body);
    assert_eq!(sent_back[0]["content"], R1);
    assert_eq!(sent_back[0]["reasoning_details"], details);
    assert!(sent.has_notice("MiniMax requires it"));
    golden!(&sent);
}

// ---------------------------------------------------------------------------------------
// OpenRouter (§4.7): `reasoning_details` unchanged.

fn openrouter_history() -> Vec<Message> {
    let turn = |thinking: &str, signature: &str, answer: &str, tool: Option<(&str, &str, &str)>| {
        let mut parts = vec![thought(thinking, ThoughtSource::Reasoning)];
        if !answer.is_empty() {
            parts.push(text(answer));
        }
        let mut content = json!({
            "role": "assistant",
            "content": answer,
            "reasoning_content": thinking,
            "reasoning_details": [{
                "type": "reasoning.text",
                "text": thinking,
                "signature": signature,
                "format": "anthropic-claude-v1",
                "index": 0
            }]
        });
        if let Some((id, name, arguments)) = tool {
            parts.push(call(id, name, arguments));
            content["tool_calls"] = json!([{
                "id": id, "type": "function",
                "function": { "name": name, "arguments": arguments }
            }]);
        }
        assistant(
            "openrouter",
            "anthropic/claude-sonnet-4.5",
            "anthropic/claude-sonnet-4.5",
            parts,
            content,
        )
    };
    vec![
        user("At what temperature does water boil?"),
        turn(T1, SIG_A1, R1, None),
        user("What is the weather in Paris?"),
        turn(
            T_TOOL,
            SIG_A2,
            "",
            Some((
                "toolu_vrtx_01Hv8UuCN2aCp3w1HsJPQvrA",
                "get_weather",
                "{\"city\":\"Paris\"}",
            )),
        ),
        user("Also tell me in Celsius."),
    ]
}

#[test]
fn openrouter_reasoning_details_default() {
    let history = openrouter_history();
    let sent = Case::to("openrouter/anthropic/claude-sonnet-4.5")
        .at(Choice::MEDIUM)
        .history(history.clone())
        .send();
    let sent_back = assistants(&sent.request.body);
    assert!(sent_back[0].get("reasoning_details").is_none());
    assert_eq!(
        sent_back[1]["reasoning_details"],
        history[3].replay.as_ref().unwrap().content["reasoning_details"],
        "a tool-call turn's details go back unchanged"
    );
    assert!(
        sent.has_notice("OpenRouter requires them"),
        "{:?}",
        sent.request.notices
    );
    golden!(&sent);
}

#[test]
fn openrouter_reasoning_details_include() {
    let history = openrouter_history();
    let sent = Case::to("openrouter/anthropic/claude-sonnet-4.5")
        .at(Choice::MEDIUM)
        .settings(include())
        .history(history.clone())
        .send();
    let sent_back = assistants(&sent.request.body);
    for (message, turn) in sent_back.iter().zip([&history[1], &history[3]]) {
        assert_eq!(
            message["reasoning_details"],
            turn.replay.as_ref().unwrap().content["reasoning_details"]
        );
    }
    assert!(sent.request.notices.is_empty());
    golden!(&sent);
}

// ---------------------------------------------------------------------------------------
// Ollama (§5.1): `thinking` on assistant messages.

#[test]
fn ollama_qwen3_after_thinking_include() {
    let history = vec![
        user("At what temperature does water boil?"),
        assistant(
            "ollama",
            "qwen3",
            "qwen3",
            vec![thought(T1, ThoughtSource::Reasoning), text(R1)],
            json!({ "role": "assistant", "content": R1, "thinking": T1 }),
        ),
        user("And in Fahrenheit?"),
    ];
    let sent = Case::to("ollama/qwen3")
        .at(Choice::HIGH)
        .settings(include())
        .history(history)
        .send();
    assert_eq!(
        assistants(&sent.request.body)[0],
        &json!({ "role": "assistant", "content": R1, "thinking": T1 })
    );
    golden!(&sent);
}

// ---------------------------------------------------------------------------------------
// The strip/include examples at the request level.

fn deepseek_seed(strip: StripFromContext, include_in_context: bool) -> Sent {
    Case::to("deepseek/deepseek-v4-pro")
        .at(Choice::HIGH)
        .settings(settings(strip, include_in_context))
        .history(seed_history(|t, r, _| deepseek_v4(t, r, None)))
        .send()
}

fn deepseek_thoughts_sent(sent: &Sent) -> Vec<String> {
    assistants(&sent.request.body)
        .iter()
        .filter_map(|m| m.get("reasoning_content"))
        .map(|v| v.as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn seed001_deepseek_v4_all_but_last_include() {
    let sent = deepseek_seed(StripFromContext::AllButLast, true);
    assert_eq!(deepseek_thoughts_sent(&sent), [T3]);
    golden!(&sent);
}

#[test]
fn seed001_deepseek_v4_all_but_last_exclude() {
    let sent = deepseek_seed(StripFromContext::AllButLast, false);
    assert!(deepseek_thoughts_sent(&sent).is_empty());
    golden!(&sent);
}

#[test]
fn seed001_deepseek_v4_none_include() {
    let sent = deepseek_seed(StripFromContext::None, true);
    assert_eq!(deepseek_thoughts_sent(&sent), [T1, T2, T3]);
    golden!(&sent);
}

fn anthropic_seed(strip: StripFromContext, include_in_context: bool) -> Sent {
    Case::to("anthropic/claude-sonnet-4-5")
        .at(Choice::MEDIUM)
        .settings(settings(strip, include_in_context))
        .history(anthropic_seed_history())
        .send()
}

fn anthropic_thoughts_sent(sent: &Sent) -> Vec<String> {
    assistants(&sent.request.body)
        .iter()
        .flat_map(|m| m["content"].as_array().unwrap().iter())
        .filter(|b| b["type"] == "thinking")
        .map(|b| b["thinking"].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn seed001_anthropic_all_but_last_include() {
    let sent = anthropic_seed(StripFromContext::AllButLast, true);
    assert_eq!(anthropic_thoughts_sent(&sent), [T3]);
    golden!(&sent);
}

#[test]
fn seed001_anthropic_all_but_last_exclude() {
    let sent = anthropic_seed(StripFromContext::AllButLast, false);
    assert!(anthropic_thoughts_sent(&sent).is_empty());
    golden!(&sent);
}

#[test]
fn seed001_anthropic_none_include() {
    let sent = anthropic_seed(StripFromContext::None, true);
    assert_eq!(anthropic_thoughts_sent(&sent), [T1, T2, T3]);
    golden!(&sent);
}

#[test]
fn responses_reasoning_items_without_encrypted_content_are_not_replayed() {
    let items = json!({"items": [
        {"type": "reasoning", "id": "rs_kept", "summary": [], "encrypted_content": "gAAAA-kept"},
        {"type": "reasoning", "id": "rs_dropped", "summary": []},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Paris."}]}
    ]});
    let turn = assistant(
        "openai",
        "o3",
        "o3",
        vec![thought("", ThoughtSource::Summary), text("Paris.")],
        items,
    );
    let sent = Case::to("openai/o3")
        .at(Choice::HIGH)
        .settings(include())
        .history(vec![user("Capital of France?"), turn, user("And Italy?")])
        .send();
    let body = serde_json::to_string(&sent.request.body).unwrap();
    assert!(body.contains("rs_kept"), "{body}");
    assert!(
        !body.contains("rs_dropped"),
        "a 404 under store: false: {body}"
    );
}

#[test]
fn ollama_leaves_out_reasoning_a_model_does_not_take_back() {
    let turn = |model: &str| Message {
        role: Role::Assistant,
        parts: vec![
            thought("counting the rs", ThoughtSource::Reasoning),
            text("Three."),
        ],
        origin: Some(Origin {
            provider: "ollama".into(),
            model: model.into(),
        }),
        replay: None,
    };
    let r1 = Case::to("ollama/deepseek-r1")
        .at(Choice::HIGH)
        .settings(include())
        .history(vec![
            user("How many r?"),
            turn("deepseek-r1"),
            user("Sure?"),
        ])
        .send();
    assert!(
        !serde_json::to_string(&r1.request.body)
            .unwrap()
            .contains("counting the rs")
    );
    assert!(r1.has_notice("does not take earlier reasoning back"));
    let qwen = Case::to("ollama/qwen3")
        .at(Choice::HIGH)
        .settings(include())
        .history(vec![user("How many r?"), turn("qwen3"), user("Sure?")])
        .send();
    assert_eq!(
        qwen.request.body["messages"][2]["thinking"],
        "counting the rs"
    );
}

// ---------------------------------------------------------------------------------------
// Attachments: a photo of a whiteboard, a PDF and a text file with a question, in each
// protocol's own form, after the files and before the words.

/// The question with its files, their data read from a store as a request reads it.
fn with_files() -> Vec<Message> {
    use ponder_core::attachments::AttachmentStore;
    let dir = tempfile::tempdir().unwrap();
    let store = AttachmentStore::at(dir.path());
    let fixtures = ponder_tests::workspace_root().join("tests/fixtures/attachments");
    let mut question = user("What do these say about boiling water?");
    for name in ["whiteboard.png", "boiling-points.pdf", "notes.md"] {
        let stored = store.put_file(&fixtures.join(name), name).unwrap();
        let mut file = stored.attachment(name);
        file.data = store.data(&file);
        assert!(file.data.is_some(), "{name} is read back");
        question
            .parts
            .insert(question.parts.len() - 1, Part::Attachment(file));
    }
    vec![question]
}

/// The user's words come after the files, and nothing was left out.
fn words_last(sent: &Sent, content: &Value, text_of: impl Fn(&Value) -> Option<&str>) {
    let blocks = content.as_array().expect("content blocks");
    assert_eq!(
        blocks.last().and_then(&text_of),
        Some("What do these say about boiling water?")
    );
    assert!(
        sent.request.notices.is_empty(),
        "{:?}",
        sent.request.notices
    );
}

#[test]
fn attachments_anthropic() {
    let sent = Case::to("anthropic/claude-sonnet-4-5")
        .at(Choice::MEDIUM)
        .history(with_files())
        .send();
    let content = &sent.request.body["messages"][0]["content"];
    assert_eq!(content[0]["type"], "image");
    assert_eq!(content[0]["source"]["media_type"], "image/png");
    assert_eq!(content[1]["type"], "document");
    assert_eq!(content[1]["source"]["media_type"], "application/pdf");
    assert_eq!(content[1]["title"], "boiling-points.pdf");
    assert!(
        content[2]["text"]
            .as_str()
            .unwrap()
            .contains("Water boils at 100 °C")
    );
    words_last(&sent, content, |b| b["text"].as_str());
    golden!(&sent);
}

#[test]
fn attachments_chat() {
    let sent = Case::to("openai/o3")
        .at(Choice::HIGH)
        .api(ApiChoice::Chat)
        .history(with_files())
        .send();
    let content = &sent.request.body["messages"][1]["content"];
    assert_eq!(content[0]["type"], "image_url");
    assert!(
        content[0]["image_url"]["url"]
            .as_str()
            .unwrap()
            .starts_with("data:image/png;base64,iVBORw0KGgo")
    );
    assert_eq!(content[1]["type"], "file");
    assert_eq!(content[1]["file"]["filename"], "boiling-points.pdf");
    assert!(
        content[1]["file"]["file_data"]
            .as_str()
            .unwrap()
            .starts_with("data:application/pdf;base64,JVBERi0")
    );
    words_last(&sent, content, |b| b["text"].as_str());
    golden!(&sent);
}

#[test]
fn attachments_responses() {
    let sent = Case::to("openai/o3")
        .at(Choice::HIGH)
        .history(with_files())
        .send();
    let content = &sent.request.body["input"][0]["content"];
    assert_eq!(sent.request.body["input"][0]["role"], "user");
    assert_eq!(content[0]["type"], "input_image");
    assert_eq!(content[1]["type"], "input_file");
    assert_eq!(content[2]["type"], "input_text");
    words_last(&sent, content, |b| b["text"].as_str());
    golden!(&sent);
}

#[test]
fn attachments_gemini() {
    let sent = Case::to("google/gemini-2.5-pro")
        .at(Choice::HIGH)
        .history(with_files())
        .send();
    let parts = &sent.request.body["contents"][0]["parts"];
    assert_eq!(parts[0]["inlineData"]["mimeType"], "image/png");
    assert_eq!(parts[1]["inlineData"]["mimeType"], "application/pdf");
    words_last(&sent, parts, |p| p["text"].as_str());
    golden!(&sent);
}

#[test]
fn attachments_ollama() {
    let sent = Case::to("ollama/qwen3")
        .at(Choice::HIGH)
        .history(with_files())
        .send();
    let message = &sent.request.body["messages"][1];
    assert_eq!(message["images"].as_array().unwrap().len(), 1);
    let content = message["content"].as_str().unwrap();
    assert!(
        content.starts_with("The attached file notes.md:"),
        "{content}"
    );
    assert!(
        content.ends_with("What do these say about boiling water?"),
        "{content}"
    );
    assert_eq!(
        sent.request.notices,
        ["Ollama's chat takes no PDFs, so boiling-points.pdf was not sent"]
    );
    golden!(&sent);
}

#[test]
fn an_attachment_whose_file_is_gone_is_named_and_not_sent() {
    let mut history = with_files();
    for part in &mut history[0].parts {
        if let Part::Attachment(file) = part {
            file.data = None;
        }
    }
    let sent = Case::to("anthropic/claude-sonnet-4-5")
        .at(Choice::MEDIUM)
        .history(history)
        .send();
    let content = &sent.request.body["messages"][0]["content"];
    assert_eq!(content.as_array().unwrap().len(), 1, "only the words");
    assert_eq!(sent.request.notices.len(), 3);
    assert_eq!(
        sent.request.notices[0],
        "whiteboard.png is no longer in Ponder's files, so it was not sent"
    );
}
