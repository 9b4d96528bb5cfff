//! GitHub Copilot against a loopback GitHub and Copilot API: every answer of the device flow,
//! the token exchange and its refusals, the model list, and one turn per model family with
//! the headers and body the mock received.

use std::time::Duration;

use ponder_core::catalog::Catalog;
use ponder_core::chat::Message;
use ponder_core::providers::copilot::device::{self, Waiting};
use ponder_core::providers::copilot::{
    self, CopilotError, Hosts, Session, TokenCache, models::CopilotModel,
};
use ponder_core::providers::error::ErrorKind;
use ponder_core::providers::http::{self, HttpConfig};
use ponder_core::reasoning::{Choice, Overrides, ReasoningSettings};
use ponder_core::run::{Outcome, TurnRequest, run_turn};
use ponder_mock_provider::copilot::{GITHUB_TOKEN, Script, SignIn, USER_CODE};
use ponder_mock_provider::{MockProvider, RecordedRequest};
use serde_json::json;
use tokio_util::sync::CancellationToken;

fn client() -> reqwest::Client {
    http::client(&HttpConfig::default()).unwrap()
}

async fn mock(script: Script) -> (MockProvider, ponder_mock_provider::copilot::CopilotMock) {
    let mock = MockProvider::start().await.unwrap();
    let copilot = mock.serve_copilot(Script {
        interval: 0,
        ..script
    });
    (mock, copilot)
}

/// A session for the mock's GitHub token, signed in at `url`, as a turn starts one.
async fn start(
    cache: &TokenCache,
    client: &reqwest::Client,
    url: &str,
) -> Result<Session, CopilotError> {
    let hosts = Hosts::new(url).unwrap();
    let never = CancellationToken::new();
    Session::start(
        cache,
        client,
        hosts,
        GITHUB_TOKEN,
        &HttpConfig::default(),
        &never,
    )
    .await
}

async fn sign_in(url: &str) -> (Result<String, CopilotError>, Vec<Waiting>) {
    let hosts = Hosts::new(url).unwrap();
    let client = client();
    let code = device::request_code(&client, &hosts).await.unwrap();
    assert_eq!(code.user_code, USER_CODE);
    assert_eq!(code.verification_uri, format!("{url}/login/device"));
    let mut waits = Vec::new();
    let token = device::wait_for_token(&client, &hosts, &code, &CancellationToken::new(), |w| {
        waits.push(w);
    })
    .await;
    (token, waits)
}

#[tokio::test]
async fn the_device_flow_waits_until_the_user_approves() {
    let (mock, copilot) = mock(Script::default()).await;
    let (token, waits) = sign_in(&mock.url()).await;
    assert_eq!(token.unwrap(), GITHUB_TOKEN);
    assert_eq!(copilot.polls(), 3, "two pending answers, then the token");
    assert_eq!(waits.len(), 3);
    let polls: Vec<RecordedRequest> = mock
        .requests()
        .into_iter()
        .filter(|r| r.path == "/login/oauth/access_token")
        .collect();
    for poll in &polls {
        assert_eq!(poll.header("accept"), Some("application/json"));
        let body = poll.body_text();
        assert!(body.contains("client_id=Iv1.b507a08c87ecfe98"), "{body}");
        assert!(
            body.contains("grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Adevice_code"),
            "{body}"
        );
    }
    let asked = mock
        .requests()
        .into_iter()
        .find(|r| r.path == "/login/device/code")
        .unwrap();
    assert!(
        asked.body_text().contains("scope=read%3Auser"),
        "{}",
        asked.body_text()
    );
}

#[tokio::test]
async fn slow_down_makes_the_polls_further_apart() {
    let (mock, copilot) = mock(Script {
        slow_down: Some(1),
        pending_polls: 0,
        ..Script::default()
    })
    .await;
    let started = std::time::Instant::now();
    let (token, waits) = sign_in(&mock.url()).await;
    assert_eq!(token.unwrap(), GITHUB_TOKEN);
    assert_eq!(copilot.polls(), 2);
    assert!(
        waits.contains(&Waiting::SlowedDown {
            interval: Duration::from_secs(1)
        }),
        "{waits:?}"
    );
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "the new interval was kept"
    );
}

