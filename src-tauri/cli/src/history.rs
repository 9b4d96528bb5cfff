//! `conversations`, `search` and `purge-thoughts`: the stored history from the command line.

use crate::terminal::inert;
use std::io::Write;

use clap::Args;
use ponder_core::store::{SearchScope, Store};
use serde_json::json;

use crate::Usage;

#[derive(Debug, Args)]
pub struct ConversationsArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    /// Include archived conversations.
    #[arg(long)]
    all: bool,
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// The words to look for (every word must appear; each matches as a prefix).
    query: String,
    /// Search what the models thought as well as what was said.
    #[arg(long)]
    in_thoughts: bool,
    #[arg(long)]
    json: bool,
    #[arg(long, default_value_t = 50)]
    limit: usize,
}

#[derive(Debug, Args)]
pub struct PurgeArgs {
    /// Drop the thoughts of messages older than this many days.
    #[arg(long, value_name = "DAYS")]
    older_than: u32,
    /// Print one JSON object (`{"messages": N, "bytesFreed": N}`) instead of a sentence.
    #[arg(long)]
    json: bool,
}

/// The conversations, each with what its answers took (every version included).
pub fn conversations(
    args: ConversationsArgs,
    store: &Store,
    prices: &ponder_core::prices::Prices,
) -> anyhow::Result<()> {
    let list = store.list_conversations(args.all)?;
    let mut totals = store.all_conversation_totals(prices)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let list: Vec<serde_json::Value> = list
            .into_iter()
            .map(|c| {
                let mut row = serde_json::to_value(&c).unwrap_or_default();
                row["totals"] = serde_json::to_value(totals.remove(&c.id).unwrap_or_default())
                    .unwrap_or_default();
                row
            })
            .collect();
        writeln!(out, "{}", serde_json::to_string(&list)?)?;
        return Ok(());
    }
    if list.is_empty() {
        writeln!(out, "No conversations yet.")?;
    }
    for c in list {
        let pin = if c.pinned { "📌 " } else { "" };
        let model = c.model.as_deref().unwrap_or("-");
        let t = totals.remove(&c.id).unwrap_or_default();
        let cost = t.cost.map(|d| format!(", ${d:.4}")).unwrap_or_default();
        writeln!(
            out,
            "{}  {pin}{}  ({}, {} messages; thought {:.1} s, {} thinking / {} output tokens{cost})",
            c.id,
            inert(&c.title),
            inert(model),
            c.message_count,
            t.thinking_ms as f64 / 1000.0,
            t.thinking_tokens,
            t.output_tokens,
        )?;
    }
    Ok(())
}

pub fn search(args: SearchArgs, store: &Store) -> anyhow::Result<()> {
    let scope = if args.in_thoughts {
        SearchScope::TextAndThoughts
    } else {
        SearchScope::Text
    };
    let hits = store.search(&args.query, scope, args.limit)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&hits)?)?;
        return Ok(());
    }
    if hits.is_empty() {
        writeln!(out, "No matches.")?;
    }
    for hit in hits {
        let place = if hit.in_thoughts {
            " (in thoughts)"
        } else {
            ""
        };
        writeln!(
            out,
            "{}  {}{place}\n    {}",
            hit.conversation_id,
            inert(&hit.conversation_title),
            inert(&hit.snippet)
        )?;
    }
    Ok(())
}

pub fn purge_thoughts(args: PurgeArgs, store: &Store) -> anyhow::Result<()> {
    if args.older_than == 0 {
        return Err(Usage("--older-than must be at least 1 day".into()).into());
    }
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX));
    let before = now - i64::from(args.older_than) * 86_400_000;
    let (messages, bytes) = store.purge_thoughts(before)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let report = json!({ "messages": messages, "bytesFreed": bytes });
        writeln!(out, "{report}")?;
    } else {
        writeln!(
            out,
            "Removed the thoughts of {messages} messages, freeing {bytes} bytes."
        )?;
    }
    Ok(())
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    /// The conversation to export (omit with --all).
    id: Option<String>,
    #[arg(long, value_enum, default_value_t = Format::Md)]
    format: Format,
    /// How Markdown and HTML show the thoughts.
    #[arg(long, value_enum, default_value_t = ThoughtsArg::Details)]
    thoughts: ThoughtsArg,
    /// Leave the tool calls and their results out of Markdown and HTML.
    #[arg(long)]
    no_tools: bool,
    /// Markdown and HTML: every version of the answers and questions, after the path the
    /// conversation shows (JSON always keeps every version).
    #[arg(long)]
    every_version: bool,
    /// Every conversation, as one JSON backup.
    #[arg(long)]
    all: bool,
    /// Write here instead of standard output.
    #[arg(short = 'o', long, value_name = "FILE")]
    output: Option<std::path::PathBuf>,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Format {
    /// Markdown.
    #[value(alias = "markdown")]
    Md,
    /// The whole conversation, thoughts and signatures included, as Ponder reads it back.
    Json,
    /// One page that opens in any browser.
    Html,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum ThoughtsArg {
    /// Folded under a summary the reader opens.
    Details,
    /// Always visible, before each answer.
    Section,
    /// Left out.
    Omit,
}

pub fn export(args: ExportArgs, store: &Store) -> anyhow::Result<()> {
    use ponder_core::export::{self, Thoughts};

    let text = if args.all {
        // Named .zip, the backup keeps its files as themselves beside its JSON.
        if let Some(path) = args
            .output
            .as_ref()
            .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("zip")))
        {
            let file = std::fs::File::create(path)
                .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?;
            export::backup_zip(store, std::io::BufWriter::new(file))?;
            return Ok(());
        }
        export::backup_json(store)?
    } else {
        let id = args
            .id
            .clone()
            .ok_or_else(|| Usage("name the conversation to export, or pass --all".into()))?;
        let thoughts = match args.thoughts {
            ThoughtsArg::Details => Thoughts::Details,
            ThoughtsArg::Section => Thoughts::Section,
            ThoughtsArg::Omit => Thoughts::Omit,
        };
        let conversation = store.conversation(&id).map_err(|e| Usage(e.to_string()))?;
        let options = export::TranscriptOptions {
            thoughts,
            tools: !args.no_tools,
            every_version: args.every_version,
        };
        match args.format {
            // JSON keeps everything, every version included.
            Format::Json => export::json_with_files(
                &conversation,
                &store.all_messages(&id)?,
                store.attachments(),
            ),
            Format::Md => transcript(store, &id, export::Transcript::Markdown, options, &args)?,
            Format::Html => transcript(store, &id, export::Transcript::Html, options, &args)?,
        }
    };
    match args.output {
        Some(path) => std::fs::write(&path, text)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))?,
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(())
}

/// A transcript; written to a file, its attached files go in a folder beside it
/// (`<name> files/`), which it links to.
fn transcript(
    store: &Store,
    id: &str,
    kind: ponder_core::export::Transcript,
    options: ponder_core::export::TranscriptOptions,
    args: &ExportArgs,
) -> anyhow::Result<String> {
    use ponder_core::export;
    let Some(path) = &args.output else {
        return Ok(export::transcript(store, id, kind, options)?);
    };
    let folder = export::files::folder_for(path);
    let name = folder
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let (text, links) = export::transcript_with_files(store, id, kind, options, Some(&name))?;
    if let Some(files) = store.attachments() {
        links
            .write_beside(files, &folder)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", folder.display()))?;
    }
    Ok(text)
}
