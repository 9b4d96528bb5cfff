//! `ponder-cli chat`: one turn with a real provider (or anything speaking its protocol),
//! thoughts streamed dimmed, then the answer.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use ponder_core::catalog::Catalog;
use ponder_core::catalog::ModelInfo;
use ponder_core::chat::Attachment;
use ponder_core::mcp::ServerConfig;
use ponder_core::providers::error::ProviderError;
use ponder_core::providers::http::{self, HttpConfig};
use ponder_core::reasoning::overrides::ProviderOverrides;
use ponder_core::reasoning::{ApiChoice, Caching, Choice, Overrides};
use ponder_core::run::{
    Ask, Outcome, Place, RecordError, RecordOptions, RecordedEvent, Runner, Session, SetupError,
    TurnSetup,
};
use ponder_core::store::{Store, StoreError};
use ponder_core::tools::{Limits, ToolChoice};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use crate::printer::{JsonAnswer, JsonPart, Printer};
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
    /// Give the model a file with the message: an image (PNG, JPEG, GIF, WebP), a PDF or a
    /// text file. Repeatable.
    #[arg(long = "attach", value_name = "FILE")]
    pub(crate) attach: Vec<PathBuf>,
    /// Send an attached PDF as its text to a model that reads no PDFs (its tables, pictures
    /// and layout may be lost)
    #[arg(long)]
    pub(crate) pdf_as_text: bool,
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

impl ApiArg {
    fn choice(self) -> ApiChoice {
        match self {
            Self::Chat => ApiChoice::Chat,
            Self::Responses => ApiChoice::Responses,
        }
    }
}

pub fn chat(args: ChatArgs, store: &Store, settings_file: &Path) -> anyhow::Result<()> {
    turn(args, Place::New, store, settings_file)
}

/// One turn at `place`: a new question, or another answer to a stored question with this
/// model and level for that answer only (a rerun).
pub(crate) fn turn(
    args: ChatArgs,
    place: Place,
    store: &Store,
    settings_file: &Path,
) -> anyhow::Result<()> {
    let config = HttpConfig {
        idle_timeout: std::time::Duration::from_secs(args.idle_timeout.max(1)),
        ..HttpConfig::default()
    };
    let client = client_beside(&config, args.base_url.clone());
    let app = AppSettings::read(settings_file)?;
    let catalog = app.catalog();
    let target = Target::read(&args, &app, &catalog)?;
    let files = attach(store, &args.attach)?;
    let ask = Ask {
        provider: &target.model.provider.id,
        model: &target.model.id,
        text: &args.message,
        files: &files,
        pdf_as_text: args.pdf_as_text,
        conversation_id: args.conversation.as_deref(),
        // A level given here is for this turn; the conversation keeps its own.
        once: target.choice,
        place,
        system: args.system.as_deref(),
        api: args.api.map(ApiArg::choice),
        address: target.address.as_deref(),
        ..Ask::default()
    };
    let session =
        Session::prepare(store, &catalog, &target.overrides, ask).map_err(setup_failed)?;
    warn_key_in_clear(args.base_url.as_deref(), session.turn());
    let conversation = session.turn().conversation.id.clone();
    let client = client
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))?;
    let servers = crate::mcp::pick(&app.mcp_servers, &args.tools)?;
    let runner = Runner {
        client: &client,
        http: &config,
        store,
    };
    let mut printer = Printer::new(!args.json);
    let running = drive(
        session,
        &args,
        &servers,
        app.tool_limits(),
        runner,
        &mut printer,
    );
    let result = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?
        .block_on(running)?;
    eprintln!("conversation {conversation}");
    printer.end();
    report(result, &args, &conversation, &target.model, store)
}

/// The files `--attach` names, stored by their content (before anything else is, so a file
/// that cannot be sent stops the turn at once).
fn attach(store: &Store, paths: &[PathBuf]) -> anyhow::Result<Vec<Attachment>> {
    if paths.is_empty() {
        return Ok(Vec::new());
    }
    let files = store
        .attachments()
        .ok_or_else(|| anyhow::anyhow!("this history keeps no files"))?;
    paths
        .iter()
        .map(|path| {
            let name = path.file_name().map_or_else(
                || path.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            );
            let stored = files
                .put_file(path, &name)
                .map_err(|e| Usage(format!("--attach: {e}")))?;
            Ok(stored.attachment(&name))
        })
        .collect()
}

/// Setting up HTTPS reads the system's certificates (milliseconds): done beside the rest of
/// the set-up, on the other core.
fn client_beside(
    config: &HttpConfig,
    base_url: Option<String>,
) -> std::thread::JoinHandle<Result<http::Client, ProviderError>> {
    let config = config.clone();
    std::thread::spawn(move || match base_url {
        Some(url) => http::client_for(&config, &url),
        None => http::client(&config),
    })
}

fn warn_key_in_clear(base_url: Option<&str>, turn: &TurnSetup) {
    if let (Some(url), Some(_)) = (base_url, &turn.api_key)
        && http::key_travels_in_clear(url)
    {
        eprintln!(
            "warning: {url} is plain http to another machine: your API key crosses the network unencrypted"
        );
    }
}