#[tokio::test]
async fn a_declined_or_expired_code_ends_the_sign_in_with_what_to_do() {
    for (outcome, expected) in [
        (SignIn::Deny, CopilotError::Denied),
        (SignIn::Expire, CopilotError::CodeExpired),
    ] {
        let (mock, _) = mock(Script {
            sign_in: outcome,
            pending_polls: 1,
            ..Script::default()
        })
        .await;
        let (token, _) = sign_in(&mock.url()).await;
        let err = token.unwrap_err();
        assert_eq!(err, expected);
        assert!(err.to_string().contains("start"), "{err}");
    }
}

#[tokio::test]
async fn github_failing_for_a_moment_does_not_end_the_sign_in() {
    let (mock, copilot) = mock(Script {
        failing_polls: 2,
        pending_polls: 1,
        ..Script::default()
    })
    .await;
    let (token, _) = sign_in(&mock.url()).await;
    assert_eq!(token.unwrap(), GITHUB_TOKEN);
    assert_eq!(copilot.polls(), 4);

    let (down, copilot) = self::mock(Script {
        failing_polls: 10,
        ..Script::default()
    })
    .await;
    let (token, _) = sign_in(&down.url()).await;
    let err = token.unwrap_err().into_provider_error();
    assert_eq!(err.status, Some(502));
    assert!(err.message.contains("502 Bad Gateway"), "{}", err.message);
    assert_eq!(
        copilot.polls(),
        4,
        "three failures are forgiven, the fourth is not"
    );
}

#[tokio::test]
async fn a_cancelled_sign_in_stops_polling() {
    let (mock, copilot) = mock(Script {
        pending_polls: 1000,
        ..Script::default()
    })
    .await;
    let hosts = Hosts::new(&mock.url()).unwrap();
    let client = client();
    let code = device::request_code(&client, &hosts).await.unwrap();
    let cancel = CancellationToken::new();
    let stop = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(50)).await;
        stop.cancel();
    });
    let err = device::wait_for_token(&client, &hosts, &code, &cancel, |_| {})
        .await
        .unwrap_err();
    assert_eq!(err, CopilotError::Cancelled);
    // A poll already on the wire at the stop may still reach the mock; none after it.
    tokio::time::sleep(Duration::from_millis(50)).await;
    let polls = copilot.polls();
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(copilot.polls(), polls, "nothing polls after the stop");
}

#[tokio::test]
async fn the_copilot_token_is_exchanged_once_and_kept_in_memory() {
    let (mock, copilot) = mock(Script::default()).await;
    let cache = TokenCache::new();
    let client = client();
    let url = mock.url();
    let first = start(&cache, &client, &url).await.unwrap();
    assert_eq!(
        first.credentials.api_base, url,
        "the API named by the exchange"
    );
    let again = start(&cache, &client, &url).await.unwrap();
    assert_eq!(again.credentials, first.credentials);
    assert_eq!(copilot.exchanges(), 1, "the second turn reuses the token");
    let exchange = mock
        .requests()
        .into_iter()
        .find(|r| r.path == "/copilot_internal/v2/token")
        .unwrap();
    assert_eq!(
        exchange.header("authorization"),
        Some(format!("token {GITHUB_TOKEN}").as_str())
    );
    assert!(exchange.header("editor-version").is_some());
    // Refused by the API: a new one, once; then the new one is kept.
    let hosts = Hosts::new(&url).unwrap();
    let renewed = cache
        .renewed(
            &client,
            &hosts,
            GITHUB_TOKEN,
            Some(&first.credentials.token),
            &HttpConfig::default(),
            &CancellationToken::new(),
        )
        .await
        .unwrap();
    assert_ne!(renewed.token, first.credentials.token);
    let kept = cache
        .renewed(
            &client,
            &hosts,
            GITHUB_TOKEN,
            Some(&first.credentials.token),
            &HttpConfig::default(),
            &CancellationToken::new(),
        )
        .await
        .unwrap();
    assert_eq!(kept, renewed, "a newer token is already at hand");
    assert_eq!(copilot.exchanges(), 2);
}

#[tokio::test]
async fn a_token_about_to_expire_is_replaced_before_it_is_used() {
    let (mock, copilot) = mock(Script {
        token_lifetime: Duration::from_secs(1),
        ..Script::default()
    })
    .await;
    let cache = TokenCache::new();
    let client = client();
    let url = mock.url();
    let first = start(&cache, &client, &url).await.unwrap();
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let second = start(&cache, &client, &url).await.unwrap();
    assert_ne!(first.credentials.token, second.credentials.token);
    assert_eq!(copilot.exchanges(), 2);
}

