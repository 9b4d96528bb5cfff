//! `ponder-cli rerun` and `ponder-cli compare`: answer a stored question again with another
//! model or level (another version beside the others), and the versions' figures side by side.

use std::io::Write;
use std::path::Path;

use clap::Args;
use ponder_core::compare::{VersionFigures, versions};
use ponder_core::prices::Prices;
use ponder_core::run::Place;
use ponder_core::store::{Store, StoreError};

use crate::Usage;
use crate::chat::ChatArgs;

#[derive(Debug, Args)]
pub struct RerunArgs {
    /// The answer (or the question) to answer again; `ponder-cli export ID --format json`
    /// shows the ids.
    message: String,
    /// MODEL/LEVEL for the new answer, e.g. claude-sonnet-4-5/high.
    #[arg(long)]
    model: String,
    /// The model's provider; by default the provider of the answer rerun.
    #[arg(long)]
    provider: Option<String>,
    /// Send to this base URL instead of the provider's.
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// Print the final assistant message as one JSON object instead of streaming text.
    #[arg(long)]
    json: bool,
    /// Seconds of silence from the provider before giving up.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    idle_timeout: u64,
}

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// An answer: it and every other version of it are compared.
    message: String,
    /// Print a JSON array instead of a table.
    #[arg(long)]
    json: bool,
}

fn not_found(e: StoreError) -> anyhow::Error {
    match e {
        StoreError::NotFound { .. } => Usage(e.to_string()).into(),
        e => e.into(),
    }
}

pub fn rerun(args: RerunArgs, store: &Store, settings_file: &Path) -> anyhow::Result<()> {
    store.message(&args.message).map_err(not_found)?;
    let question = store.question_of(&args.message).map_err(not_found)?;
    let provider = match args.provider {
        Some(provider) => provider,
        None => store
            .message(&args.message)?
            .message
            .origin
            .map(|o| o.provider)
            .or(store.conversation(&question.conversation_id)?.provider)
            .ok_or_else(|| Usage("name the model's provider with --provider".into()))?,
    };
    let chat = ChatArgs {
        provider,
        model: args.model,
        base_url: args.base_url,
        api: None,
        system: None,
        json: args.json,
        idle_timeout: args.idle_timeout,
        conversation: Some(question.conversation_id.clone()),
        no_store_thoughts: false,
        reasoning: None,
        overrides: None,
        overrides_inline: Vec::new(),
        caching: None,
        tools: Vec::new(),
        yes: false,
        attach: Vec::new(),
        pdf_as_text: false,
        message: String::new(),
    };
    crate::chat::turn(chat, Place::Once(question.id), store, settings_file)
}

pub fn compare(args: CompareArgs, store: &Store, prices: &Prices) -> anyhow::Result<()> {
    store.message(&args.message).map_err(not_found)?;
    let rows: Vec<VersionFigures> = versions(store, &args.message, prices)
        .map_err(not_found)?
        .into_iter()
        .map(|v| v.figures)
        .collect();
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string(&rows)?)?;
        return Ok(());
    }
    if rows.is_empty() {
        writeln!(out, "No answers yet.")?;
        return Ok(());
    }
    let cell = |n: Option<u32>| n.map_or_else(|| "—".to_owned(), |n| n.to_string());
    let secs = |ms: u64| format!("{:.1} s", ms as f64 / 1000.0);
    let table: Vec<[String; 11]> = rows
        .iter()
        .enumerate()
        .map(|(i, f)| {
            [
                format!("{}", i + 1),
                f.model.clone().unwrap_or_else(|| "—".into()),
                f.choice.map_or_else(|| "—".into(), |c| c.to_string()),
                f.first_token_ms.map_or_else(|| "—".into(), secs),
                f.thinking_ms.map_or_else(|| "—".into(), secs),
                secs(f.total_ms),
                cell(f.usage.input),
                cell(f.usage.output),
                cell(f.usage.reasoning),
                cell(f.usage.cached),
                f.cost.map_or_else(|| "—".into(), |c| format!("${c:.4}")),
            ]
        })
        .collect();
    let head = [
        "#",
        "model",
        "level",
        "first",
        "thought",
        "total",
        "in",
        "out",
        "reasoning",
        "cached",
        "cost",
    ];
    let widths: Vec<usize> = (0..head.len())
        .map(|c| {
            table
                .iter()
                .map(|r| r[c].chars().count())
                .chain([head[c].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: Vec<&str>| -> String {
        cells
            .iter()
            .zip(&widths)
            .enumerate()
            .map(|(c, (text, w))| {
                // Names to the left, figures to the right.
                if (1..=2).contains(&c) {
                    format!("{text:<w$}")
                } else {
                    format!("{text:>w$}")
                }
            })
            .collect::<Vec<_>>()
            .join("  ")
            .trim_end()
            .to_owned()
    };
    writeln!(out, "{}", line(head.to_vec()))?;
    for row in &table {
        writeln!(out, "{}", line(row.iter().map(String::as_str).collect()))?;
    }
    Ok(())
}
