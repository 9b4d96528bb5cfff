//! A loopback HTTP/1.1 server that plays the part of an LLM provider.
//!
//! It replays recorded responses (`tests/fixtures/real`) chunk by chunk, injects faults on
//! demand (cuts, stalls, malformed lines, refused connections) and records every request.
//! It does not route: each request gets the next queued [`Reply`] whatever its path, and the
//! path and query are recorded so tests can assert them.
//!
//! ```no_run
//! # async fn demo() -> std::io::Result<()> {
//! use ponder_mock_provider::{MockProvider, Reply};
//! use std::time::Duration;
//!
//! let mock = MockProvider::start().await?;
//! mock.push(
//!     Reply::fixture("anthropic/pydantic-sonnet4-thinking-stream.sse")?
//!         .chunk_size(64)
//!         .delay(Duration::from_millis(5)),
//! );
//! mock.push(Reply::json(429, serde_json::json!({"error": "slow down"})).header("retry-after", "1"));
//! // … point the client at mock.url() …
//! let sent = mock.requests();
//! # let _ = sent;
//! mock.shutdown().await;
//! # Ok(())
//! # }
//! ```
//!
//! Every connection serves one request and is then closed (`Connection: close`). Every socket
//! read and write is bounded by [`IO_TIMEOUT`], and so is a stall, so nothing hangs forever.

pub mod copilot;
mod reply;
mod request;
mod server;

use std::collections::VecDeque;
use std::net::{Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use tokio::net::TcpListener;
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub use reply::{MALFORMED_NDJSON_LINE, MALFORMED_SSE_LINE, Reply};
pub use request::RecordedRequest;

/// The bound on every socket operation (and on how long a stalled reply stays silent).
pub const IO_TIMEOUT: Duration = Duration::from_secs(30);

/// Where the recorded provider responses are: `PONDER_FIXTURES_DIR` when set, else
/// `tests/fixtures/real` of the checkout this was built from. The variable matters because
/// one target directory may serve several checkouts, and a binary built in another would
/// read that checkout's files (or none, once it is gone).
pub fn fixtures_dir() -> PathBuf {
    std::env::var_os("PONDER_FIXTURES_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fixtures/real"))
}

type Hook = Arc<dyn Fn(&RecordedRequest) + Send + Sync>;
type Router = Arc<dyn Fn(&RecordedRequest) -> Option<Reply> + Send + Sync>;

#[derive(Default)]
struct State {
    /// Replies waiting, each for any request or only for one method.
    queue: VecDeque<(Option<&'static str>, Reply)>,
    default: Option<Reply>,
    requests: Vec<RecordedRequest>,
    hook: Option<Hook>,
    /// Answers the requests it knows before the queue is asked (a service with routes).
    router: Option<Router>,
    /// Each body piece written: the body bytes sent so far, and when.
    pieces: Vec<(usize, Instant)>,
}

pub(crate) struct Shared {
    state: Mutex<State>,
    pub(crate) open: AtomicUsize,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panicking hook must not take the whole mock down with it.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Notes that a piece of `len` body bytes has just been written.
    pub(crate) fn piece_sent(&self, len: usize) {
        let mut state = self.lock();
        let so_far = state.pieces.last().map_or(0, |(n, _)| *n) + len;
        state.pieces.push((so_far, Instant::now()));
    }

    /// Records the request and picks its reply: the next queued one, else the default.
    pub(crate) fn take_reply(&self, request: RecordedRequest) -> Option<Reply> {
        let router = self.lock().router.clone();
        if let Some(reply) = router.and_then(|route| route(&request)) {
            let hook = {
                let mut state = self.lock();
                state.requests.push(request.clone());
                state.hook.clone()
            };
            if let Some(hook) = hook {
                hook(&request);
            }
            return Some(reply);
        }
        let (reply, hook) = {
            let mut state = self.lock();
            state.requests.push(request.clone());
            let next = state
                .queue
                .iter()
                .position(|(method, _)| method.is_none_or(|m| m == request.method));
            let reply = next
                .and_then(|at| state.queue.remove(at))
                .map(|(_, reply)| reply)
                .or_else(|| state.default.clone());
            (reply, state.hook.clone())
        };
        if let Some(hook) = hook {
            hook(&request);
        }
        reply
    }
}

/// A running mock provider on `127.0.0.1`. Dropping it stops it too (without waiting).
pub struct MockProvider {
    addr: SocketAddr,
    shared: Arc<Shared>,
    shutdown: watch::Sender<bool>,
    task: Option<JoinHandle<()>>,
}

impl MockProvider {
    /// Starts a mock on `127.0.0.1` on a free port.
    pub async fn start() -> std::io::Result<MockProvider> {
        MockProvider::start_on(0).await
    }