#[tokio::test]
async fn a_revoked_sign_in_or_no_copilot_says_what_to_do() {
    let client = client();
    let (revoked, _) = mock(Script {
        revoked: true,
        ..Script::default()
    })
    .await;
    let err = start(&TokenCache::new(), &client, &revoked.url())
        .await
        .unwrap_err();
    assert_eq!(err, CopilotError::SignInRevoked);
    assert!(
        err.to_string().contains("sign in to GitHub Copilot again"),
        "{err}"
    );

    let (none, _) = mock(Script {
        no_copilot: true,
        ..Script::default()
    })
    .await;
    let err = start(&TokenCache::new(), &client, &none.url())
        .await
        .unwrap_err();
    let text = err.to_string();
    assert!(text.contains("No access to GitHub Copilot found"), "{text}");
    assert_eq!(err.into_provider_error().kind, ErrorKind::Auth);

    let err = Session::start(
        &TokenCache::new(),
        &client,
        Hosts::github(),
        "  ",
        &HttpConfig::default(),
        &CancellationToken::new(),
    )
    .await
    .unwrap_err();
    assert_eq!(err, CopilotError::NotSignedIn);
}

#[tokio::test]
async fn the_model_list_is_the_accounts_chat_models() {
    let (mock, _) = mock(Script::default()).await;
    let client = client();
    let session = start(&TokenCache::new(), &client, &mock.url())
        .await
        .unwrap();
    let models = copilot::fetch_models(
        &client,
        &session.credentials,
        &HttpConfig::default(),
        &CancellationToken::new(),
    )
    .await
    .unwrap();
    let ids: Vec<&str> = models.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "gpt-4.1",
            "gpt-4o",
            "gpt-5-mini",
            "gpt-5.4",
            "gpt-5.5",
            "claude-sonnet-4.6",
            "claude-opus-4.8",
            "claude-haiku-4.5",
            "gemini-3.8-flash"
        ],
        "no embeddings, no models hidden from the picker or disabled by policy"
    );
    let gpt55: &CopilotModel = models.iter().find(|m| m.id == "gpt-5.5").unwrap();
    assert!(gpt55.answers_on_responses() && !gpt55.answers_on_chat());
    let listed = mock
        .requests()
        .into_iter()
        .find(|r| r.path == "/models")
        .unwrap();
    assert_eq!(
        listed.header("authorization"),
        Some(format!("Bearer {}", session.credentials.token).as_str())
    );
}

struct Ran {
    outcome: Outcome,
    sent: RecordedRequest,
    notices: Vec<String>,
}

async fn turn(script: Script, model: &str, choice: Choice, renew: bool) -> (Ran, usize) {
    let (mock, copilot) = mock(script).await;
    let client = client();
    let cache = TokenCache::new();
    let url = mock.url();
    let session = start(&cache, &client, &url).await.unwrap();
    let model = Catalog::builtin().resolve(Some("copilot"), model).unwrap();
    let history = [Message::user("What is 17 × 23?")];
    let settings = ReasoningSettings::default();
    let overrides = Overrides::default();
    let config = HttpConfig {
        max_retries: 0,
        ..HttpConfig::default()
    };
    let never = CancellationToken::new();
    let renewer = session.renewer(&cache, &client, &config, &never);
    let request = TurnRequest {
        model: &model,
        choice,
        overrides: &overrides,
        settings: &settings,
        system: Some("Answer briefly."),
        history: &history,
        base_url: Some(&session.credentials.api_base),
        api: None,
        api_key: Some(&session.credentials.token),
        context_tokens: 0,
        tools: &[],
        renew_key: renew.then_some(&renewer as &dyn ponder_core::run::RenewKey),
    };
    let mut notices = Vec::new();
    let outcome = run_turn(
        &client,
        &config,
        request,
        CancellationToken::new(),
        |event| {
            if let ponder_core::run::RunEvent::Notice(notice) = event {
                notices.push(notice);
            }
        },
    )
    .await;
    let sent = mock
        .requests()
        .into_iter()
        .rfind(|r| r.method == "POST" && !r.path.starts_with("/login"))
        .unwrap();
    (
        Ran {
            outcome,
            sent,
            notices,
        },
        copilot.exchanges(),
    )
}

