//! `ponder-cli`: Ponder's core from the command line, for scripts and for tests.

mod chat;
mod history;
mod import;
mod login;
mod mcp;
mod printer;
mod reasoning;
mod settings;
mod terminal;
mod versions;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use ponder_core::store::Store;
use ponder_core::{About, DataPaths};

#[derive(Debug, Parser)]
#[command(
    name = "ponder-cli",
    version,
    about = "Ponder's core from the command line"
)]
struct Cli {
    /// Use this data directory instead of the one the desktop app uses.
    #[arg(long, global = true, value_name = "DIR")]
    data_dir: Option<PathBuf>,

    /// Use this history database instead of the desktop app's.
    #[arg(long, global = true, value_name = "FILE")]
    db: Option<PathBuf>,

    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Show the version and where data is kept.
    About {
        /// Print one JSON object instead of lines of text.
        #[arg(long)]
        json: bool,
    },
    /// Show what a thinking choice sends to a model's provider (the request preview).
    Translate(reasoning::TranslateArgs),
    /// List the model catalog and what each thinking level means per model.
    Models(reasoning::ModelsArgs),
    /// Send one message to a provider and stream its thoughts and answer (stored).
    Chat(chat::ChatArgs),
    /// Sign in to a provider that is not given a key: `login copilot` (GitHub's device flow).
    Login(login::LoginArgs),
    /// Answer a stored question again with another model or level; the new answer is kept
    /// beside the others.
    Rerun(versions::RerunArgs),
    /// Every version of an answer side by side: model, level, thinking and total time, tokens.
    Compare(versions::CompareArgs),
    /// List stored conversations, pinned first, newest first.
    Conversations(history::ConversationsArgs),
    /// Search the history (add --in-thoughts to search what the models thought too).
    Search(history::SearchArgs),
    /// Drop stored thoughts older than N days, with their signatures.
    PurgeThoughts(history::PurgeArgs),
    /// Export a conversation as Markdown, JSON or HTML, or every conversation as a JSON backup.
    Export(history::ExportArgs),
    /// Import a conversation or a backup exported as JSON, or a ChatGPT or Claude data export
    /// (the .zip as delivered, or its conversations.json).
    Import(import::ImportArgs),
    /// The MCP servers of the desktop app's settings: list them, list a server's tools, call one.
    Mcp(mcp::McpArgs),
    /// Check the history database (SQLite's integrity check); exit 1 when it finds damage.
    Check {
        /// Print one JSON object (`{"ok": true, "report": "ok"}`) instead of the report.
        #[arg(long)]
        json: bool,
    },
}

/// The user stopped the command (Ctrl+C): exit status 130, as a shell reports SIGINT.
#[derive(Debug)]
pub struct Interrupted(pub String);

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Interrupted {}

/// A failure the user can fix by changing the input: exit status 2, one line.
#[derive(Debug)]
pub struct Usage(pub String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// The most stranded messages `check` names; a loop is found by its first few.
const LOOPS_SHOWN: usize = 50;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        // A reader that stops early (`ponder-cli models | head`) is not an error.
        Err(err)
            if err
                .downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(err) => {
            // An error may quote what a provider or a server said.
            eprintln!("ponder-cli: {}", terminal::inert(&format!("{err:#}")));
            if err.is::<Usage>() {
                ExitCode::from(2)
            } else if err.is::<Interrupted>() {
                ExitCode::from(130)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}

fn run(cli: Cli) -> anyhow::Result<()> {
    let paths = || -> anyhow::Result<DataPaths> {
        Ok(match &cli.data_dir {
            Some(dir) => DataPaths::at(dir),
            None => DataPaths::for_current_user()?,
        })
    };
    let store = || -> anyhow::Result<Store> {
        let path = match &cli.db {
            Some(path) => path.clone(),
            None => paths()?.database(),
        };
        Ok(Store::open(&path)?)
    };
    // A history given by path is read with the settings next to it (a copied data
    // directory); otherwise the app's own settings, from where the app keeps them.
    let settings_file = || -> anyhow::Result<PathBuf> {
        Ok(match (&cli.data_dir, &cli.db) {
            (None, Some(db)) => db.with_file_name(ponder_core::paths::SETTINGS_FILE),
            _ => {
                let paths = paths()?;
                // As the app does at start: an earlier version's file moves over once.
                let _ = paths.adopt_old_settings();
                paths.settings()
            }
        })
    };
    match cli.command {
        Command::About { json } => {
            let about = About::new(&paths()?);
            if json {
                println!("{}", serde_json::to_string(&about)?);
            } else {
                println!("{} {}", about.name, about.version);
                println!("data directory: {}", about.data_dir);
                println!("database:       {}", about.database_path);
            }
        }
        Command::Check { json } => {
            let store = store()?;
            let report = store.integrity_check()?;
            // Checked only on a sound file: walking a damaged one may fail on its own.
            let loops = if report == "ok" {
                store.tree_loops(LOOPS_SHOWN)?
            } else {
                Vec::new()
            };
            if json {
                let loops: Vec<_> = loops
                    .iter()
                    .map(|(c, m)| serde_json::json!({ "conversation": c, "message": m }))
                    .collect();
                println!(
                    "{}",
                    serde_json::json!({ "ok": report == "ok" && loops.is_empty(), "report": report, "loops": loops })
                );
            } else {
                println!("{report}");
                for (conversation, message) in &loops {
                    println!(
                        "message {message} of conversation {conversation}: its parents form a loop"
                    );
                }
            }
            if report != "ok" {
                anyhow::bail!("the history database is damaged");
            }
            if !loops.is_empty() {
                anyhow::bail!(
                    "messages of the history form a loop of parents; the app opens such loops when it starts, keeping every message"
                );
            }
        }
        Command::Translate(args) => reasoning::translate(args, &settings_file()?)?,
        Command::Models(args) => reasoning::models(args, &settings_file()?)?,
        Command::Chat(args) => chat::chat(args, &store()?, &settings_file()?)?,
        Command::Login(args) => {
            let settings = settings::AppSettings::read(&settings_file()?)?;
            login::login(args, &settings)?
        }
        Command::Rerun(args) => versions::rerun(args, &store()?, &settings_file()?)?,
        Command::Compare(args) => {
            let settings = settings::AppSettings::read(&settings_file()?)?;
            let prices = ponder_core::prices::Prices::new(&settings.prices);
            versions::compare(args, &store()?, &prices)?
        }
        Command::Mcp(args) => {
            let settings = settings::AppSettings::read(&settings_file()?)?;
            mcp::run(args, &settings.mcp_servers)?
        }
        Command::Conversations(args) => {
            let settings = settings::AppSettings::read(&settings_file()?)?;
            let prices = ponder_core::prices::Prices::new(&settings.prices);
            history::conversations(args, &store()?, &prices)?
        }
        Command::Search(args) => history::search(args, &store()?)?,
        Command::PurgeThoughts(args) => history::purge_thoughts(args, &store()?)?,
        Command::Export(args) => history::export(args, &store()?)?,
        Command::Import(args) => import::import(args, &store()?)?,
    }
    Ok(())
}
