//! One live MCP server: started (stdio) or reached (Streamable HTTP) through the official
//! Rust SDK, its tools listed, its calls made with a deadline, and — for a program — the last
//! lines it wrote to stderr kept to explain a failure.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rmcp::ServiceExt;
use rmcp::model::{CallToolRequestParams, ContentBlock};
use rmcp::service::{RoleClient, RunningService};
use serde_json::{Map, Value};

use super::McpError;
use super::config::{ServerConfig, Transport};
use crate::chat::ToolContent;
use crate::sync::Locked;

/// How many of a program's last stderr lines are kept, and how long each may be. A line is
/// cut as it is read: a program that writes without end never makes Ponder hold more than
/// this.
const STDERR_LINES: usize = 20;
const STDERR_LINE_CHARS: usize = 400;
/// The bytes of a line kept before it is cut: enough for its characters in any script.
const STDERR_LINE_BYTES: usize = STDERR_LINE_CHARS * 4;
/// How long a program has to exit once its input is closed (then once more after SIGTERM).
const EXIT_GRACE: Duration = Duration::from_secs(3);

/// A tool as its server describes it.
#[derive(Debug, Clone, PartialEq)]
pub struct ServerTool {
    pub name: String,
    pub description: String,
    pub input_schema: Value,
}

/// What a call returned: its content, and whether the tool said it failed.
#[derive(Debug, Clone, PartialEq)]
pub struct CallOutput {
    pub content: Vec<ToolContent>,
    pub is_error: bool,
}

/// The last lines a server wrote to stderr.
#[derive(Debug, Clone, Default)]
pub struct StderrTail(Arc<Mutex<VecDeque<String>>>);

impl StderrTail {
    /// Keeps one line, given as the bytes read of it (at most `STDERR_LINE_BYTES`): bytes that
    /// are not UTF-8 are shown as `�`, and a line that went on is marked with `…`.
    fn push(&self, line: &[u8], cut: bool) {
        let text = String::from_utf8_lossy(line);
        let text = text.strip_suffix('\r').unwrap_or(&text);
        let mut kept: String = text.chars().take(STDERR_LINE_CHARS).collect();
        if cut || kept.len() < text.len() {
            kept.push('…');
        }
        let mut lines = self.0.locked();
        if lines.len() == STDERR_LINES {
            lines.pop_front();
        }
        lines.push_back(kept);
    }

    /// Reads a program's stderr to its end, keeping the last lines. It reads on whatever the
    /// program writes (a program blocked on a full pipe would hang), and holds at most one
    /// cut line besides the kept ones.
    async fn read_from(self, mut stderr: impl tokio::io::AsyncRead + Unpin) {
        use tokio::io::AsyncReadExt;

        let mut chunk = vec![0u8; 8192];
        let mut line = Vec::with_capacity(STDERR_LINE_BYTES);
        let mut cut = false;
        loop {
            let n = match stderr.read(&mut chunk).await {
                Ok(0) | Err(_) => break,
                Ok(n) => n,
            };
            for piece in chunk[..n].split_inclusive(|b| *b == b'\n') {
                let (body, ends) = match piece.strip_suffix(b"\n") {
                    Some(body) => (body, true),
                    None => (piece, false),
                };
                let room = STDERR_LINE_BYTES - line.len();
                cut |= body.len() > room;
                line.extend_from_slice(&body[..body.len().min(room)]);
                if ends {
                    self.push(&line, cut);
                    line.clear();
                    cut = false;
                }
            }
        }
        if !line.is_empty() {
            self.push(&line, cut);
        }
    }

    pub fn lines(&self) -> Vec<String> {
        self.0.locked().iter().cloned().collect()
    }
}

pub struct Connection {
    service: RunningService<RoleClient, ()>,
    tools: Vec<ServerTool>,
    stderr: StderrTail,
    /// The program and everything it started (stdio only).
    process: Option<ProcessGroup>,
    /// Counts the program's messages too large to read (stdio only).
    oversized: tokio::sync::watch::Receiver<u64>,
}

impl std::fmt::Debug for Connection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Connection")
            .field("tools", &self.tools.len())
            .finish_non_exhaustive()
    }
}

