//! API keys go to the address the user chose and nowhere else.

use ponder_core::providers::error::ErrorKind;
use ponder_core::run::Outcome;
use ponder_mock_provider::{MockProvider, Reply};

use crate::support::{FAKE_KEY, THINKING_STREAM, model, turn};

fn redirect_to(location: &str) -> Reply {
    Reply::body(307, "text/plain", "moved").header("location", location)
}

#[tokio::test]
async fn a_key_never_follows_a_redirect_to_another_origin() {
    let elsewhere = MockProvider::start().await.unwrap();
    elsewhere.set_default(Reply::fixture(THINKING_STREAM).unwrap());
    for (provider, id) in [
        ("anthropic", "claude-sonnet-4-5"),
        ("google", "gemini-2.5-flash"),
        ("openai", "gpt-4.1"),
    ] {
        let provider_mock = MockProvider::start().await.unwrap();
        // Another port on this machine, and another host name for it: both another origin.
        let port = elsewhere.addr().port();
        for target in [
            format!("http://127.0.0.1:{port}/v1/messages"),
            format!("http://localhost:{port}/v1/messages"),
        ] {
            provider_mock.push(redirect_to(&target));
            let (outcome, _) = turn(&model(provider, id), &provider_mock.url()).await;
            let Outcome::Failed(turn) = outcome else {
                panic!("{provider}: a cross-origin redirect must fail the turn: {outcome:?}");
            };
            let error = turn.error.unwrap();
            assert_eq!(error.kind, ErrorKind::BadRequest);
            assert!(
                error.message.contains("redirected") && error.message.contains(&target),
                "{}",
                error.message
            );
        }
        provider_mock.shutdown().await;
    }
    let leaked: Vec<_> = elsewhere
        .requests()
        .into_iter()
        .filter(|r| r.headers.iter().any(|(_, v)| v.contains(FAKE_KEY)))
        .collect();
    assert!(
        leaked.is_empty(),
        "the key reached another origin: {leaked:?}"
    );
    assert!(elsewhere.requests().is_empty());
    elsewhere.shutdown().await;
}

#[tokio::test]
async fn a_redirect_within_the_same_origin_is_followed_with_the_key() {
    let mock = MockProvider::start().await.unwrap();
    mock.push(redirect_to(&format!("{}/v2/messages", mock.url())));
    mock.push(Reply::fixture(THINKING_STREAM).unwrap());
    let (outcome, _) = turn(&model("anthropic", "claude-sonnet-4-5"), &mock.url()).await;
    assert!(matches!(outcome, Outcome::Done(_)), "{outcome:?}");
    let requests = mock.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[1].path, "/v2/messages");
    assert!(
        requests
            .iter()
            .all(|r| r.header("x-api-key") == Some(FAKE_KEY))
    );
    mock.shutdown().await;
}
