//! Running the model's calls on real servers: every way a call can go wrong becomes an error
//! result the model reads (never a failed turn), and a stop ends the loop at once with what
//! arrived kept.

use std::collections::BTreeMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ponder_core::catalog::Catalog;
use ponder_core::chat::{Role, ToolCall, ToolContent, ToolResult};
use ponder_core::mcp::{Hub, ServerConfig};
use ponder_core::providers::http::{self, HttpConfig};
use ponder_core::reasoning::{ApiChoice, Choice, Overrides, ReasoningSettings};
use ponder_core::run::{
    Outcome, Question, RecordOptions, RecordedEvent, Runner, TurnRequest, run_recorded_with_tools,
};
use ponder_core::store::{NewConversation, Store};
use ponder_core::tools::{
    ApprovalRequest, Approver, Decision, LIMITS, Limits, McpTools, ToolHost, Toolbox,
};
use ponder_mock_provider::MockProvider;
use ponder_tests::framed::{chat_stream, deepseek_calling};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

fn servers() -> Vec<ServerConfig> {
    let root = ponder_tests::workspace_root();
    vec![
        ponder_tests::mcp::everything(),
        ponder_tests::mcp::node_server("faulty", &root.join("tests/tools/faulty-server.mjs")),
    ]
}

async fn hub() -> Hub {
    let hub = Hub::new(Arc::new(|_| Ok(BTreeMap::new())), Duration::from_secs(30));
    hub.configure(&servers()).await;
    hub
}

async fn toolbox(hub: &Hub) -> Toolbox {
    let mut tools = Vec::new();
    for server in servers() {
        let connection = hub.connection(&server.id).await.unwrap();
        tools.extend(
            connection
                .tools()
                .iter()
                .cloned()
                .map(|t| (server.id.clone(), t)),
        );
    }
    Toolbox::new(tools)
}

/// Answers every call the same way, and counts the questions.
struct Always(Decision, std::sync::atomic::AtomicUsize);

impl Approver for Always {
    fn approve<'a>(
        &'a self,
        _: &'a ApprovalRequest,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>> {
        self.1.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Box::pin(async move { self.0 })
    }
}

fn call(name: &str, arguments: &str) -> ToolCall {
    ToolCall {
        id: format!("call-{name}"),
        name: name.into(),
        arguments: arguments.into(),
    }
}

