//! `ponder-cli chat`: one turn with a real provider (or anything speaking its protocol),
//! thoughts streamed dimmed, then the answer.

use crate::terminal::inert;
use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use ponder_core::chat::{ChatEvent, Part, StopReason, ThoughtSource};
use ponder_core::providers::http::{self, HttpConfig};
use ponder_core::reasoning::{ApiChoice, Caching, Choice};
use ponder_core::run::{
    Ask, Outcome, RecordError, RecordOptions, RecordedEvent, RunEvent, Runner, SetupError,
    run_recorded_with_tools,
};
use ponder_core::store::{Store, StoreError};
use ponder_core::tools::McpTools;
use serde::Serialize;
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::settings::AppSettings;
use crate::{Interrupted, Usage};

#[derive(Debug, Args)]
pub struct ChatArgs {
    /// The provider: anthropic, openai, google, deepseek, … (`ponder-cli models` lists them).
    #[arg(long)]
    pub(crate) provider: String,
    /// MODEL or MODEL/CHOICE, e.g. claude-sonnet-4-5/med.
    #[arg(long)]
    pub(crate) model: String,
    /// Send to this base URL instead of the provider's (a proxy, a local server, a mock).
    /// For Copilot: the GitHub address to sign in at (GitHub Enterprise).
    #[arg(long, value_name = "URL")]
    pub(crate) base_url: Option<String>,
    /// Chat Completions or Responses, where a provider has both.
    #[arg(long, value_enum)]
    pub(crate) api: Option<ApiArg>,
    /// A system prompt.
    #[arg(long)]
    pub(crate) system: Option<String>,
    /// Print the final assistant message as one JSON object instead of streaming text.
    #[arg(long)]
    pub(crate) json: bool,
    /// Seconds of silence from the provider before giving up.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub(crate) idle_timeout: u64,
    /// Continue this stored conversation (`ponder-cli conversations` lists them); without
    /// it, a new conversation is stored.
    #[arg(long, value_name = "ID")]
    pub(crate) conversation: Option<String>,
    /// Show the thoughts but do not keep them in the history.
    #[arg(long)]
    pub(crate) no_store_thoughts: bool,
    /// The thinking level: default, off, minimal, low, medium,
    /// high, max or a token budget. The same as MODEL/CHOICE.
    #[arg(long, value_name = "LEVEL")]
    pub(crate) reasoning: Option<String>,
    /// A JSON file of reasoning overrides, shaped like `{"providers": {…}}`.
    /// Without it, the desktop app's overrides from its settings are used.
    #[arg(long, value_name = "FILE")]
    pub(crate) overrides: Option<PathBuf>,
    /// KEY=VALUE, repeatable: `reasoning=high`, `caching=none`,
    /// `reasoningAutoStreamLevel=medium`.
    #[arg(long = "override", value_name = "KEY=VALUE")]
    pub(crate) overrides_inline: Vec<String>,
    /// Anthropic prompt caching: `full` keeps the cache marker on the last message, `none`
    /// sends no cache directives.
    #[arg(long, value_enum)]
    pub(crate) caching: Option<CachingArg>,
    /// Offer the model the tools of these MCP servers (ids from `ponder-cli mcp list`,
    /// comma-separated or repeated).
    #[arg(long, value_name = "SERVER[,SERVER]", value_delimiter = ',')]
    pub(crate) tools: Vec<String>,
    /// Run the model's tool calls without asking.
    #[arg(long)]
    pub(crate) yes: bool,
    /// The message to send.
    pub(crate) message: String,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub(crate) enum CachingArg {
    Full,
    None,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
pub(crate) enum ApiArg {
    Chat,
    Responses,
}

pub fn chat(args: ChatArgs, store: &Store, settings_file: &Path) -> anyhow::Result<()> {
    turn(args, None, store, settings_file)
}

/// One turn: a new question (`answers` none), or another answer to the stored question
/// `answers` with this model and level for that answer only (a rerun).
pub(crate) fn turn(
    args: ChatArgs,
    answers: Option<&str>,
    store: &Store,
    settings_file: &Path,
) -> anyhow::Result<()> {
    let config = HttpConfig {
        idle_timeout: std::time::Duration::from_secs(args.idle_timeout.max(1)),
        ..HttpConfig::default()
    };
    // Setting up HTTPS reads the system's certificates (milliseconds): done beside the rest of
    // the set-up, on the other core.
    let client = {
        let config = config.clone();
        let base_url = args.base_url.clone();
        std::thread::spawn(move || match base_url {
            Some(url) => http::client_for(&config, &url),
            None => http::client(&config),
        })
    };
    let app = AppSettings::read(settings_file)?;
    let catalog = app.catalog();
    let (model_id, mut choice) = catalog
        .parse_target(Some(&args.provider), &args.model)
        .map_err(|e| Usage(e.to_string()))?;
    let model = catalog
        .resolve(Some(&args.provider), &model_id)
        .map_err(|e| Usage(e.to_string()))?;
    let mut overrides = app.overrides(args.overrides.as_deref())?;
    if let Some(level) = &args.reasoning {
        choice = Some(parse_choice(level)?);
    }
    for flag in &args.overrides_inline {
        let (key, value) = flag
            .split_once('=')
            .ok_or_else(|| Usage(format!("--override takes KEY=VALUE, not {flag:?}")))?;
        let scope = overrides
            .providers
            .entry(model.provider.id.clone())
            .or_default();
        match key.trim() {
            "reasoning" => choice = Some(parse_choice(value)?),
            "caching" => {
                scope.caching = Some(match value.trim() {
                    "full" => Caching::Full,
                    "none" => Caching::None,
                    other => {
                        return Err(Usage(format!("caching is full or none, not {other:?}")).into());
                    }
                })
            }
            "reasoningAutoStreamLevel" => {
                scope.reasoning_auto_stream_level = Some(match parse_choice(value)? {
                    Choice::Level(level) => level,
                    _ => {
                        return Err(Usage(
                            "reasoningAutoStreamLevel is minimal, low, medium, high or max".into(),
                        )
                        .into());
                    }
                })
            }
            other => {
                return Err(Usage(format!(
                    "unknown override {other:?}; use reasoning, caching or reasoningAutoStreamLevel"
                ))
                .into());
            }
        }
    }
    if let Some(caching) = args.caching {
        overrides
            .providers
            .entry(model.provider.id.clone())
            .or_default()
            .caching = Some(match caching {
            CachingArg::Full => Caching::Full,
            CachingArg::None => Caching::None,
        });
    }
    let github_address = args
        .base_url
        .as_deref()
        .or(app.base_url(&model.provider.id))
        .map(str::to_owned);
    let turn = ponder_core::run::setup(
        store,
        &catalog,
        &overrides,
        Ask {
            provider: &model.provider.id,
            model: &model.id,
            text: &args.message,
            conversation_id: args.conversation.as_deref(),
            // A level given here is for this turn; the conversation keeps its own.
            once: choice,
            system: args.system.as_deref(),
            api: args.api.map(|a| match a {
                ApiArg::Chat => ApiChoice::Chat,
                ApiArg::Responses => ApiChoice::Responses,
            }),
            base_url: args
                .base_url
                .as_deref()
                .filter(|_| model.provider.sign_in.is_none()),
            sign_in_at: github_address
                .as_deref()
                .filter(|_| model.provider.sign_in.is_some()),
            answers,
            model_once: answers.is_some(),
            ..Ask::default()
        },
    )
    .map_err(|err| match err {
        SetupError::Store(err) if !matches!(err, StoreError::NotFound { .. }) => {
            anyhow::Error::from(err)
        }
        err => Usage(err.to_string()).into(),
    })?;
    if let (Some(url), Some(_)) = (&args.base_url, &turn.api_key)
        && http::key_travels_in_clear(url)
    {
        eprintln!(
            "warning: {url} is plain http to another machine: your API key crosses the network unencrypted"
        );
    }
    let conversation = &turn.conversation;
    let client = client
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let cancel = CancellationToken::new();
    let mut printer = Printer::new(!args.json);
    let servers = crate::mcp::pick(&app.mcp_servers, &args.tools)?;
    let limits = app.tool_limits();
    let result = runtime.block_on(async {
        let stop = cancel.clone();
        // Ctrl+C cancels the turn and keeps what arrived.
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                stop.cancel();
            }
        });
        let hub = if servers.is_empty() {
            None
        } else {
            Some(crate::mcp::hub(&servers).await)
        };
        let toolbox = match &hub {
            Some(hub) => Some(crate::mcp::toolbox(hub, &args.tools).await?),
            None => None,
        };
        // Copilot: the GitHub token from the keyring is exchanged for a Copilot token, which
        // lives in this process only.
        let tokens = ponder_core::providers::copilot::TokenCache::new();
        // Ctrl+C stops the exchange too, and a silent GitHub is given up on after the idle
        // timeout.
        let copilot = match model.provider.sign_in {
            Some(_) => Some(
                ponder_core::providers::copilot::Session::start(
                    &tokens,
                    &client,
                    ponder_core::providers::copilot::hosts_for(github_address.as_deref())
                        .map_err(copilot_failed)?,
                    turn.api_key.as_deref().unwrap_or_default(),
                    &config,
                    &cancel,
                )
                .await
                .map_err(copilot_failed)?,
            ),
            None => None,
        };
        let renewer = copilot
            .as_ref()
            .map(|s| s.renewer(&tokens, &client, &config, &cancel));
        let mut request = turn.request();
        if let (Some(session), Some(renewer)) = (&copilot, &renewer) {
            request.api_key = Some(&session.credentials.token);
            request.base_url = Some(&session.credentials.api_base);
            request.renew_key = Some(renewer);
        }
        let approver = crate::mcp::TerminalApprover::new(args.yes);
        let host = match (&hub, toolbox) {
            (Some(hub), Some(toolbox)) => Some(McpTools {
                hub,
                toolbox,
                approver: &approver,
                limits,
            }),
            _ => None,
        };
        let result = run_recorded_with_tools(
            Runner {
                client: &client,
                http: &config,
                store,
            },
            &conversation.id,
            turn.question(),
            request,
            host.as_ref()
                .map(|h| h as &dyn ponder_core::tools::ToolHost),
            RecordOptions {
                keep_thoughts: !args.no_store_thoughts,
                max_steps: limits.max_steps,
                ..RecordOptions::default()
            },
            cancel.clone(),
            |event| match event {
                RecordedEvent::Run(event) => printer.on(event),
                RecordedEvent::ToolStarted { call, server } => {
                    printer.end();
                    crate::mcp::report_call(&call.name, server, &call.arguments);
                }
                RecordedEvent::ToolFinished { result } => crate::mcp::report_result(result),
                _ => {}
            },
        )
        .await;
        if let Some(hub) = &hub {
            hub.stop_all().await;
        }
        anyhow::Ok(result)
    })?;
    let (message_id, outcome, unsaved) = match result {
        Ok((id, outcome)) => (Some(id), outcome, None),
        Err(RecordError::Unsaved {
            outcome, source, ..
        }) => (None, *outcome, Some(source)),
        Err(err) => return Err(err.into()),
    };
    eprintln!("conversation {}", conversation.id);
    printer.end();
    let turn = outcome.turn();
    if args.json {
        let out = JsonAnswer {
            conversation: &conversation.id,
            message: message_id.as_deref(),
            provider: &model.provider.id,
            model: &model.id,
            parts: turn.message.parts.iter().map(JsonPart::of).collect(),
            usage: &turn.usage,
            stop_reason: turn.stop.as_ref(),
            error: turn
                .error
                .as_ref()
                .map(|e| json!({"kind": e.kind, "status": e.status, "message": e.message})),
        };
        std::thread::scope(|scope| {
            // The answer is in the history's write-ahead log: folding it into the file (what
            // closing the history does next) copies it again and syncs twice. On the other
            // core, beside the printing; a fold that fails is left to the close, as before.
            let folding = scope.spawn(|| store.checkpoint());
            // Written straight out: the answer is borrowed, never copied into a JSON tree.
            let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
            serde_json::to_writer(&mut stdout, &out)?;
            writeln!(stdout)?;
            stdout.flush()?;
            let _ = folding.join();
            anyhow::Ok(())
        })?;
    }
    if let Some(source) = unsaved {
        anyhow::bail!(
            "the answer above could not be saved to the history ({source}); free some space and ask again"
        );
    }
    match outcome {
        Outcome::Done(_) => Ok(()),
        Outcome::Cancelled(_) => {
            Err(Interrupted("cancelled; the partial answer above is kept".into()).into())
        }
        Outcome::Failed(turn) => {
            let error = turn.error.expect("a failed turn carries its error");
            anyhow::bail!(
                "{} ({}): {}",
                model.provider.name,
                error.kind.as_str(),
                error.message
            )
        }
    }
}

