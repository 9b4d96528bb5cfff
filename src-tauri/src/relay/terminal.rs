//! The one terminal event a run ends with: the stored answer read back, or why there is
//! none; and the guard that still sends one when the run's task fails.

use ponder_core::prices::Prices;
use ponder_core::reasoning::Choice;
use ponder_core::run::{Outcome, RecordError};
use ponder_core::store::Store;
use ponder_core::sync::Locked;
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager};
use tokio_util::sync::CancellationToken;

use crate::error::{IpcError, IpcErrorCode};
use crate::ipc::{MessageView, StreamEvent};
use crate::state::AppState;

/// What the window hears once the outcome is stored (or could not be).
pub fn event(
    result: Result<(String, Outcome), RecordError>,
    store: &Store,
    prices: &Prices,
    choice: Choice,
) -> StreamEvent {
    match result {
        Ok((message_id, outcome)) => {
            let message = store
                .message(&message_id)
                .map(|m| MessageView::new(&m, prices))
                .ok();
            match (&outcome, message) {
                (Outcome::Done(_), Some(message)) => StreamEvent::Done { message },
                (Outcome::Cancelled(_), Some(message)) => StreamEvent::Cancelled { message },
                (outcome, message) => StreamEvent::Error {
                    error: outcome.turn().error.as_ref().map_or_else(
                        || {
                            IpcError::new(
                                IpcErrorCode::Internal,
                                "The answer could not be read back.",
                            )
                        },
                        IpcError::from,
                    ),
                    message,
                },
            }
        }
        // The answer ran but could not be written: it is shown from memory, with why.
        Err(RecordError::Unsaved {
            message_id,
            outcome,
            source,
        }) => StreamEvent::Error {
            error: IpcError::new(
                IpcErrorCode::Storage,
                format!(
                    "This answer could not be saved ({source}). It is shown here until you close Ponder; free some disk space and ask again to keep it."
                ),
            ),
            message: Some(MessageView::unsaved(
                &message_id,
                &outcome,
                choice,
                Vec::new(),
            )),
        },
        Err(RecordError::Store(err)) => StreamEvent::Error {
            error: IpcError::from(err),
            message: None,
        },
    }
}

/// Ends a run's bookkeeping when its task ends, however it ends.
pub struct RunGuard {
    pub app: AppHandle,
    pub run_id: String,
    pub done: CancellationToken,
    /// Still set when no terminal event has been sent.
    pub channel: Option<Channel<StreamEvent>>,
}

impl Drop for RunGuard {
    fn drop(&mut self) {
        self.done.cancel();
        if let Some(channel) = self.channel.take() {
            let _ = channel.send(StreamEvent::Error {
                error: IpcError::new(
                    IpcErrorCode::Internal,
                    "Ponder failed while running this answer; what had arrived is kept.",
                ),
                message: None,
            });
        }
        self.app
            .state::<AppState>()
            .runs
            .locked()
            .remove(&self.run_id);
    }
}