#[tokio::test]
async fn every_way_a_call_goes_wrong_comes_back_as_an_error_result() {
    let hub = hub().await;
    let approver = Always(Decision::AllowOnce, 0.into());
    let host = McpTools {
        hub: &hub,
        toolbox: toolbox(&hub).await,
        approver: &approver,
        limits: Limits {
            call_timeout: Duration::from_secs(2),
            ..LIMITS
        },
    };
    // (call, is an error, what the result says)
    let cases: &[(ToolCall, bool, &str)] = &[
        (call("add", r#"{"a":2,"b":3}"#), false, "5"),
        (call("echo", r#"{"message":"fine"}"#), false, "Echo: fine"),
        (
            call("no_such_tool", "{}"),
            true,
            "There is no tool named \"no_such_tool\"",
        ),
        (call("add", r#"{"a":2,"b":"#), true, "not valid JSON"),
        (call("add", "[1,2]"), true, "must be a JSON object"),
        (
            call("add", r#"{"a":"two","b":3}"#),
            true,
            "do not match the tool's schema",
        ),
        (call("fail", "{}"), true, "the database is locked"),
        (
            call(
                "trigger-long-running-operation",
                r#"{"duration":20,"steps":2}"#,
            ),
            true,
            "did not answer within 2 s",
        ),
        (
            call("huge", "{}"),
            true,
            "Ponder cut this result: 10485760 characters",
        ),
    ];
    for (call, is_error, says) in cases {
        let result = host.run(call).await;
        assert_eq!(
            result.is_error,
            *is_error,
            "{}: {}",
            call.name,
            result.text()
        );
        let text = result.text();
        assert!(
            text.contains(says),
            "{}: {}",
            call.name,
            &text[..text.len().min(300)]
        );
        assert_eq!(result.call_id, call.id);
        assert!(result.duration_ms.is_some());
        assert!(text.len() < 200_000, "{}: bounded", call.name);
    }
    assert_eq!(
        approver.1.load(std::sync::atomic::Ordering::SeqCst),
        5,
        "only calls that can run are put to the user"
    );

    // A server that dies mid-call: that call is an error; the next starts it again.
    let crashed = host.run(&call("crash", "{}")).await;
    assert!(crashed.is_error, "{}", crashed.text());
    let again = host.run(&call("add", r#"{"a":1,"b":1}"#)).await;
    assert!(!again.is_error, "{}", again.text());
    assert_eq!(again.text(), "2");
    hub.stop_all().await;
}

/// Six images of 4 MiB: each is under the image limit, but the message carrying them is over
/// the 16 MiB the MCP SDK reads. The call ends at once with an error saying so, instead of
/// waiting out its deadline for an answer that was dropped.
#[tokio::test]
async fn an_answer_too_large_to_read_is_an_error_at_once_not_a_silent_wait() {
    let hub = hub().await;
    let approver = Always(Decision::AllowOnce, 0.into());
    let host = McpTools {
        hub: &hub,
        toolbox: toolbox(&hub).await,
        approver: &approver,
        limits: Limits {
            call_timeout: Duration::from_secs(40),
            ..LIMITS
        },
    };
    let started = Instant::now();
    let result = host.run(&call("images", "{}")).await;
    let waited = started.elapsed();
    let text = result.text();
    assert!(result.is_error, "{text}");
    assert!(
        text.contains("over 16 MiB"),
        "the model and the user are told why: {text}"
    );
    assert!(
        waited < Duration::from_secs(20),
        "ended at once: {waited:?}"
    );
    assert!(
        !result
            .content
            .iter()
            .any(|c| matches!(c, ToolContent::Image { .. }))
    );
    // The server is still there for the next call.
    let next = host.run(&call("add", r#"{"a":1,"b":2}"#)).await;
    assert_eq!(next.text(), "3");
    hub.stop_all().await;
}

#[tokio::test]
async fn a_denied_call_tells_the_model_so() {
    let hub = hub().await;
    let approver = Always(Decision::Deny, 0.into());
    let host = McpTools {
        hub: &hub,
        toolbox: toolbox(&hub).await,
        approver: &approver,
        limits: LIMITS,
    };
    let result = host.run(&call("echo", r#"{"message":"x"}"#)).await;
    assert!(result.is_error);
    assert!(result.text().contains("The user denied this tool call"));
    hub.stop_all().await;
}

/// Never answers: the call waits on its approval card until the user stops the turn.
struct Silent;

impl Approver for Silent {
    fn approve<'a>(
        &'a self,
        _: &'a ApprovalRequest,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>> {
        Box::pin(std::future::pending())
    }
}

#[tokio::test]
async fn stopping_while_a_call_waits_ends_the_loop_at_once_and_keeps_everything() {
    let mock = MockProvider::start().await.unwrap();
    mock.push(chat_stream(&deepseek_calling(
        "echo",
        &json!({ "message": "hi" }),
    )));

    let hub = hub().await;
    let host = McpTools {
        hub: &hub,
        toolbox: toolbox(&hub).await,
        approver: &Silent,
        limits: LIMITS,
    };
    let store = Store::open_in_memory().unwrap();
    let conversation = store
        .create_conversation(NewConversation {
            title: "Stop".into(),
            provider: None,
            model: None,
            settings: ReasoningSettings::default(),
        })
        .unwrap()
        .id;
    let config = HttpConfig::default();
    let client = http::client(&config).unwrap();
    let model = Catalog::builtin()
        .resolve(Some("deepseek"), "deepseek-v4-flash")
        .unwrap();
    let (overrides, settings, url) = (
        Overrides::default(),
        ReasoningSettings::default(),
        mock.url(),
    );
    let cancel = CancellationToken::new();
    let stop = cancel.clone();
    let stopped_at = std::sync::Mutex::new(None);
    let (_, outcome) = run_recorded_with_tools(
        Runner {
            client: &client,
            http: &config,
            store: &store,
        },
        &conversation,
        Question::new("Echo hi."),
        TurnRequest {
            model: &model,
            choice: Choice::HIGH,
            overrides: &overrides,
            settings: &settings,
            system: None,
            history: &[],
            base_url: Some(&url),
            api: Some(ApiChoice::Chat),
            api_key: Some("FAKE-key-not-real"),
            context_tokens: 0,
            tools: &[],
            renew_key: None,
        },
        Some(&host as &dyn ToolHost),
        RecordOptions::default(),
        cancel,
        |event| {
            if let RecordedEvent::ToolStarted { .. } = event {
                // The user presses Stop while the card waits.
                let stop = stop.clone();
                *stopped_at.lock().unwrap() = Some(Instant::now());
                tokio::spawn(async move {
                    tokio::time::sleep(Duration::from_millis(200)).await;
                    stop.cancel();
                });
            }
        },
    )
    .await
    .unwrap();
    let waited = stopped_at.lock().unwrap().unwrap().elapsed();
    assert!(
        waited < Duration::from_secs(3),
        "the loop ended at once: {waited:?}"
    );
    assert!(matches!(outcome, Outcome::Cancelled(_)), "{outcome:?}");
    let stored = store.messages(&conversation).unwrap();
    let roles: Vec<Role> = stored.iter().map(|m| m.message.role).collect();
    assert_eq!(roles, [Role::User, Role::Assistant, Role::Tool]);
    assert!(
        stored[1].message.thinking().next().is_some(),
        "the step's thinking is kept"
    );
    let results: Vec<&ToolResult> = stored[2].message.tool_results().collect();
    assert!(results[0].is_error && results[0].text().contains("Stopped by the user"));
    assert_eq!(mock.requests().len(), 1, "no further step after the stop");
    hub.stop_all().await;
    mock.shutdown().await;
}

/// Allows every call, and keeps what each card showed: the call's id and arguments.
#[derive(Default)]
struct Recording(std::sync::Mutex<Vec<(String, serde_json::Value)>>);

impl Approver for Recording {
    fn approve<'a>(
        &'a self,
        request: &'a ApprovalRequest,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>> {
        self.0
            .lock()
            .unwrap()
            .push((request.call_id.clone(), request.arguments.clone()));
        Box::pin(async { Decision::AllowOnce })
    }
}

#[tokio::test]
async fn two_calls_with_one_id_get_a_card_and_a_result_each_under_ids_of_their_own() {
    let mut recorded = deepseek_calling("echo", &json!({ "message": "first" }));
    let calls = recorded["choices"][0]["message"]["tool_calls"]
        .as_array_mut()
        .unwrap();
    let mut second = calls[0].clone();
    second["function"]["arguments"] = json!(json!({ "message": "second" }).to_string());
    calls.push(second);
    let id = calls[0]["id"].as_str().unwrap().to_owned();
    let renamed = format!("{id}-2");

    let mock = MockProvider::start().await.unwrap();
    mock.push(chat_stream(&recorded));
    mock.push(
        ponder_mock_provider::Reply::fixture("deepseek/pydantic-deepseek-reasoner-stream.sse")
            .unwrap(),
    );
    let hub = hub().await;
    let approver = Recording::default();
    let host = McpTools {
        hub: &hub,
        toolbox: toolbox(&hub).await,
        approver: &approver,
        limits: LIMITS,
    };
    let store = Store::open_in_memory().unwrap();
    let conversation = store
        .create_conversation(NewConversation {
            title: "Twins".into(),
            provider: None,
            model: None,
            settings: ReasoningSettings::default(),
        })
        .unwrap()
        .id;
    let config = HttpConfig::default();
    let client = http::client(&config).unwrap();
    let model = Catalog::builtin()
        .resolve(Some("deepseek"), "deepseek-v4-flash")
        .unwrap();
    let (overrides, settings, url) = (
        Overrides::default(),
        ReasoningSettings::default(),
        mock.url(),
    );
    let started = std::sync::Mutex::new(Vec::new());
    let finished = std::sync::Mutex::new(Vec::new());
    let (_, outcome) = run_recorded_with_tools(
        Runner {
            client: &client,
            http: &config,
            store: &store,
        },
        &conversation,
        Question::new("Echo twice."),
        TurnRequest {
            model: &model,
            choice: Choice::HIGH,
            overrides: &overrides,
            settings: &settings,
            system: None,
            history: &[],
            base_url: Some(&url),
            api: Some(ApiChoice::Chat),
            api_key: Some("FAKE-key-not-real"),
            context_tokens: 0,
            tools: &[],
            renew_key: None,
        },
        Some(&host as &dyn ToolHost),
        RecordOptions::default(),
        CancellationToken::new(),
        |event| match event {
            RecordedEvent::ToolStarted { call, .. } => {
                started.lock().unwrap().push(call.id.clone());
            }
            RecordedEvent::ToolFinished { result } => {
                finished
                    .lock()
                    .unwrap()
                    .push((result.call_id.clone(), result.text()));
            }
            _ => {}
        },
    )
    .await
    .unwrap();
    hub.stop_all().await;
    assert!(matches!(outcome, Outcome::Done(_)), "{outcome:?}");

    let cards = approver.0.lock().unwrap().clone();
    assert_eq!(
        cards,
        [
            (id.clone(), json!({ "message": "first" })),
            (renamed.clone(), json!({ "message": "second" }))
        ],
        "one card per call, each under its own id"
    );
    assert_eq!(*started.lock().unwrap(), [id.clone(), renamed.clone()]);
    let mut finished = finished.lock().unwrap().clone();
    finished.sort();
    assert_eq!(
        finished,
        [
            (id.clone(), "Echo: first".to_owned()),
            (renamed.clone(), "Echo: second".to_owned())
        ],
        "one result per call, each with its own answer"
    );

    let stored = store.messages(&conversation).unwrap();
    let step_ids: Vec<&str> = stored[1]
        .message
        .tool_calls()
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(step_ids, [id.as_str(), renamed.as_str()]);
    let result_ids: Vec<&str> = stored[2]
        .message
        .tool_results()
        .map(|r| r.call_id.as_str())
        .collect();
    assert_eq!(result_ids, [id.as_str(), renamed.as_str()]);

    // The provider reads back the calls under the ids their results answer.
    let next = mock.requests()[1].json();
    let messages = next["messages"].as_array().unwrap();
    let sent: Vec<&Value> = messages[1]["tool_calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| &c["id"])
        .collect();
    assert_eq!(sent, [&json!(id), &json!(renamed)]);
    let answers: Vec<(&Value, &Value)> = messages[2..]
        .iter()
        .map(|m| (&m["tool_call_id"], &m["content"]))
        .collect();
    assert_eq!(
        answers,
        [
            (&json!(id), &json!("Echo: first")),
            (&json!(renamed), &json!("Echo: second"))
        ]
    );
    mock.shutdown().await;
}
