//! The tool loop end to end over loopback: the mock provider replays a real recorded
//! tool-call answer, Ponder runs the call on the real "everything" MCP server, sends the
//! result back, and the mock replays a real final answer. The test then reads the second
//! request and fails if what the protocol needs back from the first answer (a signature,
//! `reasoning_content`, an encrypted reasoning item, a `thoughtSignature`) is missing or
//! altered.
//!
//! Recordings that exist only as whole JSON responses are replayed as the stream the API
//! would have sent for them (`ponder_tests::framed`).

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::time::Duration;

use ponder_core::catalog::Protocol;
use ponder_core::catalog::{Catalog, CustomProvider, ModelInfo};
use ponder_core::chat::{Part, Role, ToolCall, ToolResult, ToolSpec};
use ponder_core::mcp::{Hub, ServerConfig};
use ponder_core::providers::http::{self, HttpConfig};
use ponder_core::reasoning::{ApiChoice, Choice, Overrides, ReasoningSettings};
use ponder_core::run::{
    Outcome, Question, RecordOptions, RecordedEvent, Runner, TurnRequest, run_recorded_with_tools,
};
use ponder_core::store::{NewConversation, Store};
use ponder_core::tools::ToolHost;
use ponder_mock_provider::{MockProvider, Reply};
use ponder_tests::framed::{
    anthropic_stream, chat_stream, converse_as_chat, deepseek_calling, real,
};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

const FAKE_KEY: &str = "FAKE-key-not-real-7d2a91";

/// A recorded stream's JSON payloads.
fn stream_payloads(path: &str) -> Vec<Value> {
    let path = ponder_tests::recordings::real_dir().join(path);
    let bytes = ponder_tests::recordings::wire_bytes(&path);
    String::from_utf8(bytes)
        .unwrap()
        .replace("\r\n", "\n")
        .split("\n\n")
        .filter_map(|event| {
            let data: String = event
                .lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .map(str::trim_start)
                .collect();
            serde_json::from_str(&data).ok()
        })
        .collect()
}

/// Every call goes to the real everything server's `echo`, with the call's arguments as
/// the message: what matters here is what goes back to the provider.
struct EchoTools<'a> {
    hub: &'a Hub,
    names: Vec<String>,
    /// When set, no call may go on until this many calls are running at once: calls run one
    /// after another never get past it, and time out with an error result instead.
    together: Option<tokio::sync::Barrier>,
}

impl ToolHost for EchoTools<'_> {
    fn specs(&self) -> Vec<ToolSpec> {
        self.names
            .iter()
            .map(|name| ToolSpec {
                name: name.clone(),
                description: format!("{name}, answered by the everything server's echo"),
                input_schema: json!({ "type": "object" }),
            })
            .collect()
    }

    fn server_of(&self, _: &str) -> Option<String> {
        Some("everything".into())
    }

    fn run<'a>(
        &'a self,
        call: &'a ToolCall,
    ) -> Pin<Box<dyn Future<Output = ToolResult> + Send + 'a>> {
        Box::pin(async move {
            if let Some(together) = &self.together
                && tokio::time::timeout(Duration::from_secs(10), together.wait())
                    .await
                    .is_err()
            {
                return ToolResult::error(call, "the calls of the step did not run at once");
            }
            let mut arguments = serde_json::Map::new();
            arguments.insert("message".into(), json!(call.arguments));
            match self
                .hub
                .call("everything", "echo", arguments, Duration::from_secs(30))
                .await
            {
                Ok(out) => ToolResult {
                    call_id: call.id.clone(),
                    name: call.name.clone(),
                    content: out.content,
                    is_error: out.is_error,
                    duration_ms: None,
                },
                Err(e) => ToolResult::error(call, e.to_string()),
            }
        })
    }
}

async fn everything_hub() -> Hub {
    let hub = Hub::new(
        std::sync::Arc::new(|_| Ok(BTreeMap::new())),
        Duration::from_secs(30),
    );
    hub.configure(&[ServerConfig {
        name: "Everything".into(),
        ..ponder_tests::mcp::everything()
    }])
    .await;
    hub
}

