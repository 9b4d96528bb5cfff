//! A turn's life, tested once in the core as both faces drive it: `Session::prepare` →
//! `authorize` → `with_tools` → `run`, against the loopback mock provider replaying real
//! recordings, a real MCP server (and one that cannot start), and the mock GitHub and Copilot.
//! What is stored when, what is refused before anything is stored, where each place puts the
//! answer, and that exactly one terminal outcome comes last.
//!
//! Keys come from the environment (the core reads `PONDER_<PROVIDER>_API_KEY` before the
//! keyring), set once for this test binary before any test does anything else.

use std::collections::BTreeMap;
use std::sync::{Arc, Once};
use std::time::Duration;

use ponder_core::catalog::Catalog;
use ponder_core::chat::Role;
use ponder_core::mcp::{Hub, ServerConfig};
use ponder_core::providers::copilot::{CopilotError, TokenCache};
use ponder_core::providers::http::{self, HttpConfig};
use ponder_core::reasoning::{Choice, Overrides};
use ponder_core::run::{
    Ask, Outcome, Place, RecordOptions, RecordedEvent, RunEvent, Runner, Session, SetupError,
};
use ponder_core::store::{MessageStatus, Store};
use ponder_core::tools::{LIMITS, ToolChoice};
use ponder_mock_provider::copilot::{GITHUB_TOKEN, Script};
use ponder_mock_provider::{MockProvider, Reply};
use ponder_tests::framed::{chat_stream, deepseek_calling};
use ponder_tests::mcp::AllowEveryCall;
use serde_json::json;
use tokio_util::sync::CancellationToken;

const FAKE_KEY: &str = "FAKE-key-not-real-5e0b7c";
const ANSWER: &str = "deepseek/pydantic-deepseek-reasoner-stream.sse";

/// Setting the environment is unsafe where another thread may read it at the same time;
/// every test of this binary calls this before it does anything else, and the first call
/// writes while the others wait on the `Once`.
#[allow(unsafe_code)]
fn keys() {
    static SET: Once = Once::new();
    SET.call_once(|| {
        // SAFETY: see above: no other thread of this binary reads the environment meanwhile.
        unsafe {
            std::env::set_var("PONDER_DEEPSEEK_API_KEY", FAKE_KEY);
            std::env::set_var("PONDER_ANTHROPIC_API_KEY", FAKE_KEY);
            std::env::set_var("PONDER_GOOGLE_API_KEY", FAKE_KEY);
            std::env::set_var("PONDER_COPILOT_API_KEY", GITHUB_TOKEN);
        }
    });
}

/// What a face holds while it drives a turn.
struct Face {
    store: Store,
    catalog: &'static Catalog,
    overrides: Overrides,
    client: http::Client,
    http: HttpConfig,
    mock: MockProvider,
    url: String,
}

impl Face {
    async fn new() -> Self {
        keys();
        let http = HttpConfig {
            max_retries: 0,
            idle_timeout: Duration::from_secs(5),
            ..HttpConfig::default()
        };
        let mock = MockProvider::start().await.unwrap();
        Self {
            url: mock.url(),
            mock,
            store: Store::open_in_memory().unwrap(),
            catalog: Catalog::builtin(),
            overrides: Overrides::default(),
            client: http::client(&http).unwrap(),
            http,
        }
    }