    /// Starts a mock on `127.0.0.1:port` (`0` = any free port).
    pub async fn start_on(port: u16) -> std::io::Result<MockProvider> {
        let listener = TcpListener::bind((Ipv4Addr::LOCALHOST, port)).await?;
        let addr = listener.local_addr()?;
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            open: AtomicUsize::new(0),
        });
        let (shutdown, stop) = watch::channel(false);
        let task = tokio::spawn(server::accept_loop(listener, shared.clone(), stop));
        Ok(MockProvider {
            addr,
            shared,
            shutdown,
            task: Some(task),
        })
    }

    /// `http://127.0.0.1:PORT`, no trailing slash.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The bound address.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Queues a reply. Replies are served in order, one per request.
    pub fn push(&self, reply: Reply) {
        self.shared.lock().queue.push_back((None, reply));
    }

    /// Queues a reply for the next POST only: a client's GETs (a model list) pass it by.
    pub fn push_for_post(&self, reply: Reply) {
        self.shared.lock().queue.push_back((Some("POST"), reply));
    }

    /// The reply served whenever the queue is empty. Without one, such a request gets a 404
    /// with a JSON error body saying no reply was queued.
    pub fn set_default(&self, reply: Reply) {
        self.shared.lock().default = Some(reply);
    }

    /// How many pushed replies have not been served yet.
    pub fn pending(&self) -> usize {
        self.shared.lock().queue.len()
    }

    /// Every request received so far, in order (including refused ones and ones answered 404).
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.lock().requests.clone()
    }

    /// When each body piece was written, as (body bytes sent so far, instant), across all
    /// replies served: for measuring what a client had received at a given moment.
    pub fn pieces_sent(&self) -> Vec<(usize, Instant)> {
        self.shared.lock().pieces.clone()
    }

    /// How many client connections are open right now. Drops to 0 once every client has
    /// gone away, which lets a test check that a cancelled stream really closed its
    /// connection (poll it: the server notices the close asynchronously).
    pub fn open_connections(&self) -> usize {
        self.shared.open.load(Ordering::SeqCst)
    }

    /// Calls `hook` with each request once it has been read in full, before it is answered.
    /// Replaces any previous hook. The hook runs on the connection's task: keep it short.
    pub fn on_request(&self, hook: impl Fn(&RecordedRequest) + Send + Sync + 'static) {
        self.shared.lock().hook = Some(Arc::new(hook));
    }

    /// Answers the requests `route` knows (it returns a reply) before the queue is asked:
    /// a service with several endpoints, such as GitHub and Copilot (`copilot::CopilotMock`).
    pub fn set_router(
        &self,
        route: impl Fn(&RecordedRequest) -> Option<Reply> + Send + Sync + 'static,
    ) {
        self.shared.lock().router = Some(Arc::new(route));
    }

    /// Serves GitHub's sign-in and the Copilot API as `script` says, at this address.
    pub fn serve_copilot(&self, script: copilot::Script) -> copilot::CopilotMock {
        let mock = copilot::CopilotMock::new(script);
        mock.set_base(&self.url());
        let routes = mock.clone();
        self.set_router(move |request| routes.route(request));
        mock
    }

    /// Stops accepting, ends every open connection (stalled ones included) and waits for
    /// the server's tasks to finish.
    pub async fn shutdown(mut self) {
        self.shutdown.send_replace(true);
        if let Some(task) = self.task.take() {
            let _ = task.await;
        }
    }
}

impl Drop for MockProvider {
    fn drop(&mut self) {
        self.shutdown.send_replace(true);
    }
}

impl std::fmt::Debug for MockProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MockProvider")
            .field("addr", &self.addr)
            .field("pending", &self.pending())
            .finish_non_exhaustive()
    }
}