fn headers_of_an_editor(sent: &RecordedRequest) {
    for name in [
        "copilot-integration-id",
        "editor-version",
        "editor-plugin-version",
        "user-agent",
    ] {
        assert!(sent.header(name).is_some_and(|v| !v.is_empty()), "{name}");
    }
    assert_eq!(sent.header("openai-intent"), Some("conversation-panel"));
    assert_eq!(sent.header("x-initiator"), Some("user"));
    assert!(
        sent.header("authorization")
            .is_some_and(|v| v.starts_with("Bearer tid=FAKE-copilot-token")),
        "the Copilot token, never the GitHub token"
    );
}

#[tokio::test]
async fn gpt5_at_high_goes_to_responses_and_its_thoughts_stream() {
    let (ran, _) = turn(Script::default(), "gpt-5.4", Choice::HIGH, false).await;
    let Outcome::Done(done) = &ran.outcome else {
        panic!("{:?}", ran.outcome.turn().error);
    };
    assert_eq!(ran.sent.path, "/responses");
    headers_of_an_editor(&ran.sent);
    let body = ran.sent.json();
    assert_eq!(
        body["reasoning"],
        json!({"effort": "high", "summary": "auto"})
    );
    assert_eq!(body["model"], "gpt-5.4");
    assert_eq!(
        body.get("instructions"),
        None,
        "the system prompt is a message"
    );
    assert_eq!(
        body["input"][0],
        json!({"role": "developer", "content": "Answer briefly."})
    );
    assert_eq!(body["input"][1]["role"], "user");
    assert_eq!(body.get("reasoning_effort"), None);
    let thought: String = done.message.thinking().map(|t| t.text.as_str()).collect();
    assert!(
        thought.len() > 100,
        "the reasoning summary streamed: {thought:?}"
    );
    assert!(!done.message.text().is_empty());
    assert_eq!(
        ran.notices,
        ["GitHub Copilot premium requests: 84% of 300 left, resets 2026-12-01"],
        "the allowance Copilot reported with the answer"
    );
}

#[tokio::test]
async fn claude_goes_to_chat_completions_with_its_effort_and_no_thoughts() {
    let (ran, _) = turn(Script::default(), "claude-sonnet-4.6", Choice::HIGH, false).await;
    let Outcome::Done(done) = &ran.outcome else {
        panic!("{:?}", ran.outcome.turn().error);
    };
    assert_eq!(ran.sent.path, "/chat/completions");
    headers_of_an_editor(&ran.sent);
    let body = ran.sent.json();
    assert_eq!(body["reasoning_effort"], "high");
    assert_eq!(
        body["messages"][0],
        json!({"role": "system", "content": "Answer briefly."})
    );
    assert_eq!(body.get("reasoning"), None);
    assert_eq!(body.get("thinking"), None);
    assert_eq!(done.message.thinking().count(), 0);
    assert!(!done.message.text().is_empty());
}

#[tokio::test]
async fn models_that_cannot_think_get_no_reasoning_parameters() {
    for model in ["gpt-4o", "gpt-4.1"] {
        let (ran, _) = turn(Script::default(), model, Choice::HIGH, false).await;
        assert!(matches!(ran.outcome, Outcome::Done(_)), "{model}");
        assert_eq!(ran.sent.path, "/chat/completions", "{model}");
        let body = ran.sent.json();
        for field in ["reasoning_effort", "reasoning", "thinking", "include"] {
            assert_eq!(body.get(field), None, "{model}: {field}");
        }
    }
}

#[tokio::test]
async fn an_expired_copilot_token_mid_conversation_is_renewed_once() {
    let script = || Script {
        expire_api_calls: 1,
        ..Script::default()
    };
    let (ran, exchanges) = turn(script(), "gpt-5.4", Choice::MEDIUM, true).await;
    assert!(
        matches!(ran.outcome, Outcome::Done(_)),
        "{:?}",
        ran.outcome.turn().error
    );
    assert_eq!(exchanges, 2, "one exchange more, after the 401");
    assert!(
        ran.sent
            .header("authorization")
            .unwrap()
            .contains("token-2")
    );

    // Without a way to renew it, the 401 is the user's to read.
    let (ran, _) = turn(script(), "gpt-5.4", Choice::MEDIUM, false).await;
    let error = ran.outcome.turn().error.clone().unwrap();
    assert_eq!(error.kind, ErrorKind::Auth);
    assert_eq!(error.status, Some(401));
}