    fn ask<'a>(&'a self, text: &'a str, place: Place, conversation: Option<&'a str>) -> Ask<'a> {
        Ask {
            provider: "deepseek",
            model: "deepseek-v4-flash",
            text,
            conversation_id: conversation,
            choice: Some(Choice::HIGH),
            place,
            address: Some(&self.url),
            ..Ask::default()
        }
    }

    fn prepare(&self, ask: Ask<'_>) -> Result<Session, SetupError> {
        Session::prepare(&self.store, self.catalog, &self.overrides, ask)
    }

    fn runner(&self) -> Runner<'_> {
        Runner {
            client: &self.client,
            http: &self.http,
            store: &self.store,
        }
    }

    /// Runs a prepared turn to its end; every event's name, in order, and the outcome.
    async fn run(
        &self,
        session: Session,
        cancel: CancellationToken,
    ) -> (Vec<String>, String, Outcome) {
        let mut heard = Vec::new();
        let store = &self.store;
        let (id, outcome) = session
            .run(
                self.runner(),
                &AllowEveryCall,
                RecordOptions::default(),
                cancel,
                |event| {
                    heard.push(match event {
                        RecordedEvent::Started { message_id, .. } => {
                            // Stored before anyone hears of it: the question, and the answer's row
                            // as it starts to stream.
                            let row = store.message(message_id).unwrap();
                            assert_eq!(row.status, MessageStatus::Streaming);
                            "started".to_owned()
                        }
                        RecordedEvent::Run(RunEvent::Notice(text)) => format!("notice: {text}"),
                        RecordedEvent::Run(_) => "run".to_owned(),
                        RecordedEvent::StepFinished { .. } => "step finished".to_owned(),
                        RecordedEvent::ToolStarted { call, .. } => format!("tool {}", call.name),
                        RecordedEvent::ToolFinished { .. } => "tool finished".to_owned(),
                        RecordedEvent::NextStep { .. } => "next step".to_owned(),
                        RecordedEvent::Finished { message_id, .. } => {
                            let row = store.message(message_id).unwrap();
                            assert_ne!(
                                row.status,
                                MessageStatus::Streaming,
                                "stored before it is told"
                            );
                            "finished".to_owned()
                        }
                    });
                },
            )
            .await
            .unwrap();
        heard.dedup_by(|a, b| a == "run" && b == "run");
        (heard, id, outcome)
    }
}

fn ends_once(heard: &[String]) {
    assert_eq!(
        heard.first().map(String::as_str),
        Some("started"),
        "{heard:?}"
    );
    assert_eq!(
        heard.last().map(String::as_str),
        Some("finished"),
        "{heard:?}"
    );
    assert_eq!(
        heard.iter().filter(|e| *e == "finished").count(),
        1,
        "{heard:?}"
    );
}

#[tokio::test]
async fn a_new_question_is_stored_then_answered_with_one_terminal_outcome() {
    let face = Face::new().await;
    face.mock.push(Reply::fixture(ANSWER).unwrap());
    let session = face
        .prepare(face.ask("What is 17 × 23?", Place::New, None))
        .unwrap();
    let conversation = session.turn().conversation.id.clone();
    assert!(
        face.store.messages(&conversation).unwrap().is_empty(),
        "preparing stores nothing of the turn"
    );
    let (heard, id, outcome) = face.run(session, CancellationToken::new()).await;
    ends_once(&heard);
    assert!(matches!(outcome, Outcome::Done(_)), "{outcome:?}");
    let stored = face.store.messages(&conversation).unwrap();
    let roles: Vec<Role> = stored.iter().map(|m| m.message.role).collect();
    assert_eq!(roles, [Role::User, Role::Assistant]);
    assert_eq!(stored[1].id, id);
    assert_eq!(stored[1].status, MessageStatus::Complete);
    assert!(
        stored[1].message.thinking().next().is_some(),
        "the thoughts are kept"
    );
    let kept = face.store.conversation(&conversation).unwrap();
    assert_eq!(kept.model.as_deref(), Some("deepseek-v4-flash"));
    assert_eq!(kept.settings.choice, Choice::HIGH);
    assert_eq!(kept.title, "What is 17 × 23?");
    let sent = face.mock.requests();
    assert_eq!(sent.len(), 1);
    assert_eq!(
        sent[0].header("authorization"),
        Some(format!("Bearer {FAKE_KEY}").as_str())
    );
}

