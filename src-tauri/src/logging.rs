//! The app's log, for bug reports: `$XDG_STATE_HOME/dev.ponder.desktop/logs/ponder.log.<date>`,
//! one file a day, the last seven kept; warnings and errors also go to stderr.
//!
//! What may be written is narrow on purpose: command names, ids, providers, models, figures and
//! error codes. Never a key, a token, a prompt, a thought or an answer — an `IpcError` is
//! logged as its code alone (its message can quote a provider), panics by their place alone
//! (a payload can quote a string being sliced). `PONDER_LOG` takes a filter such as
//! `ponder_app=debug` for more.

use tracing::level_filters::LevelFilter;
use tracing_appender::rolling::{RollingFileAppender, Rotation};
use tracing_subscriber::filter::Targets;
use tracing_subscriber::fmt::format::FmtSpan;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{Layer, fmt};

/// Days of log kept.
const KEEP_FILES: usize = 7;

/// Starts the log. Without a state directory (no home) or one that cannot be written, the app
/// still runs and logs to stderr alone.
pub fn init() {
    let filter = std::env::var("PONDER_LOG")
        .ok()
        .and_then(|spec| spec.parse::<Targets>().ok())
        .unwrap_or_else(|| {
            Targets::new()
                .with_default(LevelFilter::WARN)
                .with_target("ponder_app", LevelFilter::INFO)
        });
    let file = ponder_core::paths::log_dir().and_then(|dir| {
        RollingFileAppender::builder()
            .rotation(Rotation::DAILY)
            .filename_prefix("ponder.log")
            .max_log_files(KEEP_FILES)
            .build(dir)
            .ok()
    });
    let to_file = file.map(|file| {
        // A line as each command returns, with its time: what the window asked, in order.
        fmt::layer()
            .with_writer(file)
            .with_ansi(false)
            .with_span_events(FmtSpan::CLOSE)
            .with_filter(filter.clone())
    });
    let to_stderr = fmt::layer()
        .with_writer(std::io::stderr)
        .with_filter(LevelFilter::WARN);
    // A second start in one process (tests) keeps the first.
    let _ = tracing_subscriber::registry()
        .with(to_file)
        .with(to_stderr)
        .try_init();
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let place = info
            .location()
            .map(|l| format!("{}:{}", l.file(), l.line()))
            .unwrap_or_default();
        tracing::error!(%place, "panic");
        previous(info);
    }));
    tracing::info!(version = ponder_core::about::VERSION, "Ponder started");
}
