//! Requests inside a tool loop: the tools offered, the step that called one and the tool's
//! result, in each protocol's own form — with the reasoning each protocol needs back on the
//! step that called (a signed thinking block, `reasoning_content`, an encrypted reasoning item,
//! a `thoughtSignature` on its part) and none where the turn came from another provider.
//! Besides the pairs pinned exactly here, every step is continued on every protocol under
//! the conformance rules `Case::send` checks.

use ponder_core::chat::{Message, Part, ThoughtSource, ToolSpec};
use ponder_core::reasoning::{ApiChoice, Choice};
use serde_json::{Value, json};

use crate::case::{
    Case, TOOL_RESULT, assistant, call, defaults, include, result_of, thought, user,
};
use crate::conformance::foreign_secrets;

const QUESTION: &str = "What is the weather in Paris?";
const THOUGHT: &str = "Only the get_weather tool knows today's forecast for Paris.";
const ARGS: &str = "{\"city\":\"Paris\"}";

fn weather_tool() -> ToolSpec {
    ToolSpec {
        name: "get_weather".into(),
        description: "Today's weather for a city".into(),
        input_schema: json!({
            "type": "object",
            "properties": { "city": { "type": "string" } },
            "required": ["city"],
            "additionalProperties": false,
            "$schema": "http://json-schema.org/draft-07/schema#"
        }),
    }
}

/// A request from inside the loop: the tool offered, and no system prompt, so each
/// protocol's messages start with the user's question.
fn in_loop(model: &str) -> Case {
    Case::to(model)
        .at(Choice::HIGH)
        .tools(vec![weather_tool()])
        .without_system()
}

/// The step that called the tool, as `provider`/`model` wrote it (`replay` is its native form).
fn step(
    provider: &str,
    model: &str,
    call_id: &str,
    source: ThoughtSource,
    replay: Value,
) -> Message {
    assistant(
        provider,
        model,
        model,
        vec![thought(THOUGHT, source), call(call_id, "get_weather", ARGS)],
        replay,
    )
}

fn result(call_id: &str, is_error: bool) -> Message {
    Message::tool(vec![result_of(call_id, "get_weather", is_error)])
}

const ANTHROPIC_SIG: &str = "EqQBCkYIBxgCKkDq1ZbJ0n9v5cWxhGm8-tool-step-signature==";

fn anthropic_step() -> Message {
    step(
        "anthropic",
        "claude-sonnet-4-5",
        "toolu_01A09q90qw90lq917835lq9",
        ThoughtSource::Thinking,
        json!({ "role": "assistant", "content": [
            { "type": "thinking", "thinking": THOUGHT, "signature": ANTHROPIC_SIG },
            { "type": "tool_use", "id": "toolu_01A09q90qw90lq917835lq9", "name": "get_weather", "input": { "city": "Paris" } }
        ]}),
    )
}

const GEMINI_SIG: &str = "CiQB0e2Kb3dRh+tool-step-thought-signature==";

fn gemini_step() -> Message {
    step(
        "google",
        "gemini-3-pro-preview",
        "ponder-call-1",
        ThoughtSource::Thought,
        json!({ "role": "model", "parts": [
            { "text": THOUGHT, "thought": true },
            { "functionCall": { "name": "get_weather", "args": { "city": "Paris" } }, "thoughtSignature": GEMINI_SIG }
        ]}),
    )
}

const ENCRYPTED: &str = "gAAAAABo-encrypted-reasoning-of-the-tool-step";

fn responses_step() -> Message {
    step(
        "openai",
        "o3",
        "call_weather_1",
        ThoughtSource::Summary,
        json!({ "items": [
            { "type": "reasoning", "id": "rs_1", "summary": [{ "type": "summary_text", "text": THOUGHT }], "encrypted_content": ENCRYPTED },
            { "type": "function_call", "id": "fc_1", "call_id": "call_weather_1", "name": "get_weather", "arguments": ARGS }
        ]}),
    )
}

/// Vendor data a call came with (Gemini's OpenAI-compatible endpoint signs calls this way).
const CALL_EXTRA_SIG: &str = "Cs4BAdHtim9-chat-call-thought-signature";

fn chat_step(provider: &str, model: &str) -> Message {
    step(
        provider,
        model,
        "call_00_weather",
        ThoughtSource::ReasoningContent,
        json!({
            "role": "assistant", "content": "", "reasoning_content": THOUGHT,
            "tool_calls": [{
                "id": "call_00_weather", "type": "function", "function": { "name": "get_weather", "arguments": ARGS },
                "extra_content": { "google": { "thought_signature": CALL_EXTRA_SIG } }
            }]
        }),
    )
}