#[tokio::test]
async fn a_refused_turn_stores_nothing_and_sends_nothing() {
    let face = Face::new().await;
    let empty = face
        .prepare(face.ask("  \n", Place::New, None))
        .unwrap_err();
    assert!(matches!(empty, SetupError::Empty), "{empty:?}");
    let unknown = face
        .prepare(Ask {
            model: "no-such-model-anywhere",
            provider: "no-such-provider",
            ..face.ask("Hello", Place::New, None)
        })
        .unwrap_err();
    assert!(matches!(unknown, SetupError::Model(_)), "{unknown:?}");
    assert!(face.store.list_conversations(true).unwrap().is_empty());

    // An edit of a question from another conversation is refused before either is touched.
    face.mock.push(Reply::fixture(ANSWER).unwrap());
    let first = face.prepare(face.ask("First", Place::New, None)).unwrap();
    let (_, answer, _) = face.run(first, CancellationToken::new()).await;
    let elsewhere = face.store.question_of(&answer).unwrap();
    let other = face.prepare(face.ask("Second", Place::New, None)).unwrap();
    let other_id = other.turn().conversation.id.clone();
    drop(other);
    let edit = face
        .prepare(face.ask("Edited", Place::Edit(elsewhere.id.clone()), Some(&other_id)))
        .unwrap_err();
    assert!(matches!(edit, SetupError::Elsewhere), "{edit:?}");
    assert!(face.store.messages(&other_id).unwrap().is_empty());
    assert_eq!(
        face.mock.requests().len(),
        1,
        "only the first turn was sent"
    );
}

#[tokio::test]
async fn each_place_puts_the_answer_where_it_belongs() {
    let face = Face::new().await;
    for _ in 0..5 {
        face.mock.push(Reply::fixture(ANSWER).unwrap());
    }
    let first = face
        .prepare(face.ask("Why is the sky blue?", Place::New, None))
        .unwrap();
    let conversation = first.turn().conversation.id.clone();
    let (_, answer, _) = face.run(first, CancellationToken::new()).await;
    let question = face.store.question_of(&answer).unwrap().id;
    let shown = |face: &Face| {
        face.store
            .messages(&conversation)
            .unwrap()
            .last()
            .unwrap()
            .id
            .clone()
    };
    let at = |place: Place| face.ask("", place, Some(&conversation));

    // Again: another answer with the conversation's model, shown.
    let again = face.prepare(at(Place::Again(question.clone()))).unwrap();
    let (_, regenerated, _) = face.run(again, CancellationToken::new()).await;
    assert_eq!(shown(&face), regenerated);

    // Once: another model for this answer only; the conversation keeps its own.
    let once = face
        .prepare(Ask {
            model: "deepseek-reasoner",
            ..at(Place::Once(question.clone()))
        })
        .unwrap();
    assert_eq!(once.turn().model.id, "deepseek-reasoner");
    let (_, rerun, _) = face.run(once, CancellationToken::new()).await;
    assert_eq!(shown(&face), rerun);
    let kept = face.store.conversation(&conversation).unwrap();
    assert_eq!(kept.model.as_deref(), Some("deepseek-v4-flash"));

    // Beside: kept as a version, the answer shown stays shown.
    let beside = face.prepare(at(Place::Beside(question.clone()))).unwrap();
    let (_, kept_beside, _) = face.run(beside, CancellationToken::new()).await;
    assert_eq!(shown(&face), rerun);
    assert_eq!(
        face.store.answers_to(&question).unwrap(),
        [answer.clone(), regenerated, rerun, kept_beside]
    );

    // Edit: another version of the question, answered; the first keeps its answers.
    let edit = face
        .prepare(face.ask(
            "Why is the sunset red?",
            Place::Edit(question.clone()),
            Some(&conversation),
        ))
        .unwrap();
    let (_, edited_answer, _) = face.run(edit, CancellationToken::new()).await;
    let path = face.store.messages(&conversation).unwrap();
    assert_eq!(path.len(), 2);
    assert_eq!(path[0].message.text(), "Why is the sunset red?");
    assert_eq!(path[1].id, edited_answer);
    assert_eq!(face.store.answers_to(&question).unwrap().len(), 4);
    // Answering again asked nothing new: one question per version.
    assert_eq!(face.mock.requests().len(), 5);
}