impl Connection {
    /// Starts or reaches the server, completes the MCP handshake and lists its tools, all
    /// within `deadline`. `secrets` holds the values of the configuration's secret names.
    /// A program that fails to start or is not ready in time is stopped, with everything it
    /// started, before this returns.
    pub async fn open(
        config: &ServerConfig,
        secrets: &BTreeMap<String, String>,
        deadline: Duration,
    ) -> Result<Self, McpError> {
        let stderr = StderrTail::default();
        let mut process = None;
        let (too_large, oversized) = tokio::sync::watch::channel(0);
        let opening = async {
            let service = match &config.transport {
                Transport::Stdio {
                    command,
                    args,
                    env,
                    cwd,
                    ..
                } => {
                    let (group, stdout, stdin) =
                        spawn_stdio(command, args, env, secrets, cwd.as_deref(), &stderr)?;
                    process = Some(group);
                    let stdout = WatchedStdout {
                        inner: stdout,
                        line: 0,
                        too_large,
                    };
                    ().serve((stdout, stdin))
                        .await
                        .map_err(|e| McpError::Handshake(e.to_string()))?
                }
                Transport::Http { url, headers, .. } => {
                    let transport = http_transport(url, headers, secrets)?;
                    ().serve(transport).await.map_err(|e| {
                        let text = e.to_string();
                        refused_redirect(&text).unwrap_or(McpError::Handshake(text))
                    })?
                }
            };
            let tools = service
                .list_all_tools()
                .await
                .map_err(|e| McpError::Protocol(e.to_string()))?
                .into_iter()
                .map(|tool| ServerTool {
                    name: tool.name.to_string(),
                    description: tool.description.map(|d| d.to_string()).unwrap_or_default(),
                    input_schema: Value::Object((*tool.input_schema).clone()),
                })
                .collect();
            Ok::<_, McpError>((service, tools))
        };
        let opened = tokio::time::timeout(deadline, opening).await;
        let failed = match opened {
            Ok(Ok((service, tools))) => {
                return Ok(Connection {
                    service,
                    tools,
                    stderr,
                    process,
                    oversized,
                });
            }
            Ok(Err(error)) => error,
            Err(_) => McpError::StartTimeout(deadline),
        };
        // Stopped first: its last words are all read once it is gone.
        if let Some(group) = process {
            group.kill().await;
        }
        Err(failed.with_stderr(stderr.lines()))
    }

    pub fn tools(&self) -> &[ServerTool] {
        &self.tools
    }

    pub fn stderr(&self) -> &StderrTail {
        &self.stderr
    }

    /// Whether the server has gone (its process ended, its connection closed).
    pub fn is_closed(&self) -> bool {
        self.service.is_closed() || self.service.peer().is_transport_closed()
    }

    /// Calls a tool and waits at most `deadline` for its answer.
    pub async fn call(
        &self,
        tool: &str,
        arguments: Map<String, Value>,
        deadline: Duration,
    ) -> Result<CallOutput, McpError> {
        let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments);
        let mut oversized = self.oversized.clone();
        oversized.mark_unchanged();
        let answer = tokio::time::timeout(deadline, self.service.call_tool(params));
        // The SDK drops a message over its limit and waits on: without this, a call whose
        // answer was too large would wait out its deadline and be reported as silent.
        let answered = tokio::select! {
            answered = answer => answered,
            Ok(()) = oversized.changed() => return Err(McpError::TooLarge(MAX_MESSAGE_BYTES)),
        };
        let result = match answered {
            Ok(Ok(result)) => result,
            Ok(Err(error)) => {
                let text = error.to_string();
                return Err(if self.is_closed() {
                    McpError::Closed(text).with_stderr(self.stderr.lines())
                } else if let Some(refused) =
                    refused_redirect(&text).filter(|_| self.process.is_none())
                {
                    refused
                } else {
                    McpError::Call(text)
                });
            }
            Err(_) => return Err(McpError::CallTimeout(deadline)),
        };
        let mut content: Vec<ToolContent> = result.content.iter().filter_map(content_of).collect();
        if content.is_empty()
            && let Some(structured) = &result.structured_content
        {
            content.push(ToolContent::Text {
                text: structured.to_string(),
            });
        }
        Ok(CallOutput {
            content,
            is_error: result.is_error.unwrap_or(false),
        })
    }

    /// Ends the session without waiting for it (a call may still hold the connection; the
    /// program is stopped when the last holder lets go).
    pub fn cancel(&self) {
        self.service.cancellation_token().cancel();
    }

    /// Ends the session: a program's input is closed (an MCP server's cue to exit), then it
    /// and everything it started are stopped.
    pub async fn close(self) {
        let _ = self.service.cancel().await;
        if let Some(group) = self.process {
            group.stop().await;
        }
    }
}

/// The largest message the SDK reads from a program (one line of JSON).
const MAX_MESSAGE_BYTES: usize = rmcp::transport::async_rw::DEFAULT_MAX_LINE_LENGTH;