fn ollama_step() -> Message {
    step(
        "ollama",
        "qwen3",
        "call_1",
        ThoughtSource::Reasoning,
        json!({
            "role": "assistant", "content": "", "thinking": THOUGHT,
            "tool_calls": [{ "function": { "name": "get_weather", "arguments": { "city": "Paris" } } }]
        }),
    )
}

fn loop_history(step: Message, call_id: &str) -> Vec<Message> {
    vec![user(QUESTION), step, result(call_id, false)]
}

// ---- each protocol with its own step ----

#[test]
fn anthropic_sends_the_signed_step_and_the_result_in_a_user_turn() {
    let body = in_loop("anthropic/claude-sonnet-4-5")
        .history(loop_history(
            anthropic_step(),
            "toolu_01A09q90qw90lq917835lq9",
        ))
        .send()
        .request
        .body;
    assert_eq!(
        body["tools"],
        json!([{ "name": "get_weather", "description": "Today's weather for a city", "input_schema": weather_tool().input_schema }])
    );
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 3);
    assert_eq!(
        messages[1]["content"][0],
        json!({ "type": "thinking", "thinking": THOUGHT, "signature": ANTHROPIC_SIG }),
        "the thinking block goes back unchanged, even though the settings keep no thoughts"
    );
    assert_eq!(messages[1]["content"][1]["type"], "tool_use");
    assert_eq!(
        messages[2],
        json!({ "role": "user", "content": [{
            "type": "tool_result", "tool_use_id": "toolu_01A09q90qw90lq917835lq9",
            "content": [{ "type": "text", "text": TOOL_RESULT }]
        }]})
    );
}

#[test]
fn responses_sends_the_encrypted_reasoning_item_then_the_call_then_its_output() {
    let body = in_loop("openai/o3")
        .api(ApiChoice::Responses)
        .history(loop_history(responses_step(), "call_weather_1"))
        .send()
        .request
        .body;
    assert_eq!(body["tools"][0]["type"], "function");
    assert_eq!(body["tools"][0]["name"], "get_weather");
    assert_eq!(body["tools"][0]["parameters"], weather_tool().input_schema);
    assert_eq!(body["include"], json!(["reasoning.encrypted_content"]));
    assert_eq!(body["store"], false);
    let input = body["input"].as_array().unwrap();
    let kinds: Vec<&str> = input
        .iter()
        .map(|i| i["type"].as_str().or(i["role"].as_str()).unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["user", "reasoning", "function_call", "function_call_output"]
    );
    assert_eq!(input[1]["encrypted_content"], ENCRYPTED);
    assert_eq!(
        input[3],
        json!({ "type": "function_call_output", "call_id": "call_weather_1", "output": TOOL_RESULT })
    );
}

#[test]
fn gemini_keeps_the_signature_on_the_call_part_and_answers_by_name() {
    let body = in_loop("google/gemini-3-pro-preview")
        .history(loop_history(gemini_step(), "ponder-call-1"))
        .send()
        .request
        .body;
    assert_eq!(
        body["tools"],
        json!([{ "functionDeclarations": [{
            "name": "get_weather", "description": "Today's weather for a city",
            "parametersJsonSchema": weather_tool().input_schema
        }]}])
    );
    let contents = body["contents"].as_array().unwrap();
    assert_eq!(
        contents[1]["parts"],
        json!([{ "functionCall": { "name": "get_weather", "args": { "city": "Paris" } }, "thoughtSignature": GEMINI_SIG }]),
        "the signed call part goes back exactly; the unsigned thought summary does not"
    );
    assert_eq!(
        contents[2],
        json!({ "role": "user", "parts": [{ "functionResponse": {
            "name": "get_weather", "response": { "output": TOOL_RESULT }
        }}]}),
        "an id Ponder made up for an id-less call is not sent"
    );
}