/// The model, level and overrides a turn runs with, from the flags over the settings.
struct Target {
    model: ModelInfo,
    choice: Option<Choice>,
    overrides: Overrides,
    /// `--base-url`; for a provider one signs in to, the address signed in at (the flag,
    /// else the settings').
    address: Option<String>,
}

impl Target {
    fn read(args: &ChatArgs, app: &AppSettings, catalog: &Catalog) -> anyhow::Result<Self> {
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
        let scope = overrides
            .providers
            .entry(model.provider.id.clone())
            .or_default();
        for flag in &args.overrides_inline {
            if let Some(level) = apply_override(scope, flag)? {
                choice = Some(level);
            }
        }
        if let Some(caching) = args.caching {
            scope.caching = Some(match caching {
                CachingArg::Full => Caching::Full,
                CachingArg::None => Caching::None,
            });
        }
        let address = match model.provider.sign_in {
            Some(_) => args
                .base_url
                .as_deref()
                .or(app.base_url(&model.provider.id)),
            None => args.base_url.as_deref(),
        }
        .map(str::to_owned);
        Ok(Self {
            model,
            choice,
            overrides,
            address,
        })
    }
}

/// One `--override KEY=VALUE` into the provider's overrides; `reasoning=…` is the level.
fn apply_override(scope: &mut ProviderOverrides, flag: &str) -> Result<Option<Choice>, Usage> {
    let (key, value) = flag
        .split_once('=')
        .ok_or_else(|| Usage(format!("--override takes KEY=VALUE, not {flag:?}")))?;
    match key.trim() {
        "reasoning" => return parse_choice(value).map(Some),
        "caching" => {
            scope.caching = Some(match value.trim() {
                "full" => Caching::Full,
                "none" => Caching::None,
                other => return Err(Usage(format!("caching is full or none, not {other:?}"))),
            })
        }
        "reasoningAutoStreamLevel" => {
            scope.reasoning_auto_stream_level = Some(match parse_choice(value)? {
                Choice::Level(level) => level,
                _ => {
                    return Err(Usage(
                        "reasoningAutoStreamLevel is minimal, low, medium, high or max".into(),
                    ));
                }
            })
        }
        other => {
            return Err(Usage(format!(
                "unknown override {other:?}; use reasoning, caching or reasoningAutoStreamLevel"
            )));
        }
    }
    Ok(None)
}

/// A store error other than a missing conversation or message is the history's; the rest is
/// what the user asked for.
fn setup_failed(err: SetupError) -> anyhow::Error {
    match err {
        SetupError::Store(err) if !matches!(err, StoreError::NotFound { .. }) => err.into(),
        err @ SetupError::PdfUnread { .. } => {
            Usage(format!("{err}: give --pdf-as-text to send its text")).into()
        }
        err => Usage(err.to_string()).into(),
    }
}

/// The turn itself: Ctrl+C stops it (keeping what arrived), Copilot's key is exchanged, the
/// named servers' tools are offered, and the servers are stopped once it ends.
async fn drive(
    mut session: Session,
    args: &ChatArgs,
    servers: &[ServerConfig],
    limits: Limits,
    runner: Runner<'_>,
    printer: &mut Printer,
) -> anyhow::Result<Result<(String, Outcome), RecordError>> {
    let cancel = CancellationToken::new();
    let stop = cancel.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            stop.cancel();
        }
    });
    // The Copilot token lives in this process only.
    let tokens = Arc::new(ponder_core::providers::copilot::TokenCache::new());
    session
        .authorize(&tokens, runner.client, runner.http, &cancel)
        .await
        .map_err(copilot_failed)?;
    let hub = match servers {
        [] => None,
        servers => Some(Arc::new(crate::mcp::hub(servers).await)),
    };
    if let Some(hub) = &hub {
        let choice = ToolChoice {
            servers: args.tools.clone(),
            ..ToolChoice::default()
        };
        session.with_tools(hub, servers, &choice, limits).await;
    }
    let approver = crate::mcp::TerminalApprover::new(args.yes);
    let options = RecordOptions {
        keep_thoughts: !args.no_store_thoughts,
        ..RecordOptions::default()
    };
    let result = session
        .run(runner, &approver, options, cancel, |event| match event {
            RecordedEvent::Run(event) => printer.on(event),
            RecordedEvent::ToolStarted { call, server } => {
                printer.end();
                crate::mcp::report_call(&call.name, server, &call.arguments);
            }
            RecordedEvent::ToolFinished { result } => crate::mcp::report_result(result),
            _ => {}
        })
        .await;
    if let Some(hub) = &hub {
        hub.stop_all().await;
    }
    Ok(result)
}

/// Prints the answer as JSON when asked, and says how the turn ended: the exit status is
/// the outcome's.
fn report(
    result: Result<(String, Outcome), RecordError>,
    args: &ChatArgs,
    conversation: &str,
    model: &ModelInfo,
    store: &Store,
) -> anyhow::Result<()> {
    let (message_id, outcome, unsaved) = match result {
        Ok((id, outcome)) => (Some(id), outcome, None),
        Err(RecordError::Unsaved {
            outcome, source, ..
        }) => (None, *outcome, Some(source)),
        Err(err) => return Err(err.into()),
    };
    if args.json {
        let turn = outcome.turn();
        let out = JsonAnswer {
            conversation,
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
