//! The tool-loop figure: Ponder's own time per step of a 25-step tool loop, the provider's and
//! the tool's time taken out.
//!
//! One real turn runs as the desktop app runs it (`Session::prepare` → `with_tools` → `run`,
//! on a multi-threaded tokio runtime), with its history in a real SQLite file, against the
//! loopback mock provider and the real "everything" MCP server over stdio. The model
//! (Anthropic, `claude-sonnet-4-5`, thinking high) calls the server's `echo` in each of 24
//! steps and answers in the 25th: the default step limit, run to its end.
//!
//! The wall time of `run` is measured, and from it taken out: each request's time at the
//! provider (from the mock having read it in full to the last piece of its reply written) and
//! each call's time (from `ToolStarted` to `ToolFinished`). What is left is Ponder's own:
//! building and sending each request, decoding the stream, storing every step, and passing the
//! calls and results on. It is divided by the 25 steps.
//!
//! `cargo bench -p ponder-tests --bench tool_loop`: a warm-up run, then 7 counted runs; the
//! median run's figures are printed as `bench: NAME VALUE UNIT`. `PONDER_BENCH_SHORT=1`: one
//! counted run (`./.ci/bench --short` only checks that the figures are printed).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use ponder_core::catalog::Catalog;
use ponder_core::chat::{Role, ToolContent};
use ponder_core::mcp::Hub;
use ponder_core::providers::http::{self, HttpConfig};
use ponder_core::reasoning::{Choice, Overrides};
use ponder_core::run::{Ask, Outcome, Place, RecordOptions, RecordedEvent, Runner, Session};
use ponder_core::store::Store;
use ponder_core::tools::{LIMITS, ToolChoice};
use ponder_mock_provider::{MockProvider, Reply};
use ponder_tests::framed::{anthropic_stream, real};
use ponder_tests::mcp::AllowEveryCall;
use serde_json::json;
use tokio_util::sync::CancellationToken;

const STEPS: usize = LIMITS.max_steps;
const FAKE_KEY: &str = "FAKE-bench-key-not-real";

/// Setting the environment is unsafe where another thread may read it at the same time:
/// `main` calls this first, before the runtime or anything else starts a thread.
#[allow(unsafe_code)]
fn key() {
    // SAFETY: see above: this process has one thread yet.
    unsafe { std::env::set_var("PONDER_ANTHROPIC_API_KEY", FAKE_KEY) };
}

/// One run's times.
#[derive(Clone, Copy)]
struct Figures {
    wall: Duration,
    provider: Duration,
    tool: Duration,
}

impl Figures {
    fn own(&self) -> Duration {
        self.wall - self.provider - self.tool
    }