/// (provider, model) of the OpenAI-compatible vendors whose rule is "reasoning_content
/// back on tool-call steps", and of the ones whose reasoning never goes back.
const CHAT_VENDORS: &[(&str, &str, bool)] = &[
    ("deepseek", "deepseek-v4-pro", true),
    // DeepSeek's thinking mode behind the reasoner alias answers 400 without it (V3.2 on).
    ("deepseek", "deepseek-reasoner", true),
    ("deepseek", "deepseek-v3.2", true),
    // A derived rule: LiteLLM says it reasons, DeepSeek's dialect says how.
    ("deepseek", "deepseek-flash", true),
    ("deepseek", "deepseek-r1", false),
    ("moonshot", "kimi-k2.5", true),
    ("moonshot", "kimi-k3", true),
    ("zai", "glm-5", true),
    ("zai", "glm-5v-turbo", true),
    // Qwen's docs make sending it back optional: not sent unless the settings ask.
    ("qwen", "qwen3-max", false),
    ("openai", "o3", false),
];

#[test]
fn chat_completions_vendors_get_the_calls_the_results_and_reasoning_per_their_rule() {
    for &(provider, model, wants_reasoning) in CHAT_VENDORS {
        let body = in_loop(&format!("{provider}/{model}"))
            .api(ApiChoice::Chat)
            .history(loop_history(chat_step(provider, model), "call_00_weather"))
            .send()
            .request
            .body;
        let at = format!("{provider}/{model}");
        assert_eq!(body["tools"][0]["type"], "function", "{at}");
        assert_eq!(body["tools"][0]["function"]["name"], "get_weather", "{at}");
        assert_eq!(
            body["tools"][0]["function"]["parameters"],
            weather_tool().input_schema,
            "{at}"
        );
        let messages = body["messages"].as_array().unwrap();
        let assistant = &messages[1];
        assert_eq!(assistant["tool_calls"][0]["id"], "call_00_weather", "{at}");
        assert_eq!(
            assistant["tool_calls"][0]["function"]["arguments"], ARGS,
            "{at}"
        );
        assert_eq!(
            assistant["tool_calls"][0]["extra_content"]["google"]["thought_signature"],
            CALL_EXTRA_SIG,
            "{at}: what the vendor put on the call goes back on it"
        );
        if wants_reasoning {
            assert_eq!(assistant["reasoning_content"], THOUGHT, "{at}");
        } else {
            assert!(assistant.get("reasoning_content").is_none(), "{at}");
        }
        assert_eq!(
            messages[2],
            json!({ "role": "tool", "content": TOOL_RESULT, "tool_call_id": "call_00_weather" }),
            "{at}"
        );
    }
}

#[test]
fn ollama_gets_calls_with_object_arguments_and_tool_messages_by_name() {
    let body = in_loop("ollama/qwen3")
        .history(loop_history(ollama_step(), "call_1"))
        .send()
        .request
        .body;
    assert_eq!(body["tools"][0]["function"]["name"], "get_weather");
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(
        messages[1]["tool_calls"],
        json!([{ "function": { "name": "get_weather", "arguments": { "city": "Paris" } } }])
    );
    assert_eq!(
        messages[2],
        json!({ "role": "tool", "content": TOOL_RESULT, "tool_name": "get_weather" })
    );
}

// ---- a step written by one provider, continued on another ----

#[test]
fn a_foreign_step_goes_over_as_plain_calls_without_its_signatures() {
    // (model, api) the loop continues on, after Claude's signed step; that its signature
    // stays behind is the conformance rule every send checks.
    let targets: &[(&str, Option<ApiChoice>)] = &[
        ("google/gemini-3-pro-preview", None),
        ("openai/o3", Some(ApiChoice::Responses)),
        ("deepseek/deepseek-v4-pro", Some(ApiChoice::Chat)),
        ("ollama/qwen3", None),
    ];
    let call_id = "toolu_01A09q90qw90lq917835lq9";
    for &(at, api) in targets {
        let text = in_loop(at)
            .api(api)
            .history(loop_history(anthropic_step(), call_id))
            .send()
            .request
            .body
            .to_string();
        assert!(!text.contains(THOUGHT), "{at}: foreign thoughts were sent");
        assert!(text.contains("get_weather"), "{at}: the call is there");
        assert!(text.contains(TOOL_RESULT), "{at}: the result is there");
    }
    let gemini = in_loop("google/gemini-3-pro-preview")
        .history(loop_history(anthropic_step(), call_id))
        .send()
        .request
        .body;
    assert_eq!(
        gemini["contents"][1]["parts"],
        json!([{
            "functionCall": { "name": "get_weather", "args": { "city": "Paris" }, "id": call_id },
            "thoughtSignature": "skip_thought_signature_validator"
        }]),
        "a call Gemini did not sign carries the documented stand-in"
    );
    let responses = in_loop("openai/o3")
        .api(ApiChoice::Responses)
        .history(loop_history(anthropic_step(), call_id))
        .send()
        .request
        .body;
    assert_eq!(
        responses["input"][1],
        json!({ "type": "function_call", "call_id": call_id, "name": "get_weather", "arguments": ARGS })
    );
}