struct Loop {
    requests: Vec<Value>,
    outcome: Outcome,
    roles: Vec<Role>,
    results: Vec<ToolResult>,
    /// The stored thought of each assistant message that has one.
    thoughts: Vec<String>,
    events: Vec<String>,
}

/// Runs one question with tools through the mock provider's two replies.
async fn run_loop(
    model: &ModelInfo,
    api: Option<ApiChoice>,
    first: Reply,
    second: Reply,
    tool_names: &[&str],
) -> Loop {
    run_steps(model, api, vec![first, second], tool_names, 0).await
}

/// Runs one question with tools through the mock provider's replies, one per model step.
/// `together`: the calls that must be running at once before any of them may finish.
async fn run_steps(
    model: &ModelInfo,
    api: Option<ApiChoice>,
    replies: Vec<Reply>,
    tool_names: &[&str],
    together: usize,
) -> Loop {
    let mock = MockProvider::start().await.unwrap();
    for reply in replies {
        mock.push(reply);
    }
    let hub = everything_hub().await;
    let tools = EchoTools {
        hub: &hub,
        names: tool_names.iter().map(|n| (*n).to_owned()).collect(),
        together: (together > 1).then(|| tokio::sync::Barrier::new(together)),
    };
    let store = Store::open_in_memory().unwrap();
    let conversation = store
        .create_conversation(NewConversation {
            title: "Tools".into(),
            provider: Some(model.provider.id.clone()),
            model: Some(model.id.clone()),
            settings: ReasoningSettings::default(),
        })
        .unwrap()
        .id;
    let config = HttpConfig {
        idle_timeout: Duration::from_secs(5),
        ..HttpConfig::default()
    };
    let client = http::client(&config).unwrap();
    let overrides = Overrides::default();
    let settings = ReasoningSettings::default();
    let url = mock.url();
    let request = TurnRequest {
        model,
        choice: Choice::HIGH,
        overrides: &overrides,
        settings: &settings,
        system: None,
        history: &[],
        base_url: Some(&url),
        api,
        api_key: Some(FAKE_KEY),
        context_tokens: 0,
        tools: &[],
        renew_key: None,
    };
    let events = Mutex::new(Vec::new());
    let (_, outcome) = run_recorded_with_tools(
        Runner {
            client: &client,
            http: &config,
            store: &store,
        },
        &conversation,
        Question::new("Use the tool, then answer."),
        request,
        Some(&tools),
        RecordOptions::default(),
        CancellationToken::new(),
        |event| {
            let name = match event {
                RecordedEvent::Started { .. } => "started",
                RecordedEvent::StepFinished { .. } => "step finished",
                RecordedEvent::ToolStarted { .. } => "tool started",
                RecordedEvent::ToolFinished { .. } => "tool finished",
                RecordedEvent::NextStep { .. } => "next step",
                RecordedEvent::Finished { .. } => "finished",
                RecordedEvent::Run(_) => return,
            };
            events.lock().unwrap().push(name.to_owned());
        },
    )
    .await
    .unwrap();
    hub.stop_all().await;
    let requests = mock.requests().iter().map(|r| r.json()).collect();
    let stored = store.messages(&conversation).unwrap();
    let results = stored
        .iter()
        .flat_map(|m| m.message.tool_results().cloned().collect::<Vec<_>>())
        .collect();
    mock.shutdown().await;
    Loop {
        requests,
        outcome,
        roles: stored.iter().map(|m| m.message.role).collect(),
        results,
        thoughts: stored
            .iter()
            .filter_map(|m| m.message.thinking().next().map(|t| t.text.clone()))
            .collect(),
        events: events.into_inner().unwrap(),
    }
}

fn model(provider: &str, id: &str) -> ModelInfo {
    Catalog::builtin().resolve(Some(provider), id).unwrap()
}