/// What `chat --json` prints.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonAnswer<'a> {
    conversation: &'a str,
    message: Option<&'a str>,
    provider: &'a str,
    model: &'a str,
    parts: Vec<JsonPart<'a>>,
    usage: &'a ponder_core::chat::Usage,
    stop_reason: Option<&'a StopReason>,
    error: Option<Value>,
}

/// A part as `chat --json` prints it, borrowed from the turn (a long thought is megabytes).
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum JsonPart<'a> {
    Text {
        text: &'a str,
    },
    Thinking {
        text: &'a str,
        source: Option<ThoughtSource>,
        #[serde(skip_serializing_if = "Option::is_none")]
        signature: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        redacted: Option<&'a str>,
        #[serde(rename = "durationMs", skip_serializing_if = "Option::is_none")]
        duration_ms: Option<u64>,
    },
    ToolCall {
        id: &'a str,
        name: &'a str,
        arguments: &'a str,
    },
    ToolResult {
        #[serde(rename = "callId")]
        call_id: &'a str,
        name: &'a str,
        #[serde(rename = "isError")]
        is_error: bool,
        text: String,
    },
}

impl<'a> JsonPart<'a> {
    fn of(part: &'a Part) -> Self {
        match part {
            Part::Text { text } => Self::Text { text },
            Part::Thinking(block) => Self::Thinking {
                text: &block.text,
                source: block.source,
                signature: block.signature.as_deref(),
                redacted: block.redacted.as_deref(),
                duration_ms: block.duration_ms,
            },
            Part::ToolCall(call) => Self::ToolCall {
                id: &call.id,
                name: &call.name,
                arguments: &call.arguments,
            },
            Part::ToolResult(result) => Self::ToolResult {
                call_id: &result.call_id,
                name: &result.name,
                is_error: result.is_error,
                text: result.text(),
            },
        }
    }
}