/// A program's standard output on its way to the SDK, watched for lines the SDK will drop
/// for their size: each one bumps the count, so a call waiting on it can end at once.
struct WatchedStdout<R> {
    inner: R,
    /// The bytes of the current line so far.
    line: usize,
    too_large: tokio::sync::watch::Sender<u64>,
}

impl<R: tokio::io::AsyncRead + Unpin> tokio::io::AsyncRead for WatchedStdout<R> {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = std::pin::Pin::new(&mut self.inner).poll_read(cx, buf);
        if polled.is_ready() {
            let mut rest = &buf.filled()[before..];
            while !rest.is_empty() {
                let (body, next) = match memchr::memchr(b'\n', rest) {
                    Some(at) => (&rest[..at], Some(at + 1)),
                    None => (rest, None),
                };
                let was = self.line;
                self.line += body.len();
                if was < MAX_MESSAGE_BYTES && self.line >= MAX_MESSAGE_BYTES {
                    self.too_large.send_modify(|count| *count += 1);
                }
                let Some(next) = next else { break };
                self.line = 0;
                rest = &rest[next..];
            }
        }
        polled
    }
}

/// A started program's process group, and the task reading its stderr. Dropping it kills the
/// group at once, without needing a runtime: a start that is abandoned, or a server replaced
/// after it died, leaves nothing running.
struct ProcessGroup {
    child: Option<Child>,
    stderr_reader: Option<tokio::task::JoinHandle<()>>,
}

type Child = Box<dyn process_wrap::tokio::ChildWrapper>;

impl ProcessGroup {
    /// Waits a moment for the program to exit by itself, then asks the group to terminate,
    /// then kills it. Whatever outlives the program in its group is killed too.
    async fn stop(mut self) {
        if let Some(child) = &mut self.child
            && !exits_in_time(child).await
        {
            #[cfg(unix)]
            let _ = child.signal(tokio::signal::unix::SignalKind::terminate().as_raw_value());
            exits_in_time(child).await;
        }
        self.kill().await;
    }

    /// Kills the group, waits (briefly) for the program's end to be collected and for what it
    /// wrote to stderr to be read.
    async fn kill(mut self) {
        let Some(mut child) = self.child.take() else {
            return;
        };
        let _ = child.start_kill();
        exits_in_time(&mut child).await;
        if let Some(reader) = self.stderr_reader.take() {
            // Ends with the pipe, unless something outside the group still holds it.
            let _ = tokio::time::timeout(EXIT_GRACE, reader).await;
        }
    }
}

async fn exits_in_time(child: &mut Child) -> bool {
    tokio::time::timeout(EXIT_GRACE, child.wait()).await.is_ok()
}

impl Drop for ProcessGroup {
    fn drop(&mut self) {
        if let Some(child) = &mut self.child {
            // Signals the whole group (the program's children included); the program's exit
            // status is collected by the runtime in the background.
            let _ = child.start_kill();
        }
    }
}

fn content_of(block: &ContentBlock) -> Option<ToolContent> {
    match block {
        ContentBlock::Text(text) => Some(ToolContent::Text {
            text: text.text.clone(),
        }),
        ContentBlock::Image(image) => Some(ToolContent::Image {
            mime_type: image.mime_type.clone(),
            data: image.data.clone(),
        }),
        ContentBlock::Audio(audio) => Some(ToolContent::Text {
            text: format!("[audio: {}]", audio.mime_type),
        }),
        ContentBlock::Resource(resource) => Some(ToolContent::Text {
            text: serde_json::to_string(&resource.resource).unwrap_or_default(),
        }),
        ContentBlock::ResourceLink(link) => Some(ToolContent::Text {
            text: format!("[resource: {}]", link.uri),
        }),
        _ => None,
    }
}

/// Environment variables a program gets from Ponder's own environment: what finding
/// programs, a home, a language, temporary files and a display needs (npx and uvx find their
/// caches and settings from `HOME` and the XDG folders), and proxies and certificates for
/// the downloads they make. Nothing else: Ponder's environment may hold API keys
/// (`PONDER_*_API_KEY`), tokens and other secrets no server was given.
const INHERITED_ENV: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "SHELL",
    "LANG",
    "LANGUAGE",
    "TZ",
    "TMPDIR",
    "TEMP",
    "TMP",
    "DISPLAY",
    "WAYLAND_DISPLAY",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "ALL_PROXY",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "NODE_EXTRA_CA_CERTS",
    // Version managers whose shims stand in for `node`, `npx` or `python`.
    "NVM_DIR",
    "VOLTA_HOME",
    "ASDF_DIR",
    "ASDF_DATA_DIR",
    // What a program needs to start at all on Windows.
    "SYSTEMROOT",
    "WINDIR",
    "COMSPEC",
    "PATHEXT",
    "USERPROFILE",
    "APPDATA",
    "LOCALAPPDATA",
    "PROGRAMDATA",
    "PROGRAMFILES",
];