#[tokio::test]
async fn a_spent_premium_allowance_is_a_quota_error() {
    let (ran, _) = turn(
        Script {
            quota_exceeded: true,
            ..Script::default()
        },
        "claude-sonnet-4.6",
        Choice::HIGH,
        true,
    )
    .await;
    let error = ran.outcome.turn().error.clone().unwrap();
    assert_eq!(error.kind, ErrorKind::Quota, "{error:?}");
    assert_eq!(error.status, Some(402));
    assert!(
        error.message.contains("premium request allowance"),
        "{}",
        error.message
    );
}

#[test]
fn a_tool_loops_next_step_is_the_agents_request_not_the_users() {
    use ponder_core::chat::{Part, Role, ToolCall, ToolResult};
    let model = Catalog::builtin()
        .resolve(Some("copilot"), "gpt-5.4")
        .unwrap();
    let settings = ReasoningSettings::default();
    let overrides = Overrides::default();
    let call = ToolCall {
        id: "call_1".into(),
        name: "lookup".into(),
        arguments: "{}".into(),
    };
    let asked = Message::user("Look it up");
    let mut step = Message::user("");
    step.role = Role::Assistant;
    step.parts = vec![Part::ToolCall(call.clone())];
    let results = Message::tool(vec![ToolResult::error(&call, "not found")]);
    for (history, initiator) in [
        (vec![asked.clone()], "user"),
        (vec![asked.clone(), step, results], "agent"),
    ] {
        let request = TurnRequest {
            model: &model,
            choice: Choice::HIGH,
            overrides: &overrides,
            settings: &settings,
            system: None,
            history: &history,
            base_url: Some("https://api.individual.githubcopilot.com"),
            api: None,
            api_key: Some("FAKE-copilot-token-not-real"),
            context_tokens: 0,
            tools: &[],
            renew_key: None,
        };
        let prepared = ponder_core::run::prepare(&request).unwrap();
        let sent: Vec<&str> = prepared
            .http
            .headers
            .iter()
            .filter(|(n, _)| n == "x-initiator")
            .map(|(_, v)| v.as_str())
            .collect();
        assert_eq!(sent, [initiator]);
        assert_eq!(
            prepared.http.url,
            "https://api.individual.githubcopilot.com/responses"
        );
    }
}

/// A session at the mock with `config`, stopped by `cancel`.
async fn start_with(
    cache: &TokenCache,
    url: &str,
    config: &HttpConfig,
    cancel: &CancellationToken,
) -> Result<Session, CopilotError> {
    let hosts = Hosts::new(url).unwrap();
    Session::start(cache, &client(), hosts, GITHUB_TOKEN, config, cancel).await
}

fn stall(secs: u64) -> HttpConfig {
    HttpConfig {
        idle_timeout: Duration::from_secs(secs),
        ..HttpConfig::default()
    }
}

