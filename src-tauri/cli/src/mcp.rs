//! `ponder-cli mcp`: the MCP servers of the desktop app's settings — list them, start one and
//! list its tools, call a tool — and the tools and approvals of `ponder-cli chat --tools`.

use crate::terminal::inert;
use std::future::Future;
use std::io::{BufRead, IsTerminal, Write};
use std::pin::Pin;
use std::sync::Arc;

use clap::{Args, Subcommand};
use ponder_core::chat::{ToolContent, ToolResult};
use ponder_core::mcp::{Hub, ServerConfig, hub::START_DEADLINE};
use ponder_core::sync::Locked;
use ponder_core::tools::{ApprovalRequest, Approver, Decision, Permissions};
use serde_json::{Value, json};

use crate::Usage;

#[derive(Debug, Args)]
pub struct McpArgs {
    #[command(subcommand)]
    command: McpCommand,
}

#[derive(Debug, Subcommand)]
enum McpCommand {
    /// The servers in the desktop app's settings.
    List {
        /// Print one JSON array instead of lines of text.
        #[arg(long)]
        json: bool,
    },
    /// Start a server and list its tools.
    Tools {
        /// The server's id (`ponder-cli mcp list` shows them).
        server: String,
        #[arg(long)]
        json: bool,
    },
    /// Call one tool of a server and print what it returns.
    Call {
        server: String,
        tool: String,
        /// The arguments, as a JSON object.
        #[arg(long, value_name = "JSON", default_value = "{}")]
        args: String,
        /// Seconds the call may take.
        #[arg(long, value_name = "SECONDS", default_value_t = 60)]
        timeout: u64,
        #[arg(long)]
        json: bool,
    },
}

/// The hub for the CLI: secrets from the keyring, the given servers configured.
pub async fn hub(servers: &[ServerConfig]) -> Hub {
    let hub = Hub::new(
        Arc::new(ponder_core::mcp::config::keyring_secrets),
        START_DEADLINE,
    );
    // No server starts here: each starts when first used.
    hub.configure(servers).await;
    hub
}

/// A warning on stderr for each server whose secret headers would cross the network
/// unencrypted, as `chat` gives for a provider's key.
pub fn warn_in_clear(servers: &[ServerConfig]) {
    for warning in servers.iter().filter_map(ServerConfig::in_clear_warning) {
        eprintln!("warning: {warning}");
    }
}

/// The servers named, from the settings, or a usage error naming the unknown one. Those whose
/// secrets would travel in clear are warned about.
pub fn pick(servers: &[ServerConfig], ids: &[String]) -> Result<Vec<ServerConfig>, Usage> {
    let picked = pick_quietly(servers, ids)?;
    warn_in_clear(&picked);
    Ok(picked)
}

fn pick_quietly(servers: &[ServerConfig], ids: &[String]) -> Result<Vec<ServerConfig>, Usage> {
    ids.iter()
        .map(|id| {
            servers
                .iter()
                .find(|s| s.id == *id)
                .cloned()
                .ok_or_else(|| {
                    let known: Vec<&str> = servers.iter().map(|s| s.id.as_str()).collect();
                    Usage(format!(
                        "no MCP server {id:?} in the settings (there are: {})",
                        if known.is_empty() {
                            "none".to_owned()
                        } else {
                            known.join(", ")
                        }
                    ))
                })
        })
        .collect()
}