/// Prefixes of inherited names: the locale (`LC_ALL`, `LC_CTYPE`…) and the XDG folders
/// (`XDG_CONFIG_HOME`, `XDG_RUNTIME_DIR`…).
const INHERITED_PREFIXES: &[&str] = &["LC_", "XDG_"];

/// Whether a variable of Ponder's environment is passed on to a program it starts.
fn inherited(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    !upper.starts_with("PONDER_")
        && (INHERITED_ENV.contains(&upper.as_str())
            || INHERITED_PREFIXES.iter().any(|p| upper.starts_with(p)))
}

/// The environment of a program: the inherited variables, then the user's values for this
/// server (secrets from the keyring), which win.
fn program_env(
    own: impl Iterator<Item = (std::ffi::OsString, std::ffi::OsString)>,
    env: &BTreeMap<String, String>,
    secrets: &BTreeMap<String, String>,
) -> Vec<(std::ffi::OsString, std::ffi::OsString)> {
    let mut vars: Vec<(std::ffi::OsString, std::ffi::OsString)> = own
        .filter(|(name, _)| name.to_str().is_some_and(inherited))
        .collect();
    for (name, value) in env {
        vars.push((name.into(), secrets.get(name).unwrap_or(value).into()));
    }
    vars
}

/// Starts a program in its own process group, with its stderr read into `stderr`.
fn spawn_stdio(
    command: &str,
    args: &[String],
    env: &BTreeMap<String, String>,
    secrets: &BTreeMap<String, String>,
    cwd: Option<&str>,
    stderr: &StderrTail,
) -> Result<
    (
        ProcessGroup,
        tokio::process::ChildStdout,
        tokio::process::ChildStdin,
    ),
    McpError,
> {
    use process_wrap::tokio::{CommandWrap, ProcessGroup as Group};
    use std::process::Stdio;

    let spawn_error = |reason: String| McpError::Spawn {
        command: command.to_owned(),
        reason,
    };
    let mut cmd = tokio::process::Command::new(command);
    cmd.args(args)
        .env_clear()
        .envs(program_env(std::env::vars_os(), env, secrets))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    if let Some(cwd) = cwd.filter(|c| !c.trim().is_empty()) {
        cmd.current_dir(cwd);
    }
    // Its own process group: stopping the server stops what it started (npx starts node).
    let mut wrapped = CommandWrap::from(cmd);
    wrapped.wrap(Group::leader());
    let mut child = wrapped.spawn().map_err(|e| spawn_error(e.to_string()))?;
    let pipes = (child.stdout().take(), child.stdin().take());
    let err = child.stderr().take();
    let group = ProcessGroup {
        child: Some(child),
        stderr_reader: err.map(|err| tokio::spawn(stderr.clone().read_from(err))),
    };
    let (Some(stdout), Some(stdin)) = (pipes.0, pipes.1) else {
        return Err(spawn_error(
            "its standard input and output could not be opened".into(),
        ));
    };
    Ok((group, stdout, stdin))
}

/// The redirect a server answered with, when the client would not follow it: the SDK reports
/// the response as `HTTP 3xx …`.
fn refused_redirect(error: &str) -> Option<McpError> {
    let at = error.find("HTTP 3")?;
    let status: u16 = error.get(at + 5..at + 8)?.parse().ok()?;
    Some(McpError::Redirected(status))
}

/// Streamable HTTP through a client that follows redirects only within the server's origin,
/// like the providers' (`providers::http`): the configured headers (secrets among them) and a
/// call's arguments never go to an address the server names.
fn http_transport(
    url: &str,
    headers: &BTreeMap<String, String>,
    secrets: &BTreeMap<String, String>,
) -> Result<rmcp::transport::StreamableHttpClientTransport<reqwest::Client>, McpError> {
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;

    let mut custom = std::collections::HashMap::new();
    for (name, value) in headers {
        let value = secrets.get(name).unwrap_or(value);
        let name = http::HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| McpError::BadHeader(name.clone()))?;
        let value = http::HeaderValue::from_str(value)
            .map_err(|_| McpError::BadHeader(name.to_string()))?;
        custom.insert(name, value);
    }
    let client =
        crate::providers::http::client_for(&crate::providers::http::HttpConfig::default(), url)
            .map_err(|e| McpError::Handshake(e.message))?;
    let config =
        StreamableHttpClientTransportConfig::with_uri(url.to_owned()).custom_headers(custom);
    Ok(rmcp::transport::StreamableHttpClientTransport::with_client(
        client, config,
    ))
}