fn missing() -> ServerConfig {
    ServerConfig {
        name: "Missing".into(),
        ..ponder_tests::mcp::stdio("missing", "/nonexistent/ponder-test-server", &[], &[])
    }
}

#[tokio::test]
async fn tools_come_from_the_servers_that_start_and_the_others_are_named_under_the_answer() {
    let face = Face::new().await;
    face.mock.push(chat_stream(&deepseek_calling(
        "echo",
        &json!({ "message": "hi" }),
    )));
    face.mock.push(Reply::fixture(ANSWER).unwrap());
    let hub = Arc::new(Hub::new(
        Arc::new(|_| Ok(BTreeMap::new())),
        Duration::from_secs(30),
    ));
    let servers = [
        ServerConfig {
            name: "Everything".into(),
            ..ponder_tests::mcp::everything()
        },
        missing(),
    ];
    hub.configure(&servers).await;
    let choice = ToolChoice {
        servers: vec!["everything".into(), "missing".into()],
        off: vec!["everything/get-env".into()],
        allowed: Vec::new(),
    };
    let mut session = face
        .prepare(face.ask("Echo hi.", Place::New, None))
        .unwrap();
    let conversation = session.turn().conversation.id.clone();
    session.with_tools(&hub, &servers, &choice, LIMITS).await;
    assert_eq!(
        session.unavailable().len(),
        1,
        "{:?}",
        session.unavailable()
    );
    assert!(session.unavailable()[0].starts_with("Missing's tools are not available: "));

    let (heard, _, outcome) = face.run(session, CancellationToken::new()).await;
    ends_once(&heard);
    assert!(matches!(outcome, Outcome::Done(_)), "{outcome:?}");
    assert!(
        heard[1].starts_with("notice: Missing's tools are not available"),
        "named as soon as the answer starts: {heard:?}"
    );
    for step in ["tool echo", "tool finished", "step finished", "next step"] {
        assert!(heard.iter().any(|e| e == step), "{step}: {heard:?}");
    }
    let offered: Vec<String> = face.mock.requests()[0].json()["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["function"]["name"].as_str().unwrap().to_owned())
        .collect();
    assert!(offered.iter().any(|t| t == "echo"), "{offered:?}");
    assert!(
        !offered.iter().any(|t| t == "get-env"),
        "switched off: {offered:?}"
    );
    let roles: Vec<Role> = face
        .store
        .messages(&conversation)
        .unwrap()
        .iter()
        .map(|m| m.message.role)
        .collect();
    assert_eq!(
        roles,
        [Role::User, Role::Assistant, Role::Tool, Role::Assistant]
    );
    hub.stop_all().await;
}

#[tokio::test]
async fn a_stop_before_the_answer_is_the_outcome_and_keeps_the_question() {
    let face = Face::new().await;
    face.mock.push(Reply::fixture(ANSWER).unwrap());
    let session = face
        .prepare(face.ask("Stop me.", Place::New, None))
        .unwrap();
    let conversation = session.turn().conversation.id.clone();
    let cancel = CancellationToken::new();
    cancel.cancel();
    let (heard, id, outcome) = face.run(session, cancel).await;
    ends_once(&heard);
    assert!(matches!(outcome, Outcome::Cancelled(_)), "{outcome:?}");
    let stored = face.store.messages(&conversation).unwrap();
    assert_eq!(stored[0].message.text(), "Stop me.");
    assert_eq!(
        face.store.message(&id).unwrap().status,
        MessageStatus::Cancelled
    );
}

fn copilot_ask<'a>(face: &'a Face, text: &'a str) -> Ask<'a> {
    Ask {
        provider: "copilot",
        model: "gpt-5.4",
        // Signed in at the mock's GitHub: its address is where the sign-in is, not an API.
        ..face.ask(text, Place::New, None)
    }
}

#[tokio::test]
async fn a_signed_in_provider_gets_its_key_before_anything_is_stored() {
    let face = Face::new().await;
    let copilot = face.mock.serve_copilot(Script {
        interval: 0,
        ..Script::default()
    });
    let tokens = Arc::new(TokenCache::new());

    // Stopped while the key is asked for: the turn never starts, nothing is stored or sent.
    let mut stopped = face.prepare(copilot_ask(&face, "Never asked")).unwrap();
    let stopped_in = stopped.turn().conversation.id.clone();
    let cancel = CancellationToken::new();
    cancel.cancel();
    let err = stopped
        .authorize(&tokens, &face.client, &face.http, &cancel)
        .await
        .unwrap_err();
    assert!(matches!(err, CopilotError::Cancelled), "{err:?}");
    assert!(face.store.messages(&stopped_in).unwrap().is_empty());

    let mut session = face
        .prepare(copilot_ask(&face, "What is 17 × 23?"))
        .unwrap();
    let conversation = session.turn().conversation.id.clone();
    session
        .authorize(&tokens, &face.client, &face.http, &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(copilot.exchanges(), 1);
    assert!(
        face.store.messages(&conversation).unwrap().is_empty(),
        "the key is had before the question is stored"
    );
    let (heard, _, outcome) = face.run(session, CancellationToken::new()).await;
    ends_once(&heard);
    assert!(matches!(outcome, Outcome::Done(_)), "{outcome:?}");
    let asked = face
        .mock
        .requests()
        .into_iter()
        .rfind(|r| r.method == "POST" && !r.path.starts_with("/login"))
        .unwrap();
    let bearer = asked.header("authorization").unwrap();
    assert!(
        bearer.starts_with("Bearer ") && !bearer.contains(GITHUB_TOKEN),
        "{bearer}"
    );

    // The next turn reuses the key it was given.
    let mut next = face.prepare(copilot_ask(&face, "And 18 × 23?")).unwrap();
    next.authorize(&tokens, &face.client, &face.http, &CancellationToken::new())
        .await
        .unwrap();
    assert_eq!(copilot.exchanges(), 1);
}

#[tokio::test]
async fn an_edit_keeps_the_files_of_the_question_it_changes() {
    let mut face = Face::new().await;
    let dir = tempfile::tempdir().unwrap();
    face.store = Store::open(&dir.path().join("ponder.sqlite3")).unwrap();
    let notes = ponder_tests::workspace_root().join("tests/fixtures/attachments/notes.md");
    let stored = face
        .store
        .attachments()
        .unwrap()
        .put_file(&notes, "notes.md")
        .unwrap();
    let file = stored.attachment("notes.md");
    face.mock.push(Reply::fixture(ANSWER).unwrap());
    face.mock.push(Reply::fixture(ANSWER).unwrap());
    let files = [file];
    let first = face
        .prepare(Ask {
            files: &files,
            ..face.ask("What do my notes say?", Place::New, None)
        })
        .unwrap();
    let conversation = first.turn().conversation.id.clone();
    let (_, answer, _) = face.run(first, CancellationToken::new()).await;
    let question = face.store.question_of(&answer).unwrap().id;
    let edit = face
        .prepare(face.ask(
            "What do my notes say about ethanol?",
            Place::Edit(question),
            Some(&conversation),
        ))
        .unwrap();
    face.run(edit, CancellationToken::new()).await;
    let edited = &face.store.messages(&conversation).unwrap()[0];
    assert_eq!(edited.message.text(), "What do my notes say about ethanol?");
    assert_eq!(edited.message.attachments().count(), 1, "the file stays");
    for request in face.mock.requests() {
        let content = &request.json()["messages"][0]["content"];
        assert!(
            content[0]["text"]
                .as_str()
                .unwrap()
                .starts_with("The attached file notes.md:"),
            "{content}"
        );
    }
}

/// A real PNG of `width` × `height`, drawn here.
fn png_of(width: u32, height: u32) -> Vec<u8> {
    let img = image::RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([(x % 256) as u8, (y % 256) as u8, 90])
    });
    let mut out = Vec::new();
    image::DynamicImage::ImageRgb8(img)
        .write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
        .unwrap();
    out
}

