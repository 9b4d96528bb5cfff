//! `import`: a conversation, a backup, or another app's whole history. On a terminal a progress
//! bar shows how far it has come; Ctrl+C stops it between two conversations, keeping those
//! already imported.

use std::io::{IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use ponder_core::import::{ImportError, ImportReport, Interrupted, Progress, Watch};
use ponder_core::store::Store;
use serde_json::json;

use crate::Usage;

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// Print one JSON object (`{"conversations": N, "messages": N, "updated": N, "unchanged":
    /// N}`) instead of a sentence, and no progress bar.
    #[arg(long)]
    json: bool,
    /// A conversation or a backup exported from Ponder (.json or .zip), or a ChatGPT or Claude
    /// data export (the .zip as delivered, or its conversations.json).
    file: std::path::PathBuf,
}

pub fn import(args: ImportArgs, store: &Store) -> anyhow::Result<()> {
    let cancel = Arc::new(AtomicBool::new(false));
    stop_on_ctrl_c(Arc::clone(&cancel))?;
    let bar = (!args.json && std::io::stderr().is_terminal()).then(progress_bar);
    let mut tell = |p: Progress| {
        if let Some(bar) = &bar {
            bar.set_length(p.total);
            bar.set_position(p.read);
            bar.set_message(format!("{} conversation(s)", p.conversations));
        }
    };
    let result =
        ponder_core::import::import_file(store, &args.file, &mut Watch::new(&mut tell, &cancel));
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    match result {
        Ok(report) => print(&report, None, args.json),
        Err(stopped) => {
            let kept = stopped.done != ImportReport::default();
            if kept || args.json {
                print(&stopped.done, Some(&stopped), args.json)?;
            }
            Err(failure(&args.file, stopped))
        }
    }
}

/// Ctrl+C sets `cancel`: the import stops after the conversation it is reading.
fn stop_on_ctrl_c(cancel: Arc<AtomicBool>) -> anyhow::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()?;
    std::thread::spawn(move || {
        runtime.block_on(async {
            if tokio::signal::ctrl_c().await.is_ok() {
                cancel.store(true, Ordering::Relaxed);
            }
        });
    });
    Ok(())
}

fn progress_bar() -> ProgressBar {
    let bar = ProgressBar::new(0);
    bar.set_style(
        ProgressStyle::with_template(
            "Importing {wide_bar} {binary_bytes}/{binary_total_bytes} · {msg} · {eta} left",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

fn print(report: &ImportReport, stopped: Option<&Interrupted>, json: bool) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if json {
        let mut object = json!({
            "conversations": report.conversations,
            "messages": report.messages,
            "updated": report.updated,
            "unchanged": report.unchanged,
        });
        if let Some(stopped) = stopped {
            object["stopped"] = json!(stopped.error.to_string());
        }
        writeln!(out, "{object}")?;
        return Ok(());
    }
    let mut line = format!(
        "Imported {} conversation(s) with {} message(s).",
        report.conversations, report.messages
    );
    if report.updated > 0 {
        line.push_str(&format!(
            " {} already here had new messages.",
            report.updated
        ));
    }
    if report.unchanged > 0 {
        line.push_str(&format!(
            " {} already here were unchanged.",
            report.unchanged
        ));
    }
    writeln!(out, "{line}")?;
    Ok(())
}

/// What stopped the import, as the command's error: Ctrl+C exits as an interrupt does; a file
/// the history cannot be read from is the user's to fix.
fn failure(file: &std::path::Path, stopped: Interrupted) -> anyhow::Error {
    match &*stopped.error {
        ImportError::Cancelled => crate::Interrupted(stopped.to_string()).into(),
        ImportError::Unreadable { .. } => Usage(stopped.to_string()).into(),
        ImportError::Store(_) => anyhow::Error::new(stopped),
        _ => Usage(format!("{}: {stopped}", file.display())).into(),
    }
}