#[test]
fn ids_other_providers_made_become_ids_anthropic_accepts_on_both_ends() {
    let body = in_loop("anthropic/claude-sonnet-4-5")
        .history(loop_history(gemini_step(), "ponder-call-1"))
        .send()
        .request
        .body;
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(
        messages[1]["content"],
        json!([{ "type": "tool_use", "id": "ponder-call-1", "name": "get_weather", "input": { "city": "Paris" } }])
    );
    assert_eq!(messages[2]["content"][0]["tool_use_id"], "ponder-call-1");

    let odd = "functions.get_weather:0";
    let mut step = chat_step("moonshot", "kimi-k2.5");
    if let Part::ToolCall(call) = &mut step.parts[1] {
        call.id = odd.into();
    }
    let body = in_loop("anthropic/claude-sonnet-4-5")
        .history(loop_history(step, odd))
        .send()
        .request
        .body;
    let messages = body["messages"].as_array().unwrap();
    let id = messages[1]["content"][0]["id"].as_str().unwrap();
    assert!(
        id.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'),
        "{id}"
    );
    assert_eq!(messages[2]["content"][0]["tool_use_id"], id);
}

#[test]
fn an_error_result_is_marked_as_one() {
    let history = vec![
        user(QUESTION),
        anthropic_step(),
        result("toolu_01A09q90qw90lq917835lq9", true),
    ];
    let body = in_loop("anthropic/claude-sonnet-4-5")
        .history(history)
        .send()
        .request
        .body;
    assert_eq!(body["messages"][2]["content"][0]["is_error"], true);
    let history = vec![user(QUESTION), gemini_step(), result("ponder-call-1", true)];
    let body = in_loop("google/gemini-3-pro-preview")
        .history(history)
        .send()
        .request
        .body;
    assert_eq!(
        body["contents"][2]["parts"][0]["functionResponse"]["response"],
        json!({ "error": TOOL_RESULT })
    );
}

#[test]
fn a_loop_of_several_steps_keeps_every_steps_thinking_for_anthropic() {
    let second = {
        let mut s = anthropic_step();
        s.replay.as_mut().unwrap().content["content"][1]["id"] = json!("toolu_second");
        if let Part::ToolCall(call) = &mut s.parts[1] {
            call.id = "toolu_second".into();
        }
        s
    };
    let history = vec![
        user(QUESTION),
        anthropic_step(),
        result("toolu_01A09q90qw90lq917835lq9", false),
        second,
        result("toolu_second", false),
    ];
    let body = in_loop("anthropic/claude-sonnet-4-5")
        .history(history)
        .send()
        .request
        .body;
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 5);
    for at in [1, 3] {
        assert_eq!(
            messages[at]["content"][0]["type"], "thinking",
            "step at {at} keeps its signed thinking"
        );
    }
}

#[test]
fn no_tools_means_no_tools_field() {
    let body = Case::to("anthropic/claude-sonnet-4-5")
        .at(Choice::HIGH)
        .without_system()
        .history(vec![user(QUESTION)])
        .send()
        .request
        .body;
    assert!(body.get("tools").is_none());
}

// ---- every step, continued on every protocol ----

const COPILOT_OPAQUE: &str = "copilot-opaque-signature-of-the-tool-step";
const OPENROUTER_SIG: &str = "EqQBCkYIBxgCKkA-openrouter-tool-step-signature==";

/// Copilot signs the step's reasoning with `reasoning_opaque`.
fn copilot_step() -> Message {
    let mut step = chat_step("copilot", "gemini-3.8-flash");
    step.replay.as_mut().unwrap().content["reasoning_opaque"] = json!(COPILOT_OPAQUE);
    step
}

/// OpenRouter relays Claude's signature inside `reasoning_details`.
fn openrouter_step() -> Message {
    let mut step = chat_step("openrouter", "anthropic/claude-sonnet-4.5");
    step.replay.as_mut().unwrap().content["reasoning_details"] = json!([{
        "type": "reasoning.text", "text": THOUGHT, "signature": OPENROUTER_SIG,
        "format": "anthropic-claude-v1", "index": 0
    }]);
    step
}

