//! A run's events on their way to the window: waiting in a batch, with consecutive deltas of
//! one kind joined, and sent by a flusher (the first event after a pause at once, then one
//! message per `BATCH_EVERY` at most).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use ponder_core::chat::ChatEvent;
use ponder_core::run::{RecordedEvent, RunEvent};
use ponder_core::sync::Locked;
use tauri::ipc::Channel;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::ipc::{PartView, StreamEvent};

/// The least time between two sends to the UI: often enough that a token waits at most
/// half a frame for its send, seldom enough that a fast stream is not one message per token.
const BATCH_EVERY: Duration = Duration::from_millis(8);

/// Sends what the batch holds whenever it is woken, at most once per `BATCH_EVERY`, until
/// `done`; what is left then is the caller's to send.
pub fn flush_until(
    batch: Arc<Mutex<Batch>>,
    channel: Channel<StreamEvent>,
    done: CancellationToken,
) -> tauri::async_runtime::JoinHandle<()> {
    let wake = batch.locked().wake.clone();
    tauri::async_runtime::spawn(async move {
        loop {
            tokio::select! {
                () = done.cancelled() => break,
                () = wake.notified() => {}
            }
            for event in batch.locked().drain() {
                // A closed window cannot be told; the run still finishes and is stored.
                let _ = channel.send(event);
            }
            // What arrives meanwhile waits for the next send (its wake is kept).
            tokio::select! {
                () = done.cancelled() => break,
                () = tokio::time::sleep(BATCH_EVERY) => {}
            }
        }
    })
}

/// Now, in ms since the Unix epoch (the clock the webview's `performance.timeOrigin` uses).
fn epoch_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// Events waiting for the next send, with consecutive deltas of one kind joined. Each new
/// entry wakes the sender, so the first event after a pause goes at once and what follows
/// within `BATCH_EVERY` goes together.
#[derive(Default)]
pub struct Batch {
    pending: Vec<StreamEvent>,
    wake: Arc<Notify>,
}

impl Batch {
    /// An event made outside the turn (an approval card), in order with the turn's own.
    pub fn push_event(&mut self, event: StreamEvent) {
        self.pending.push(event);
        self.wake.notify_one();
    }

    pub fn push(&mut self, event: RecordedEvent<'_>, run_id: &str) {
        let event = match event {
            RecordedEvent::Started {
                user_message_id,
                message_id,
            } => StreamEvent::Started {
                run_id: run_id.to_owned(),
                user_message_id: user_message_id.to_owned(),
                message_id: message_id.to_owned(),
            },
            RecordedEvent::Finished { .. } => return,
            RecordedEvent::StepFinished { message_id } => StreamEvent::StepFinished {
                message_id: message_id.to_owned(),
            },
            RecordedEvent::ToolStarted { call, server } => StreamEvent::ToolStarted {
                call_id: call.id.clone(),
                name: call.name.clone(),
                server: server.map(str::to_owned),
                arguments: call.arguments.clone(),
            },
            RecordedEvent::ToolFinished { result } => StreamEvent::ToolFinished {
                result: PartView::from(&ponder_core::chat::Part::ToolResult(result.clone())),
            },
            RecordedEvent::NextStep {
                tool_message_id,
                message_id,
            } => StreamEvent::NextStep {
                tool_message_id: tool_message_id.to_owned(),
                message_id: message_id.to_owned(),
            },
            RecordedEvent::Run(RunEvent::Plan(plan)) => StreamEvent::Plan {
                feedback: plan.feedback.text(),
                warnings: plan.warnings.clone(),
                meaning: plan.meaning.clone(),
                notes: ponder_core::run::turn_notes(plan),
            },
            RecordedEvent::Run(RunEvent::Notice(text)) => StreamEvent::Notice { text },
            RecordedEvent::Run(RunEvent::Retry(retry)) => StreamEvent::Retry {
                attempt: retry.attempt,
                wait_ms: u64::try_from(retry.wait.as_millis()).unwrap_or(u64::MAX),
                message: retry.error.message,
            },
            RecordedEvent::Run(RunEvent::Chat(chat)) => match chat {
                ChatEvent::ThinkingStart { source } => StreamEvent::ThinkingStart { source },
                ChatEvent::ThinkingDelta { text } => StreamEvent::ThinkingDelta { text, at: 0.0 },
                ChatEvent::ThinkingEnd => StreamEvent::ThinkingEnd,
                ChatEvent::ThinkingRedacted { .. } => StreamEvent::ThinkingRedacted,
                ChatEvent::TextDelta { text } => StreamEvent::TextDelta { text, at: 0.0 },
                ChatEvent::ToolCall(call) => StreamEvent::ToolCall { name: call.name },
                ChatEvent::Usage(usage) => StreamEvent::Usage { usage },
                // Signatures and provider data never cross IPC; stop and error come as the
                // terminal event once stored.
                ChatEvent::ThinkingSignature { .. }
                | ChatEvent::ThinkingData { .. }
                | ChatEvent::Stop(_)
                | ChatEvent::Error(_) => {
                    return;
                }
            },
        };
        // A joined delta keeps the first one's arrival time, and its entry's opening already
        // woke the sender: the clock and the wake are for a new entry, not for every token.
        match (self.pending.last_mut(), event) {
            (
                Some(StreamEvent::TextDelta { text, .. }),
                StreamEvent::TextDelta { text: more, .. },
            )
            | (
                Some(StreamEvent::ThinkingDelta { text, .. }),
                StreamEvent::ThinkingDelta { text: more, .. },
            ) => text.push_str(&more),
            (Some(StreamEvent::Usage { usage }), StreamEvent::Usage { usage: later }) => {
                *usage = later
            }
            (_, mut event) => {
                if let StreamEvent::TextDelta { at, .. } | StreamEvent::ThinkingDelta { at, .. } =
                    &mut event
                {
                    *at = epoch_ms();
                }
                self.pending.push(event);
                self.wake.notify_one();
            }
        }
    }

    pub fn drain(&mut self) -> Vec<StreamEvent> {
        std::mem::take(&mut self.pending)
    }
}