fn long_edge(base64: &str) -> u32 {
    use base64::Engine;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(base64)
        .unwrap();
    let (w, h) = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .unwrap()
        .into_dimensions()
        .unwrap();
    w.max(h)
}

/// Answering again, or beside at another model, sends the question's own files, each as
/// that provider takes it: the photo smaller for Anthropic (its 1568-pixel edge), whole for
/// Gemini (whose edge is 3072); the PDF as a document to both.
#[tokio::test]
async fn a_rerun_and_a_compare_send_the_same_files_each_as_its_provider_takes_them() {
    let mut face = Face::new().await;
    let dir = tempfile::tempdir().unwrap();
    face.store = Store::open(&dir.path().join("ponder.sqlite3")).unwrap();
    let files = face.store.attachments().unwrap();
    let photo = files.put(&png_of(2400, 1200), "photo.png").unwrap();
    let pdf = ponder_tests::workspace_root().join("tests/fixtures/attachments/boiling-points.pdf");
    let pdf = files.put_file(&pdf, "boiling-points.pdf").unwrap();
    let given = [
        photo.clone().attachment("photo.png"),
        pdf.clone().attachment("boiling-points.pdf"),
    ];
    for _ in 0..2 {
        face.mock
            .push(Reply::fixture("anthropic/pydantic-sonnet4-thinking-stream.sse").unwrap());
    }
    face.mock
        .push(Reply::fixture("google/pydantic-gemini25-pro-thought-parts-stream.sse").unwrap());
    let claude = |place, conversation| Ask {
        provider: "anthropic",
        model: "claude-sonnet-4-5",
        ..face.ask("What do these show?", place, conversation)
    };
    let first = face
        .prepare(Ask {
            files: &given,
            ..claude(Place::New, None)
        })
        .unwrap();
    let conversation = first.turn().conversation.id.clone();
    let (_, answer, outcome) = face.run(first, CancellationToken::new()).await;
    assert!(matches!(outcome, Outcome::Done(_)), "{outcome:?}");
    let question = face.store.question_of(&answer).unwrap().id;
    let again = face
        .prepare(claude(Place::Again(question.clone()), Some(&conversation)))
        .unwrap();
    face.run(again, CancellationToken::new()).await;
    let beside = face
        .prepare(Ask {
            provider: "google",
            model: "gemini-2.5-pro",
            ..face.ask("", Place::Beside(question), Some(&conversation))
        })
        .unwrap();
    let (_, _, outcome) = face.run(beside, CancellationToken::new()).await;
    assert!(matches!(outcome, Outcome::Done(_)), "{outcome:?}");

    let requests = face.mock.requests();
    assert_eq!(requests.len(), 3);
    for request in &requests[..2] {
        let content = &request.json()["messages"][0]["content"];
        assert_eq!(content[0]["type"], "image");
        assert_eq!(
            long_edge(content[0]["source"]["data"].as_str().unwrap()),
            1568
        );
        assert_eq!(content[1]["type"], "document");
        assert_eq!(content[2]["text"], "What do these show?");
    }
    let parts = &requests[2].json()["contents"][0]["parts"];
    assert_eq!(parts[0]["inlineData"]["mimeType"], "image/png");
    assert_eq!(
        long_edge(parts[0]["inlineData"]["data"].as_str().unwrap()),
        2400
    );
    assert_eq!(parts[1]["inlineData"]["mimeType"], "application/pdf");
    // The stored question keeps the original, whatever was sent.
    let stored = face.store.messages(&conversation).unwrap();
    let kept: Vec<_> = stored[0]
        .message
        .attachments()
        .map(|f| f.sha256.clone())
        .collect();
    assert_eq!(kept, [photo.sha256, pdf.sha256]);
}