/// The conformance rules hold whichever protocol wrote the step and whichever continues
/// the loop, whether the settings keep thoughts or not; the cases above pin a few of these
/// pairs exactly, this walks them all.
#[test]
fn every_step_continued_on_every_protocol_keeps_the_conformance_rules() {
    let steps = [
        (anthropic_step(), "toolu_01A09q90qw90lq917835lq9"),
        (gemini_step(), "ponder-call-1"),
        (responses_step(), "call_weather_1"),
        (chat_step("deepseek", "deepseek-v4-pro"), "call_00_weather"),
        (copilot_step(), "call_00_weather"),
        (openrouter_step(), "call_00_weather"),
        (ollama_step(), "call_1"),
    ];
    // One model of each replay rule, on each of the five protocols.
    let targets: &[(&str, Option<ApiChoice>)] = &[
        ("anthropic/claude-sonnet-4-5", None),
        ("openai/o3", Some(ApiChoice::Responses)),
        ("openai/o3", Some(ApiChoice::Chat)),
        ("deepseek/deepseek-v4-pro", None),
        ("deepseek/deepseek-r1", None),
        ("moonshot/kimi-k2.5", None),
        ("openrouter/anthropic/claude-sonnet-4.5", None),
        ("copilot/gemini-3.8-flash", None),
        ("minimax/MiniMax-M2", None),
        ("qwen/qwen3-max", None),
        ("google/gemini-3-pro-preview", None),
        ("ollama/qwen3", None),
    ];
    for (step, call_id) in &steps {
        let origin = step.origin.as_ref().unwrap();
        let from = format!("{}/{}", origin.provider, origin.model);
        for &(to, api) in targets {
            for settings in [defaults(), include()] {
                let sent = in_loop(to)
                    .api(api)
                    .settings(settings)
                    .history(loop_history(step.clone(), call_id))
                    .send();
                let signed = !matches!(origin.provider.as_str(), "ollama");
                if signed && from != to {
                    assert!(
                        !foreign_secrets(&sent).is_empty(),
                        "{from} to {to}: the rule had no signature to look for"
                    );
                }
            }
        }
    }
}

/// A question with a screenshot, in a tool loop: the file stays with the question in every
/// step's request, before its words, and the step's signed reasoning goes back unchanged
/// beside it (users report signature errors where reasoning meets files).
#[test]
fn a_question_with_a_file_keeps_it_through_the_loop_and_the_signed_step_goes_back_unchanged() {
    use ponder_core::attachments::{Kind, sha256_hex};
    use ponder_core::chat::{Attachment, Payload};
    let png = std::fs::read(
        ponder_tests::workspace_root().join("tests/fixtures/attachments/whiteboard.png"),
    )
    .unwrap();
    let mut question = user(QUESTION);
    question.parts.insert(
        0,
        Part::Attachment(Attachment {
            sha256: sha256_hex(&png),
            kind: Kind::Png,
            name: "forecast.png".into(),
            bytes: png.len() as u64,
            pages: None,
            pixels: Some((320, 200)),
            data: Some(Payload::Bytes(png.into())),
        }),
    );
    let with_file =
        |step: Message, call_id: &str| vec![question.clone(), step, result(call_id, false)];

    let body = in_loop("anthropic/claude-sonnet-4-5")
        .history(with_file(anthropic_step(), "toolu_01A09q90qw90lq917835lq9"))
        .send()
        .request
        .body;
    let messages = body["messages"].as_array().unwrap();
    assert_eq!(messages[0]["content"][0]["type"], "image");
    assert_eq!(messages[0]["content"][1]["text"], QUESTION);
    assert_eq!(
        messages[1]["content"][0],
        json!({ "type": "thinking", "thinking": THOUGHT, "signature": ANTHROPIC_SIG })
    );

    let body = in_loop("google/gemini-3-pro-preview")
        .history(with_file(gemini_step(), "ponder-call-1"))
        .send()
        .request
        .body;
    let contents = body["contents"].as_array().unwrap();
    assert_eq!(
        contents[0]["parts"][0]["inlineData"]["mimeType"],
        "image/png"
    );
    assert_eq!(contents[1]["parts"][0]["thoughtSignature"], GEMINI_SIG);

    let body = in_loop("openai/o3")
        .history(with_file(responses_step(), "call_weather_1"))
        .send()
        .request
        .body;
    let input = body["input"].as_array().unwrap();
    assert_eq!(input[0]["content"][0]["type"], "input_image");
    assert!(
        input
            .iter()
            .any(|i| i["type"] == "reasoning" && i["encrypted_content"] == ENCRYPTED),
        "{input:?}"
    );
}
