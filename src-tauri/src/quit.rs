//! Quitting while answers stream: closing the window, a second `exit`, SIGTERM from the
//! session or Ctrl+C in a terminal all stop the running turns, wait until each has stored
//! its outcome (as `cancelled`, with what arrived), stop the MCP servers, and only then exit.

use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use tauri::{AppHandle, Manager};

use crate::state::AppState;
use ponder_core::sync::Locked;

/// The longest quitting waits for running turns to store their outcome.
const STORE_WAIT: Duration = Duration::from_secs(5);

/// Called on every exit request: true when the exit must wait, in which case the running
/// turns have been cancelled and the app exits by itself once they are stored.
pub fn must_wait(app: &AppHandle) -> bool {
    let Some(state) = app.try_state::<AppState>() else {
        return false;
    };
    if state.quitting.swap(true, Ordering::SeqCst) {
        // Already quitting: this is the exit that follows, or a second request meanwhile.
        return false;
    }
    let tokens: Vec<_> = state.runs.locked().values().cloned().collect();
    let servers_up = state.hub.status().iter().any(|s| {
        !matches!(
            s.state,
            ponder_core::mcp::ServerState::Stopped | ponder_core::mcp::ServerState::Failed { .. }
        )
    });
    if tokens.is_empty() && !servers_up {
        return false;
    }
    for token in tokens {
        token.cancel();
    }
    let app = app.clone();
    let hub = state.hub.clone();
    tauri::async_runtime::spawn(async move {
        let started = Instant::now();
        while started.elapsed() < STORE_WAIT && runs_left(&app) > 0 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        // MCP servers run in their own process groups: they are stopped here, with
        // whatever they started, so none outlives Ponder.
        let _ = tokio::time::timeout(SERVERS_WAIT, hub.stop_all()).await;
        app.exit(0);
    });
    true
}

/// The longest quitting waits for MCP servers to stop (each is asked, then made to).
const SERVERS_WAIT: Duration = Duration::from_secs(8);

fn runs_left(app: &AppHandle) -> usize {
    app.state::<AppState>().runs.locked().len()
}

/// SIGTERM (the session ending, `kill`) and SIGINT (Ctrl+C) quit like closing the window.
pub fn on_signals(app: &AppHandle) {
    use tokio::signal::unix::{SignalKind, signal};
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        let (Ok(mut term), Ok(mut int)) = (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        ) else {
            return;
        };
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
        app.exit(0);
    });
}

/// Brings the running window forward when Ponder is launched a second time.
pub fn focus_main_window(app: &AppHandle) {
    if let Some(window) = app.webview_windows().values().next() {
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
    }
}
