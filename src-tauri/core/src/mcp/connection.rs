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

/// How many of a program's last stderr lines are kept, and how long each may be.
const STDERR_LINES: usize = 20;
const STDERR_LINE_CHARS: usize = 400;

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
    fn push(&self, line: &str) {
        let mut lines = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if lines.len() == STDERR_LINES {
            lines.pop_front();
        }
        lines.push_back(line.chars().take(STDERR_LINE_CHARS).collect());
    }

    pub fn lines(&self) -> Vec<String> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .cloned()
            .collect()
    }
}

pub struct Connection {
    service: RunningService<RoleClient, ()>,
    tools: Vec<ServerTool>,
    stderr: StderrTail,
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
    pub async fn open(
        config: &ServerConfig,
        secrets: &BTreeMap<String, String>,
        deadline: Duration,
    ) -> Result<Self, McpError> {
        let stderr = StderrTail::default();
        let opening = async {
            let service = match &config.transport {
                Transport::Stdio {
                    command,
                    args,
                    env,
                    cwd,
                    ..
                } => {
                    let transport =
                        stdio_transport(command, args, env, secrets, cwd.as_deref(), &stderr)?;
                    ().serve(transport)
                        .await
                        .map_err(|e| McpError::Handshake(e.to_string()))?
                }
                Transport::Http { url, headers, .. } => {
                    let transport = http_transport(url, headers, secrets)?;
                    ().serve(transport)
                        .await
                        .map_err(|e| McpError::Handshake(e.to_string()))?
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
            Ok::<_, McpError>(Connection {
                service,
                tools,
                stderr: stderr.clone(),
            })
        };
        match tokio::time::timeout(deadline, opening).await {
            Ok(Ok(connection)) => Ok(connection),
            Ok(Err(error)) => Err(error.with_stderr(stderr.lines())),
            Err(_) => Err(McpError::StartTimeout(deadline).with_stderr(stderr.lines())),
        }
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
        let result = match tokio::time::timeout(deadline, self.service.call_tool(params)).await {
            Ok(Ok(result)) => result,
            Ok(Err(error)) => {
                return Err(if self.is_closed() {
                    McpError::Closed(error.to_string()).with_stderr(self.stderr.lines())
                } else {
                    McpError::Call(error.to_string())
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

    /// Ends the session without waiting for it (a call may still hold the connection).
    pub fn cancel(&self) {
        self.service.cancellation_token().cancel();
    }

    /// Ends the session: a program is asked to exit, then stopped.
    pub async fn close(self) {
        let _ = self.service.cancel().await;
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

fn stdio_transport(
    command: &str,
    args: &[String],
    env: &BTreeMap<String, String>,
    secrets: &BTreeMap<String, String>,
    cwd: Option<&str>,
    stderr: &StderrTail,
) -> Result<rmcp::transport::TokioChildProcess, McpError> {
    use process_wrap::tokio::{CommandWrap, ProcessGroup};

    let mut cmd = tokio::process::Command::new(command);
    cmd.args(args);
    for (name, value) in env {
        cmd.env(name, secrets.get(name).unwrap_or(value));
    }
    if let Some(cwd) = cwd.filter(|c| !c.trim().is_empty()) {
        cmd.current_dir(cwd);
    }
    // Its own process group: stopping the server stops what it started (npx starts node).
    let mut wrapped = CommandWrap::from(cmd);
    wrapped.wrap(ProcessGroup::leader());
    let (transport, err) = rmcp::transport::TokioChildProcess::builder(wrapped)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .map_err(|e| McpError::Spawn {
            command: command.to_owned(),
            reason: e.to_string(),
        })?;
    if let Some(err) = err {
        let tail = stderr.clone();
        tokio::spawn(async move {
            use tokio::io::AsyncBufReadExt;
            let mut lines = tokio::io::BufReader::new(err).lines();
            while let Ok(Some(line)) = lines.next_line().await {
                tail.push(&line);
            }
        });
    }
    Ok(transport)
}

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
    let config =
        StreamableHttpClientTransportConfig::with_uri(url.to_owned()).custom_headers(custom);
    Ok(rmcp::transport::StreamableHttpClientTransport::with_client(
        reqwest::Client::new(),
        config,
    ))
}