    fn own_ms_per_step(&self) -> f64 {
        ms(self.own()) / STEPS as f64
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// The mock's replies: the real recording of Sonnet thinking, then calling a tool, for each
/// step but the last, then a real streamed answer. The recording is edited only in its call's
/// name, arguments and id (one id a step, as the API gives).
fn replies() -> Vec<Reply> {
    let recorded = real("anthropic/pydantic-sonnet4-thinking-tool-use.json");
    let mut replies: Vec<Reply> = (1..STEPS)
        .map(|n| {
            let mut message = recorded.clone();
            let content = message["content"].as_array_mut().unwrap();
            let call = content
                .iter_mut()
                .find(|block| block["type"] == "tool_use")
                .expect("the recording calls a tool");
            call["id"] = json!(format!("{}-{n}", call["id"].as_str().unwrap()));
            call["name"] = json!("echo");
            call["input"] = json!({ "message": format!("step {n}") });
            anthropic_stream(&message)
        })
        .collect();
    replies.push(Reply::fixture("anthropic/pydantic-sonnet4-thinking-stream.sse").unwrap());
    replies
}

/// Each request's time at the provider: from its arrival to the last piece of body written
/// before the next request arrived.
fn provider_time(arrivals: &[Instant], pieces: &[Instant]) -> Duration {
    arrivals
        .iter()
        .enumerate()
        .map(|(i, &arrived)| {
            let next = arrivals.get(i + 1);
            let last = pieces
                .iter()
                .filter(|&&p| p >= arrived && next.is_none_or(|&n| p < n))
                .max()
                .unwrap_or_else(|| panic!("request {} got no body", i + 1));
            *last - arrived
        })
        .sum()
}

/// One whole turn on a fresh history file and mock; panics unless it ran all 25 steps.
async fn run_once(hub: &Arc<Hub>) -> Figures {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join(ponder_core::paths::DATABASE_FILE)).unwrap();
    let mock = MockProvider::start().await.unwrap();
    for reply in replies() {
        mock.push(reply);
    }
    let arrivals = Arc::new(Mutex::new(Vec::new()));
    let heard = arrivals.clone();
    mock.on_request(move |_| heard.lock().unwrap().push(Instant::now()));
    // No retries: a failed request must fail the run, not be hidden in its time.
    let http = HttpConfig {
        max_retries: 0,
        ..HttpConfig::default()
    };
    let client = http::client(&http).unwrap();
    let url = mock.url();

    let mut session = Session::prepare(
        &store,
        Catalog::builtin(),
        &Overrides::default(),
        Ask {
            provider: "anthropic",
            model: "claude-sonnet-4-5",
            text: "Echo each step.",
            choice: Some(Choice::HIGH),
            place: Place::New,
            address: Some(&url),
            ..Ask::default()
        },
    )
    .unwrap();
    let conversation = session.turn().conversation.id.clone();
    let servers = [ponder_tests::mcp::everything()];
    let choice = ToolChoice {
        servers: vec!["everything".into()],
        off: Vec::new(),
        allowed: Vec::new(),
    };
    session.with_tools(hub, &servers, &choice, LIMITS).await;
    assert!(
        session.unavailable().is_empty(),
        "{:?}",
        session.unavailable()
    );

    let runner = Runner {
        client: &client,
        http: &http,
        store: &store,
    };
    // A call's window holds Ponder's own check of its arguments and the approval too
    // (microseconds), counted as the tool's.
    let mut started = Vec::with_capacity(STEPS);
    let mut finished = Vec::with_capacity(STEPS);
    let begun = Instant::now();
    let (_, outcome) = session
        .run(
            runner,
            &AllowEveryCall,
            RecordOptions::default(),
            CancellationToken::new(),
            |event| match event {
                RecordedEvent::ToolStarted { .. } => started.push(Instant::now()),
                RecordedEvent::ToolFinished { .. } => finished.push(Instant::now()),
                _ => {}
            },
        )
        .await
        .unwrap();
    let wall = begun.elapsed();

    assert!(
        matches!(outcome, Outcome::Done(_)),
        "the loop did not end with an answer: {outcome:?}"
    );
    let requests = mock.requests();
    assert!(
        requests.len() == STEPS && requests.iter().all(|r| r.method == "POST"),
        "{STEPS} POST requests should have reached the mock, not {:?}",
        requests.iter().map(|r| &r.method).collect::<Vec<_>>()
    );
    let stored = store.messages(&conversation).unwrap();
    let roles: Vec<Role> = stored.iter().map(|m| m.message.role).collect();
    let mut expected = vec![Role::User];
    for _ in 1..STEPS {
        expected.extend([Role::Assistant, Role::Tool]);
    }
    expected.push(Role::Assistant);
    assert_eq!(
        roles,
        expected,
        "the stored turn should be the question, {STEPS} steps and {} results",
        STEPS - 1
    );
    for (n, message) in (1..).zip(stored.iter().filter(|m| m.message.role == Role::Tool)) {
        let results: Vec<_> = message.message.tool_results().collect();
        let echoed = matches!(
            results.as_slice(),
            [result] if !result.is_error && result.content.iter().any(
                |c| matches!(c, ToolContent::Text { text } if text.ends_with(&format!("step {n}")))
            )
        );
        assert!(echoed, "step {n}'s call was not echoed: {results:?}");
    }
    assert!(
        started.len() == STEPS - 1 && finished.len() == STEPS - 1,
        "{} calls started and {} finished, not {}",
        started.len(),
        finished.len(),
        STEPS - 1
    );

    let tool = started.iter().zip(&finished).map(|(s, f)| *f - *s).sum();
    let pieces: Vec<Instant> = mock.pieces_sent().into_iter().map(|(_, at)| at).collect();
    let provider = provider_time(&arrivals.lock().unwrap(), &pieces);
    mock.shutdown().await;
    Figures {
        wall,
        provider,
        tool,
    }
}

fn main() {
    key();
    let runs = if std::env::var_os("PONDER_BENCH_SHORT").is_some() {
        1
    } else {
        7
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut figures = runtime.block_on(async {
        // One hub for every run, as the app keeps one: a server starts once, not per turn.
        let hub = Arc::new(Hub::new(
            Arc::new(|_| Ok(BTreeMap::new())),
            Duration::from_secs(30),
        ));
        hub.configure(&[ponder_tests::mcp::everything()]).await;
        run_once(&hub).await;
        let mut figures = Vec::with_capacity(runs);
        for run in 1..=runs {
            let f = run_once(&hub).await;
            eprintln!(
                "tool_loop run {run}: own {:.2} ms/step, wall {:.1} ms, provider {:.1} ms, tool {:.1} ms",
                f.own_ms_per_step(),
                ms(f.wall),
                ms(f.provider),
                ms(f.tool)
            );
            figures.push(f);
        }
        hub.stop_all().await;
        figures
    });
    figures.sort_by_key(Figures::own);
    let median = figures[figures.len() / 2];
    let slowest = figures[figures.len() - 1];
    println!("bench: tool_loop_steps {STEPS}");
    println!(
        "bench: tool_loop_own_ms_per_step {:.1} ms",
        median.own_ms_per_step()
    );
    println!(
        "bench: tool_loop_own_ms_per_step_slowest {:.1} ms",
        slowest.own_ms_per_step()
    );
    println!("bench: tool_loop_wall_ms {:.1} ms", ms(median.wall));
    println!("bench: tool_loop_provider_ms {:.1} ms", ms(median.provider));
    println!("bench: tool_loop_tool_ms {:.1} ms", ms(median.tool));
}
