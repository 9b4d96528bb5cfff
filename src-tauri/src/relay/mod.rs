//! A turn's life in the window: the core's turn session runs in a task, its events reach the
//! UI through a channel in batches, approval cards go out in order with them, and exactly one
//! terminal event follows once the history has the outcome.

mod approver;
mod batch;
mod terminal;

use std::sync::{Arc, Mutex};

use ponder_core::providers::http::HttpConfig;
use ponder_core::run::{RecordOptions, Runner, Session};
use ponder_core::store::Store;
use ponder_core::sync::Locked;
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager};
use tokio_util::sync::CancellationToken;

use crate::ipc::StreamEvent;
use crate::settings::Settings;
use crate::state::AppState;

pub use approver::WindowApprover;

/// A run the window can stop: its id, its stop, and the HTTP settings it runs with.
pub struct Run {
    pub id: String,
    pub cancel: CancellationToken,
    pub http: HttpConfig,
}

/// Runs a prepared (and authorized) turn in a task: the conversation's tools are offered,
/// the answer streams to `channel`, and the terminal event follows once it is stored.
pub fn spawn(
    app: AppHandle,
    session: Session,
    run: Run,
    store: Arc<Store>,
    settings: Settings,
    channel: Channel<StreamEvent>,
) {
    let span = tracing::info_span!("turn", run = %run.id);
    let task = async move {
        let mut session = session;
        let batch = Arc::new(Mutex::new(batch::Batch::default()));
        let done = CancellationToken::new();
        // Whatever happens below, even a panic, the flusher stops, the run is forgotten and
        // the UI hears exactly one terminal event.
        let mut guard = terminal::RunGuard {
            app: app.clone(),
            run_id: run.id.clone(),
            done: done.clone(),
            channel: Some(channel.clone()),
        };
        let flusher = batch::flush_until(batch.clone(), channel.clone(), done.clone());
        let state = app.state::<AppState>();
        // The conversation's servers start now (each only once per app run).
        let servers: Vec<_> = settings
            .mcp_servers
            .iter()
            .filter(|s| s.enabled)
            .cloned()
            .collect();
        let choice = session.turn().settings.tools.clone();
        let limits = settings.tool_limits();
        session
            .with_tools(&state.hub, &servers, &choice, limits)
            .await;
        let approver = WindowApprover::new(&app, &run, session.turn(), batch.clone(), &settings);
        let level = session.turn().choice;
        let turn = session.turn();
        tracing::info!(
            conversation = %turn.conversation.id,
            provider = %turn.model.provider.id,
            model = %turn.model.id,
            choice = %level,
            "turn started"
        );
        let started = std::time::Instant::now();
        let runner = Runner {
            client: &state.client,
            http: &run.http,
            store: &store,
        };
        let options = RecordOptions {
            keep_thoughts: settings.store_thoughts,
            ..RecordOptions::default()
        };
        let result = session
            .run(runner, &approver, options, run.cancel.clone(), |event| {
                batch.locked().push(event, &run.id);
            })
            .await;
        log_end(&result, started.elapsed());
        done.cancel();
        let _ = flusher.await;
        for event in batch.locked().drain() {
            let _ = channel.send(event);
        }
        // The request carried the whole history (thoughts and all), now freed.
        crate::heap_trim::give_back_soon();
        crate::indexing::index_soon(store.clone());
        let terminal = terminal::event(result, &store, &state.prices(), level);
        guard.channel = None;
        let _ = channel.send(terminal);
    };
    tauri::async_runtime::spawn(tracing::Instrument::instrument(task, span));
}

/// How a turn ended, for the log: its kind, error code, tokens and time; never its text.
fn log_end(
    result: &Result<(String, ponder_core::run::Outcome), ponder_core::run::RecordError>,
    took: std::time::Duration,
) {
    use ponder_core::run::{Outcome, RecordError};
    let ms = u64::try_from(took.as_millis()).unwrap_or(u64::MAX);
    match result {
        Ok((_, outcome)) => {
            let turn = outcome.turn();
            let ended = match outcome {
                Outcome::Done(_) => "done",
                Outcome::Failed(_) => "failed",
                Outcome::Cancelled(_) => "cancelled",
            };
            let error = turn.error.as_ref().map(|e| e.kind.as_str());
            let status = turn.error.as_ref().and_then(|e| e.status);
            tracing::info!(
                ended,
                error,
                status,
                input_tokens = turn.usage.input,
                output_tokens = turn.usage.output,
                reasoning_tokens = turn.usage.reasoning,
                ms,
                "turn ended"
            );
        }
        Err(RecordError::Unsaved { .. }) => tracing::error!(ms, "turn ended unsaved"),
        Err(RecordError::Store(_)) => {
            tracing::error!(ms, "turn could not start in the history")
        }
    }
}