pub fn run(args: McpArgs, servers: &[ServerConfig]) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    match args.command {
        McpCommand::List { json } => {
            warn_in_clear(servers);
            if json {
                let list: Vec<Value> = servers
                    .iter()
                    .map(|s| json!({ "id": s.id, "name": s.name, "enabled": s.enabled, "runs": s.summary(), "secretsInClear": s.secrets_travel_in_clear() }))
                    .collect();
                println!("{}", serde_json::to_string(&list)?);
            } else if servers.is_empty() {
                println!("No MCP servers yet: add one in Ponder's Settings → Tools.");
            } else {
                for s in servers {
                    let off = if s.enabled { "" } else { " (off)" };
                    println!("{}\t{}{off}\t{}", s.id, s.name, s.summary());
                }
            }
        }
        McpCommand::Tools { server, json } => {
            let config = pick(servers, std::slice::from_ref(&server))?;
            let tools = runtime.block_on(async {
                let hub = hub(&[ServerConfig {
                    enabled: true,
                    ..config[0].clone()
                }])
                .await;
                let tools = hub.connection(&server).await.map(|c| c.tools().to_vec());
                hub.stop_all().await;
                tools
            })?;
            if json {
                let list: Vec<Value> = tools
                    .iter()
                    .map(|t| json!({ "name": t.name, "description": t.description, "inputSchema": t.input_schema }))
                    .collect();
                println!("{}", serde_json::to_string(&list)?);
            } else {
                for t in &tools {
                    println!("{}\t{}", inert(&t.name), inert(first_line(&t.description)));
                }
            }
        }
        McpCommand::Call {
            server,
            tool,
            args,
            timeout,
            json,
        } => {
            let arguments = match serde_json::from_str::<Value>(&args) {
                Ok(Value::Object(map)) => map,
                _ => return Err(Usage(format!("--args takes a JSON object, not {args:?}")).into()),
            };
            let config = pick(servers, std::slice::from_ref(&server))?;
            let output = runtime.block_on(async {
                let hub = hub(&[ServerConfig {
                    enabled: true,
                    ..config[0].clone()
                }])
                .await;
                let out = hub
                    .call(
                        &server,
                        &tool,
                        arguments,
                        std::time::Duration::from_secs(timeout.max(1)),
                    )
                    .await;
                hub.stop_all().await;
                out
            })?;
            if json {
                println!(
                    "{}",
                    json!({ "isError": output.is_error, "content": output.content })
                );
            } else {
                for item in &output.content {
                    match item {
                        ToolContent::Text { text } => println!("{}", inert(text)),
                        ToolContent::Image { mime_type, data } => {
                            println!(
                                "[image: {}, {} bytes]",
                                inert(mime_type),
                                data.len() / 4 * 3
                            );
                        }
                    }
                }
            }
            if output.is_error {
                anyhow::bail!("the tool reported an error");
            }
        }
    }
    Ok(())
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or_default()
}

/// Approval in a terminal: `--yes` allows every call; otherwise each call is asked on the
/// terminal, and without one it is denied (a script must say `--yes`).
pub struct TerminalApprover {
    pub yes: bool,
    pub allowed: std::sync::Mutex<Permissions>,
}

impl Approver for TerminalApprover {
    fn approve<'a>(
        &'a self,
        request: &'a ApprovalRequest,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>> {
        Box::pin(async move {
            if self.yes {
                return Decision::AllowOnce;
            }
            let allowed = |p: &Permissions| p.allowed(&request.server, &request.tool);
            if allowed(&self.allowed.locked()) {
                return Decision::AllowOnce;
            }
            if !std::io::stdin().is_terminal() {
                eprintln!(
                    "denied {}/{}: nobody to ask (use --yes to allow tool calls without asking)",
                    request.server, request.tool
                );
                return Decision::Deny;
            }
            let asked = request.clone();
            let decision = tokio::task::spawn_blocking(move || ask(&asked))
                .await
                .unwrap_or(Decision::Deny);
            self.allowed
                .locked()
                .remember(&request.server, &request.tool, decision);
            decision
        })
    }
}

fn ask(request: &ApprovalRequest) -> Decision {
    let mut err = std::io::stderr().lock();
    let arguments = serde_json::to_string_pretty(&request.arguments).unwrap_or_default();
    let _ = writeln!(
        err,
        "\nRun {} from {}?\n{}\n[y] once  [c] for this conversation  [n] no: ",
        inert(&request.tool),
        inert(&request.server),
        inert(&arguments)
    );
    let _ = err.flush();
    let mut line = String::new();
    if std::io::stdin().lock().read_line(&mut line).is_err() {
        return Decision::Deny;
    }
    match line.trim() {
        "y" | "Y" | "yes" => Decision::AllowOnce,
        "c" | "C" => Decision::AllowConversation,
        _ => Decision::Deny,
    }
}

impl TerminalApprover {
    pub fn new(yes: bool) -> Self {
        Self {
            yes,
            allowed: std::sync::Mutex::new(Permissions::default()),
        }
    }
}

/// A line for each call as it runs and as it ends, on stderr.
pub fn report_call(name: &str, server: Option<&str>, arguments: &str) {
    let from = server.map(|s| format!(" ({s})")).unwrap_or_default();
    eprintln!("tool: {}{} {}", inert(name), inert(&from), inert(arguments));
}

pub fn report_result(result: &ToolResult) {
    let text = result.text();
    let shown: String = text.chars().take(200).collect();
    let more = if text.chars().count() > 200 {
        "…"
    } else {
        ""
    };
    let kind = if result.is_error { "error" } else { "result" };
    eprintln!("  {kind}: {}{more}", inert(&shown.replace('\n', " ")));
}