fn assert_loop_shape(run: &Loop) {
    assert!(matches!(run.outcome, Outcome::Done(_)), "{:?}", run.outcome);
    assert_eq!(run.requests.len(), 2, "one request per step");
    assert_eq!(
        run.roles,
        [Role::User, Role::Assistant, Role::Tool, Role::Assistant],
        "question, the step that called, the results, the answer"
    );
    assert!(!run.results.is_empty());
    for result in &run.results {
        assert!(!result.is_error, "{result:?}");
        assert!(result.text().starts_with("Echo: "), "{result:?}");
    }
    assert_eq!(
        run.events,
        [
            "started",
            "step finished",
            "tool started",
            "tool finished",
            "next step",
            "finished"
        ]
    );
}

#[tokio::test]
async fn anthropic_gets_the_signed_thinking_block_back_with_the_tool_result() {
    let recorded = real("anthropic/pydantic-sonnet4-thinking-tool-use.json");
    let run = run_loop(
        &model("anthropic", "claude-sonnet-4-5"),
        None,
        anthropic_stream(&recorded),
        Reply::fixture("anthropic/pydantic-sonnet4-thinking-stream.sse").unwrap(),
        &["get_weather", "get_country", "final_result"],
    )
    .await;
    assert_loop_shape(&run);
    let second = &run.requests[1];
    let messages = second["messages"].as_array().unwrap();
    let step = &messages[1];
    assert_eq!(step["role"], "assistant");
    let recorded_thinking = recorded["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["type"] == "thinking")
        .unwrap();
    assert_eq!(
        step["content"][0], *recorded_thinking,
        "the thinking block goes back byte for byte, signature included"
    );
    let recorded_call = recorded["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["type"] == "tool_use")
        .unwrap();
    let result = &messages[2]["content"][0];
    assert_eq!(result["type"], "tool_result");
    assert_eq!(result["tool_use_id"], recorded_call["id"]);
    assert!(second["tools"].as_array().is_some_and(|t| !t.is_empty()));
}

#[tokio::test]
async fn gemini_gets_the_thought_signature_back_on_the_call_part() {
    let path = "google/pydantic-gemini3-pro-functioncall-thoughtsignature-stream.sse";
    let recorded_part = stream_payloads(path)
        .iter()
        .flat_map(|p| {
            p["candidates"][0]["content"]["parts"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .find(|part| part.get("functionCall").is_some())
        .unwrap();
    let run = run_loop(
        &model("google", "gemini-3-pro-preview"),
        None,
        Reply::fixture(path).unwrap(),
        Reply::fixture("google/genai-gemini25-flash-thought-parts-stream.sse").unwrap(),
        &["get_country"],
    )
    .await;
    assert_loop_shape(&run);
    let contents = run.requests[1]["contents"].as_array().unwrap();
    let model_parts = contents[1]["parts"].as_array().unwrap();
    assert!(
        model_parts.contains(&recorded_part),
        "the call goes back as received, with its thoughtSignature: {model_parts:?}"
    );
    let response = &contents[2]["parts"][0]["functionResponse"];
    assert_eq!(response["name"], recorded_part["functionCall"]["name"]);
    assert!(
        response["response"]["output"]
            .as_str()
            .unwrap()
            .starts_with("Echo: ")
    );
}

#[tokio::test]
async fn responses_gets_the_encrypted_reasoning_item_and_the_call_back_in_order() {
    let path = "openai/genai-responses-gpt54-mini-reasoning-function-call-stream.sse";
    let done: Vec<Value> = stream_payloads(path)
        .into_iter()
        .filter(|p| p["type"] == "response.output_item.done")
        .map(|p| p["item"].clone())
        .collect();
    let reasoning = done.iter().find(|i| i["type"] == "reasoning").unwrap();
    assert!(
        reasoning["encrypted_content"].is_string(),
        "the recording has it"
    );
    let call = done.iter().find(|i| i["type"] == "function_call").unwrap();
    let run = run_loop(
        &model("openai", "gpt-5.4-mini"),
        Some(ApiChoice::Responses),
        Reply::fixture(path).unwrap(),
        Reply::fixture("openai/genai-responses-gpt54-mini-reasoning-summary-stream.sse").unwrap(),
        &["get_weather"],
    )
    .await;
    assert_loop_shape(&run);
    let second = &run.requests[1];
    assert_eq!(second["store"], false);
    assert_eq!(second["include"], json!(["reasoning.encrypted_content"]));
    let input = second["input"].as_array().unwrap();
    let at = |item: &Value| input.iter().position(|i| i == item);
    let (r, c) = (
        at(reasoning).expect("the reasoning item, unchanged"),
        at(call).expect("the function call, unchanged"),
    );
    let output = input
        .iter()
        .position(|i| i["type"] == "function_call_output" && i["call_id"] == call["call_id"])
        .expect("the call's output");
    assert!(
        r < c && c < output,
        "reasoning, call, output: {r} {c} {output}"
    );
}

/// A recording of a whole loop (four Responses streams: three calculator calls, then the
/// answer), replayed step by step: every later request carries every earlier reasoning item,
/// call and output, in order and unchanged.
#[tokio::test]
async fn a_recorded_four_step_loop_sends_back_every_step_in_order() {
    let path = "openai/vercel-responses-reasoning-encrypted-summary-tools-stream.jsonl";
    let mut streams: Vec<Vec<Value>> = Vec::new();
    for payload in stream_payloads(path) {
        if payload["type"] == "response.created" {
            streams.push(Vec::new());
        }
        if let Some(stream) = streams.last_mut() {
            stream.push(payload);
        }
    }
    assert_eq!(streams.len(), 4, "four steps recorded");
    let done: Vec<Value> = streams
        .iter()
        .flatten()
        .filter(|p| p["type"] == "response.output_item.done")
        .map(|p| p["item"].clone())
        .collect();
    let replies = streams
        .iter()
        .map(|events| {
            Reply::sse(
                events
                    .iter()
                    .map(|e| format!("event: {}\ndata: {e}\n\n", e["type"].as_str().unwrap()))
                    .collect::<String>(),
            )
        })
        .collect();
    let run = run_steps(
        &model("openai", "gpt-5.4-mini"),
        Some(ApiChoice::Responses),
        replies,
        &["calculator"],
        0,
    )
    .await;
    assert!(matches!(run.outcome, Outcome::Done(_)), "{:?}", run.outcome);
    assert_eq!(run.requests.len(), 4, "one request per step");
    assert_eq!(
        run.roles,
        [
            Role::User,
            Role::Assistant,
            Role::Tool,
            Role::Assistant,
            Role::Tool,
            Role::Assistant,
            Role::Tool,
            Role::Assistant
        ]
    );
    let last = run.requests[3]["input"].as_array().unwrap();
    let mut expected: Vec<&Value> = Vec::new();
    for item in done.iter().filter(|i| i["type"] != "message") {
        expected.push(item);
    }
    let sent_back: Vec<&Value> = last
        .iter()
        .filter(|i| i["type"] == "reasoning" || i["type"] == "function_call")
        .collect();
    assert_eq!(
        sent_back, expected,
        "every step's reasoning and calls, unchanged, in order"
    );
    let outputs: Vec<&str> = last
        .iter()
        .filter(|i| i["type"] == "function_call_output")
        .map(|i| i["call_id"].as_str().unwrap())
        .collect();
    let calls: Vec<&str> = done
        .iter()
        .filter(|i| i["type"] == "function_call")
        .map(|i| i["call_id"].as_str().unwrap())
        .collect();
    assert_eq!(outputs, calls, "each call answered, in order");
    for (i, item) in last.iter().enumerate() {
        if item["type"] == "function_call_output" {
            assert_eq!(
                last[i - 1]["call_id"],
                item["call_id"],
                "each output right after its call"
            );
        }
    }
}

#[tokio::test]
async fn deepseek_gets_reasoning_content_back_on_the_tool_call_message() {
    let recorded = real("deepseek/pydantic-deepseek-reasoner-tool-calls.json");
    let message = &recorded["choices"][0]["message"];
    let run = run_loop(
        &model("deepseek", "deepseek-v4-flash"),
        Some(ApiChoice::Chat),
        chat_stream(&recorded),
        Reply::fixture("deepseek/pydantic-deepseek-reasoner-stream.sse").unwrap(),
        &["load_capability"],
    )
    .await;
    assert_loop_shape(&run);
    let messages = run.requests[1]["messages"].as_array().unwrap();
    let step = messages.iter().find(|m| m["role"] == "assistant").unwrap();
    assert_eq!(
        step["reasoning_content"], message["reasoning_content"],
        "DeepSeek needs the reasoning of a tool-call message back, unchanged"
    );
    assert_eq!(step["tool_calls"][0]["id"], message["tool_calls"][0]["id"]);
    let tool = messages.iter().find(|m| m["role"] == "tool").unwrap();
    assert_eq!(tool["tool_call_id"], message["tool_calls"][0]["id"]);
}

/// Kimi K2 thinking's recorded tool call (on Bedrock; framed as Moonshot's Chat Completions
/// answer): Moonshot needs the tool-call message's `reasoning_content` back, unchanged, and
/// its `functions.NAME:N` call id kept as it is.
#[tokio::test]
async fn kimi_gets_reasoning_content_back_on_the_tool_call_message() {
    let first = converse_as_chat(
        &real("bedrock/pydantic-bedrock-kimi-k2-thinking-reasoning-tool-use.0.json"),
        "kimi-k2-thinking",
    );
    let second = converse_as_chat(
        &real("bedrock/pydantic-bedrock-kimi-k2-thinking-reasoning-tool-use.1.json"),
        "kimi-k2-thinking",
    );
    let message = &first["choices"][0]["message"];
    assert!(
        message["reasoning_content"]
            .as_str()
            .unwrap()
            .contains("get_temperature")
    );
    let run = run_loop(
        &model("moonshot", "kimi-k2-thinking"),
        Some(ApiChoice::Chat),
        chat_stream(&first),
        chat_stream(&second),
        &["get_temperature"],
    )
    .await;
    assert_loop_shape(&run);
    let messages = run.requests[1]["messages"].as_array().unwrap();
    let step = messages.iter().find(|m| m["role"] == "assistant").unwrap();
    assert_eq!(
        step["reasoning_content"], message["reasoning_content"],
        "Kimi needs the reasoning of a tool-call message back, unchanged"
    );
    assert_eq!(step["tool_calls"][0]["id"], "functions.get_temperature:0");
    assert_eq!(
        step["tool_calls"][0]["function"]["arguments"],
        message["tool_calls"][0]["function"]["arguments"]
    );
    let tool = messages.iter().find(|m| m["role"] == "tool").unwrap();
    assert_eq!(tool["tool_call_id"], "functions.get_temperature:0");
}

/// Groq's gpt-oss recorded tool call, through a custom provider that follows OpenAI's rules:
/// its `reasoning` is read as thought, the call goes back with its id and arguments as they
/// came, and the reasoning does not (OpenAI-style Chat Completions take none back).
#[tokio::test]
async fn groq_gets_its_call_back_unchanged_and_no_reasoning() {
    let recorded = real("groq/pydantic-groq-gpt-oss-reasoning-tool-call-after-error.json");
    let message = &recorded["choices"][0]["message"];
    let groq = CustomProvider {
        id: "custom-groq".into(),
        name: "Groq".into(),
        base_url: "https://api.groq.com/openai/v1".into(),
        protocol: Protocol::OpenaiChat,
        preset: "openai".into(),
        needs_key: true,
    };
    let model = Catalog::builtin()
        .with_custom(&[groq])
        .resolve(Some("custom-groq"), "openai/gpt-oss-120b")
        .unwrap();
    let run = run_loop(
        &model,
        Some(ApiChoice::Chat),
        chat_stream(&recorded),
        Reply::fixture("groq/vercel-groq-qwen3-32b-reasoning-stream.jsonl").unwrap(),
        &["get_something_by_name"],
    )
    .await;
    assert_loop_shape(&run);
    let messages = run.requests[1]["messages"].as_array().unwrap();
    let step = messages.iter().find(|m| m["role"] == "assistant").unwrap();
    assert_eq!(
        step["tool_calls"],
        json!([{
            "id": message["tool_calls"][0]["id"], "type": "function",
            "function": message["tool_calls"][0]["function"],
        }])
    );
    assert!(
        step.get("reasoning").is_none() && step.get("reasoning_content").is_none(),
        "{step}"
    );
    let tool = messages.iter().find(|m| m["role"] == "tool").unwrap();
    assert_eq!(tool["tool_call_id"], message["tool_calls"][0]["id"]);
    assert_eq!(
        run.thoughts[0],
        message["reasoning"].as_str().unwrap(),
        "the step's reasoning is kept as its thought"
    );
}

/// A step that asks for two calls at once: both run at the same time (neither may finish until
/// both have started), both results are stored in one `tool` message in the order the model
/// asked, and the next request answers each call right after the step, in that order.
#[tokio::test]
async fn two_calls_in_one_step_run_at_once_and_go_back_in_order() {
    let mut recorded = deepseek_calling("echo", &json!({ "message": "first" }));
    let calls = recorded["choices"][0]["message"]["tool_calls"]
        .as_array_mut()
        .unwrap();
    let mut second = calls[0].clone();
    second["id"] = json!(format!("{}_second", calls[0]["id"].as_str().unwrap()));
    second["function"]["arguments"] = json!(json!({ "message": "second" }).to_string());
    calls.push(second);
    let ids: Vec<Value> = calls.iter().map(|c| c["id"].clone()).collect();
    let run = run_steps(
        &model("deepseek", "deepseek-v4-flash"),
        Some(ApiChoice::Chat),
        vec![
            chat_stream(&recorded),
            Reply::fixture("deepseek/pydantic-deepseek-reasoner-stream.sse").unwrap(),
        ],
        &["echo"],
        2,
    )
    .await;
    assert!(matches!(run.outcome, Outcome::Done(_)), "{:?}", run.outcome);
    assert_eq!(
        run.roles,
        [Role::User, Role::Assistant, Role::Tool, Role::Assistant],
        "both results in one tool message"
    );
    let results: Vec<(&str, String)> = run
        .results
        .iter()
        .map(|r| (r.call_id.as_str(), r.text()))
        .collect();
    assert_eq!(results.len(), 2);
    for ((id, text), (want_id, word)) in results.iter().zip(ids.iter().zip(["first", "second"])) {
        assert_eq!(*id, want_id.as_str().unwrap());
        assert!(text.starts_with("Echo: ") && text.contains(word), "{text}");
    }
    assert_eq!(
        run.events,
        [
            "started",
            "step finished",
            "tool started",
            "tool started",
            "tool finished",
            "tool finished",
            "next step",
            "finished"
        ]
    );
    let messages = run.requests[1]["messages"].as_array().unwrap();
    let roles: Vec<&str> = messages
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["user", "assistant", "tool", "tool"]);
    let sent: Vec<&Value> = messages[1]["tool_calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["id"])
        .collect();
    assert_eq!(sent, ids.iter().collect::<Vec<_>>());
    assert_eq!(messages[2]["tool_call_id"], ids[0]);
    assert_eq!(messages[3]["tool_call_id"], ids[1]);
}

#[tokio::test]
async fn a_step_limit_answers_the_calls_it_will_not_run_and_stops() {
    let recorded = real("deepseek/pydantic-deepseek-reasoner-tool-calls.json");
    let mock = MockProvider::start().await.unwrap();
    mock.push(chat_stream(&recorded));
    let hub = everything_hub().await;
    let tools = EchoTools {
        hub: &hub,
        names: vec!["load_capability".into()],
        together: None,
    };
    let store = Store::open_in_memory().unwrap();
    let conversation = store
        .create_conversation(NewConversation {
            title: "Limit".into(),
            provider: None,
            model: None,
            settings: ReasoningSettings::default(),
        })
        .unwrap()
        .id;
    let config = HttpConfig::default();
    let client = http::client(&config).unwrap();
    let deepseek = model("deepseek", "deepseek-v4-flash");
    let (overrides, settings, url) = (
        Overrides::default(),
        ReasoningSettings::default(),
        mock.url(),
    );
    let (id, outcome) = run_recorded_with_tools(
        Runner {
            client: &client,
            http: &config,
            store: &store,
        },
        &conversation,
        Question::new("Roll."),
        TurnRequest {
            model: &deepseek,
            choice: Choice::HIGH,
            overrides: &overrides,
            settings: &settings,
            system: None,
            history: &[],
            base_url: Some(&url),
            api: Some(ApiChoice::Chat),
            api_key: Some(FAKE_KEY),
            context_tokens: 0,
            tools: &[],
            renew_key: None,
        },
        Some(&tools),
        RecordOptions {
            max_steps: 1,
            ..RecordOptions::default()
        },
        CancellationToken::new(),
        |_| {},
    )
    .await
    .unwrap();
    hub.stop_all().await;
    assert!(matches!(outcome, Outcome::Done(_)));
    assert_eq!(mock.requests().len(), 1, "no second step");
    let stored = store.messages(&conversation).unwrap();
    let last = stored.last().unwrap();
    assert_eq!(last.message.role, Role::Tool, "the call has its answer");
    let Part::ToolResult(result) = &last.message.parts[0] else {
        panic!()
    };
    assert!(
        result.is_error && result.text().contains("after 1 steps"),
        "{result:?}"
    );
    let step = store.message(&id).unwrap();
    assert!(
        step.notes
            .iter()
            .any(|n| n.contains("stopped after 1 steps")),
        "{:?}",
        step.notes
    );
    mock.shutdown().await;
}

/// Anthropic's recorded tool use with its `tool_use` block given twice under one id: the
/// second call gets an id of its own in the step Anthropic reads back (its replayed content
/// blocks, the signed thinking unchanged) and in the result that answers it.
#[tokio::test]
async fn anthropic_reads_back_two_calls_of_one_id_under_ids_of_their_own() {
    let mut recorded = real("anthropic/pydantic-sonnet4-thinking-tool-use.json");
    let blocks = recorded["content"].as_array_mut().unwrap();
    let mut twin = blocks
        .iter()
        .find(|b| b["type"] == "tool_use")
        .unwrap()
        .clone();
    let id = twin["id"].as_str().unwrap().to_owned();
    twin["input"] = json!({ "twin": true });
    blocks.push(twin);
    let run = run_loop(
        &model("anthropic", "claude-sonnet-4-5"),
        None,
        anthropic_stream(&recorded),
        Reply::fixture("anthropic/pydantic-sonnet4-thinking-stream.sse").unwrap(),
        &["get_weather", "get_user_country", "final_result"],
    )
    .await;
    assert!(matches!(run.outcome, Outcome::Done(_)), "{:?}", run.outcome);
    let renamed = format!("{id}-2");
    let ids: Vec<&str> = run.results.iter().map(|r| r.call_id.as_str()).collect();
    assert_eq!(ids, [id.as_str(), renamed.as_str()]);
    assert!(run.results[1].text().contains("twin"), "{:?}", run.results);
    assert!(!run.results[0].text().contains("twin"), "{:?}", run.results);

    let messages = run.requests[1]["messages"].as_array().unwrap();
    let step = messages[1]["content"].as_array().unwrap();
    let thinking = recorded["content"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["type"] == "thinking")
        .unwrap();
    assert_eq!(
        step[0], *thinking,
        "the signed thinking goes back unchanged"
    );
    let calls: Vec<&Value> = step
        .iter()
        .filter(|b| b["type"] == "tool_use")
        .map(|b| &b["id"])
        .collect();
    assert_eq!(calls, [&json!(id), &json!(renamed)]);
    let answered: Vec<&Value> = messages[2]["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| &b["tool_use_id"])
        .collect();
    assert_eq!(answered, [&json!(id), &json!(renamed)]);
}