/// How thoughts look in a terminal: dim and italic, apart from the answer.
const THOUGHT: anstyle::Style = anstyle::Style::new().dimmed().italic();

/// Streams to the terminal: feedback and notices on stderr, thoughts dimmed, then the answer.
struct Printer {
    stream: bool,
    color: bool,
    in_thought: bool,
    wrote: bool,
}

impl Printer {
    fn new(stream: bool) -> Self {
        Self {
            stream,
            // A terminal, unless NO_COLOR says otherwise (or CLICOLOR_FORCE insists).
            color: anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never,
            in_thought: false,
            wrote: false,
        }
    }

    fn on(&mut self, event: RunEvent<'_>) {
        match event {
            RunEvent::Plan(plan) => eprintln!("{}", plan.feedback.text()),
            RunEvent::Notice(notice) => eprintln!("note: {}", inert(&notice.to_string())),
            RunEvent::Retry(retry) => eprintln!(
                "retrying in {:.1} s (attempt {}): {}",
                retry.wait.as_secs_f64(),
                retry.attempt + 1,
                inert(&retry.error.message)
            ),
            RunEvent::Chat(event) if self.stream => self.chat(event),
            RunEvent::Chat(_) => {}
        }
    }

    fn chat(&mut self, event: ChatEvent) {
        let mut out = std::io::stdout().lock();
        // A closed stdout (`| head`) is not worth failing the turn for.
        let _ = match event {
            ChatEvent::ThinkingStart { .. } => {
                self.in_thought = true;
                if self.color {
                    write!(out, "{}", THOUGHT.render())
                } else {
                    writeln!(out, "Thinking:")
                }
            }
            // What the model wrote is shown, never acted on by the terminal.
            ChatEvent::ThinkingDelta { text } => write!(out, "{}", inert(&text)),
            ChatEvent::ThinkingRedacted { .. } => writeln!(out, "[redacted thinking]"),
            ChatEvent::ThinkingEnd => {
                self.in_thought = false;
                if self.color {
                    write!(out, "{}\n\n", THOUGHT.render_reset())
                } else {
                    write!(out, "\n\n")
                }
            }
            ChatEvent::TextDelta { text } => {
                self.wrote = true;
                write!(out, "{}", inert(&text))
            }
            _ => Ok(()),
        };
        let _ = out.flush();
    }

    fn end(&mut self) {
        if !self.stream {
            return;
        }
        let mut out = std::io::stdout().lock();
        if self.in_thought && self.color {
            let _ = write!(out, "{}", THOUGHT.render_reset());
        }
        if self.wrote || self.in_thought {
            let _ = writeln!(out);
        }
    }
}

fn parse_choice(text: &str) -> Result<Choice, Usage> {
    text.trim()
        .parse::<Choice>()
        .map_err(|e| Usage(format!("--reasoning: {e}")))
}

/// Ctrl+C while Copilot's token was awaited is an interruption; anything else, what the user
/// must do.
fn copilot_failed(error: ponder_core::providers::copilot::CopilotError) -> anyhow::Error {
    match error {
        ponder_core::providers::copilot::CopilotError::Cancelled => {
            Interrupted("stopped before Copilot answered".into()).into()
        }
        other => Usage(other.to_string()).into(),
    }
}