/// Waits until the mock has been asked for `path`.
async fn asked(mock: &MockProvider, path: &str) {
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !mock.requests().iter().any(|r| r.path == path) {
        assert!(
            std::time::Instant::now() < deadline,
            "{path} was never asked"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Cancels `cancel` in a moment, and says when.
fn stop_soon(cancel: &CancellationToken) -> tokio::task::JoinHandle<std::time::Instant> {
    let cancel = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        cancel.cancel();
        std::time::Instant::now()
    })
}

#[tokio::test]
async fn a_silent_token_exchange_is_given_up_after_the_stall_timeout() {
    let (mock, _) = mock(Script {
        silent_exchange: true,
        ..Script::default()
    })
    .await;
    let started = std::time::Instant::now();
    let err = tokio::time::timeout(
        Duration::from_secs(10),
        start_with(
            &TokenCache::new(),
            &mock.url(),
            &stall(1),
            &CancellationToken::new(),
        ),
    )
    .await
    .expect("the exchange ends on its own")
    .unwrap_err()
    .into_provider_error();
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(err.kind, ErrorKind::Network, "{err:?}");
    assert!(err.message.contains("silent for 1 s"), "{}", err.message);
}

#[tokio::test]
async fn stop_ends_a_silent_token_exchange_and_the_wait_for_it_at_once() {
    let (mock, _) = mock(Script {
        silent_exchange: true,
        ..Script::default()
    })
    .await;
    let cache = TokenCache::new();
    let url = mock.url();
    let (first, second) = (CancellationToken::new(), CancellationToken::new());
    let exchanging = async {
        let result = start_with(&cache, &url, &stall(60), &first).await;
        (result, std::time::Instant::now())
    };
    // The first turn's exchange is on the wire; the second waits for it, and is stopped.
    let waiting = async {
        asked(&mock, "/copilot_internal/v2/token").await;
        let stopped = stop_soon(&second);
        let result = start_with(&cache, &url, &stall(60), &second).await;
        let waited = std::time::Instant::now() - stopped.await.unwrap();
        let stopped = stop_soon(&first);
        (result, waited, stopped.await.unwrap())
    };
    let ((exchanged, ended), (waited, waited_after_stop, first_stopped)) =
        tokio::join!(exchanging, waiting);
    assert_eq!(waited.unwrap_err(), CopilotError::Cancelled);
    assert!(
        waited_after_stop < Duration::from_secs(1),
        "{waited_after_stop:?}"
    );
    assert_eq!(exchanged.unwrap_err(), CopilotError::Cancelled);
    let after = ended - first_stopped;
    assert!(after < Duration::from_secs(1), "{after:?} after the stop");
}

#[tokio::test]
async fn a_silent_model_list_is_given_up_after_the_stall_timeout_or_at_stop() {
    let (mock, _) = mock(Script {
        silent_models: true,
        ..Script::default()
    })
    .await;
    let never = CancellationToken::new();
    let session = start_with(&TokenCache::new(), &mock.url(), &stall(1), &never)
        .await
        .unwrap();
    let started = std::time::Instant::now();
    let err = tokio::time::timeout(
        Duration::from_secs(10),
        copilot::fetch_models(&client(), &session.credentials, &stall(1), &never),
    )
    .await
    .expect("the list ends on its own")
    .unwrap_err()
    .into_provider_error();
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
    assert!(err.message.contains("silent for 1 s"), "{}", err.message);

    let stop = CancellationToken::new();
    let stopped = stop_soon(&stop);
    let err = tokio::time::timeout(
        Duration::from_secs(10),
        copilot::fetch_models(&client(), &session.credentials, &stall(60), &stop),
    )
    .await
    .expect("Stop ends the list")
    .unwrap_err();
    let after = std::time::Instant::now() - stopped.await.unwrap();
    assert_eq!(err, CopilotError::Cancelled);
    assert!(after < Duration::from_secs(1), "{after:?} after the stop");
}

#[tokio::test]
async fn times_of_2_to_the_64_from_github_are_no_panic() {
    let (mock, copilot) = mock(Script {
        huge_numbers: true,
        pending_polls: 0,
        ..Script::default()
    })
    .await;
    let (token, _) = sign_in(&mock.url()).await;
    assert_eq!(token.unwrap(), GITHUB_TOKEN);
    let cache = TokenCache::new();
    let client = client();
    let first = start(&cache, &client, &mock.url()).await.unwrap();
    let again = start(&cache, &client, &mock.url()).await.unwrap();
    assert_eq!(first.credentials, again.credentials);
    assert_eq!(copilot.exchanges(), 1, "kept, for at most an hour");
}

#[tokio::test]
async fn a_token_exchange_answer_over_a_mebibyte_is_refused_with_a_clear_error() {
    let (mock, _) = mock(Script {
        exchange_padding: 2 << 20,
        ..Script::default()
    })
    .await;
    let err = start(&TokenCache::new(), &client(), &mock.url())
        .await
        .unwrap_err()
        .into_provider_error();
    assert!(
        err.message.contains(
            "the Copilot token exchange was over 1 MiB; Ponder stops reading at that size"
        ),
        "{}",
        err.message
    );
}

#[tokio::test]
async fn an_exchange_naming_an_api_elsewhere_is_refused() {
    for named in [
        "https://copilot.evil.example",
        "http://api.githubcopilot.com",
    ] {
        let (mock, _) = mock(Script {
            api_endpoint: Some(named.to_owned()),
            ..Script::default()
        })
        .await;
        let err = start(&TokenCache::new(), &client(), &mock.url())
            .await
            .unwrap_err();
        assert!(
            matches!(&err, CopilotError::BadEndpoint(e) if e.0 == named),
            "{named}: {err:?}"
        );
        assert!(err.to_string().contains("not a Copilot address"), "{err}");
    }
}
