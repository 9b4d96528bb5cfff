//! One model step of a stored turn, into the assistant row written for it: the request fitted
//! to the model's window, the answer folded as it streams and saved at least every
//! `flush_every`, and its outcome written (and tried again) before anyone hears of it.

use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use super::recording::{RecordError, RecordOptions, RecordedEvent, Runner};
use super::{Outcome, RunEvent, TurnRequest, fit_history, run_turn_into, turn_notes};
use crate::chat::{ChatEvent, Origin, Part, ThoughtSource};
use crate::draft::Draft;
use crate::providers::error::{ErrorKind, ProviderError};
use crate::store::{MessageStatus, Store, TurnRecord};
use crate::sync::Locked;

/// One model step of a stored turn, into the assistant row `message_id` (already written).
pub(super) async fn record_step(
    runner: Runner<'_>,
    message_id: &str,
    mut request: TurnRequest<'_>,
    options: RecordOptions,
    cancel: CancellationToken,
    on_event: &mut (dyn FnMut(RecordedEvent<'_>) + Send),
) -> Result<Outcome, RecordError> {
    let store = runner.store;
    // The path down to this step's row, whichever version the conversation shows meanwhile.
    let mut history = store.history_before(message_id)?;
    let mut notices = match store.attachments() {
        Some(files) => files.load_for(&mut history, request.model),
        None => Vec::new(),
    };
    let (sent, left_out, context_tokens) = fit_history(&history, &request);
    request.history = sent;
    request.context_tokens = context_tokens;
    let step = Step::new(store, message_id, &request, options);
    if left_out > 0 {
        notices.push(format!(
            "The oldest {left_out} messages were left out of this request to fit the model's context window (they stay in the history)"
        ));
    }
    for notice in notices {
        step.notes.locked().push(notice.clone());
        on_event(RecordedEvent::Run(RunEvent::Notice(notice)));
    }
    // Nothing is sent that the provider documents it refuses: the user is told which limit.
    let words = context_tokens.saturating_mul(4);
    let outcome =
        match crate::attachments::sending::check_request(request.history, request.model, words) {
            Ok(()) => step.stream(runner, request, cancel, on_event).await,
            Err(over) => step.refused(&over.to_string()),
        };
    write_outcome(store, message_id, outcome, options.keep_thoughts).await
}

/// When the answer was last written, and whether it has grown since.
struct Flush {
    dirty: bool,
    last: Instant,
}

/// A step while it streams: the answer being folded, what the user was told, and when the
/// answer was last saved.
struct Step<'a> {
    store: &'a Store,
    message_id: &'a str,
    options: RecordOptions,
    provider: String,
    started: Instant,
    /// The answer as it streams: `run_turn_into` folds into it, the saves read it.
    draft: Mutex<Draft>,
    flush: Mutex<Flush>,
    first_token: OnceLock<u64>,
    /// What the user is told about this step as it is sent, kept with the answer.
    notes: Mutex<Vec<String>>,
}

impl<'a> Step<'a> {
    fn new(
        store: &'a Store,
        message_id: &'a str,
        request: &TurnRequest<'_>,
        options: RecordOptions,
    ) -> Self {
        let origin = Origin {
            provider: request.model.provider.id.clone(),
            model: request.model.id.clone(),
        };
        Self {
            store,
            message_id,
            options,
            provider: origin.provider.clone(),
            started: Instant::now(),
            draft: Mutex::new(Draft::new(origin, ThoughtSource::Reasoning)),
            flush: Mutex::new(Flush {
                dirty: false,
                last: Instant::now(),
            }),
            first_token: OnceLock::new(),
            notes: Mutex::new(Vec::new()),
        }
    }

    fn elapsed_ms(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Runs the request into the draft, saving it as it grows; a panic anywhere in the turn
    /// (a mapper, the caller's callback) ends the step as failed with what had arrived,
    /// rather than leaving the row `streaming` and the caller without an outcome.
    async fn stream(
        &self,
        runner: Runner<'_>,
        request: TurnRequest<'_>,
        cancel: CancellationToken,
        on_event: &mut (dyn FnMut(RecordedEvent<'_>) + Send),
    ) -> Outcome {
        let on_event = Mutex::new(on_event);
        let run = run_turn_into(
            runner.client,
            runner.http,
            request,
            cancel,
            &self.draft,
            |event| {
                if let RunEvent::Chat(chat) = &event {
                    self.on_chat(chat);
                    // The terminal stop or error is the step's outcome, told by the caller.
                    if matches!(chat, ChatEvent::Stop(_) | ChatEvent::Error(_)) {
                        return;
                    }
                }
                self.note(&event);
                (on_event.locked())(RecordedEvent::Run(event));
            },
        );
        let mut ticker = tokio::time::interval(self.options.flush_every);
        ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let running = CatchUnwind(Box::pin(async {
            tokio::pin!(run);
            loop {
                tokio::select! {
                    outcome = &mut run => break outcome,
                    _ = ticker.tick() => self.save(&mut self.flush.locked()),
                }
            }
        }));
        match running.await {
            Ok(outcome) => outcome,
            Err(panic) => self.failed(&panic_text(panic.as_ref())),
        }
    }

    /// The first piece of an answer is timed; every piece marks the draft for the next save,
    /// and one that arrives `flush_every` after the last save saves at once.
    fn on_chat(&self, chat: &ChatEvent) {
        if let ChatEvent::ThinkingDelta { .. }
        | ChatEvent::ThinkingRedacted { .. }
        | ChatEvent::TextDelta { .. }
        | ChatEvent::ToolCall(_) = chat
        {
            let mut first = None;
            self.first_token.get_or_init(|| {
                let ms = self.elapsed_ms();
                first = Some(ms);
                ms
            });
            if let Some(ms) = first {
                // Written now, while the row is small: once the answer is in it, changing a
                // column rewrites every page of the row (megabytes for a long thought). A
                // figure for comparing answers: not worth failing the turn over.
                let _ = self.store.set_first_token(self.message_id, ms);
            }
        }
        let mut flush = self.flush.locked();
        flush.dirty = true;
        if flush.last.elapsed() >= self.options.flush_every {
            self.save(&mut flush);
        }
    }

    /// The plan's lines and each notice are kept with the answer as they come.
    fn note(&self, event: &RunEvent<'_>) {
        let lines = match event {
            RunEvent::Plan(plan) => turn_notes(plan),
            RunEvent::Notice(notice) => vec![notice.clone()],
            _ => return,
        };
        let mut notes = self.notes.locked();
        notes.extend(lines);
        // Before the answer streams, and only a few lines: not on a hot path.
        let _ = self.store.set_notes(self.message_id, &notes);
    }

    fn save(&self, flush: &mut Flush) {
        if flush.dirty {
            let parts = stored_parts(self.draft.locked().parts(), self.options.keep_thoughts);
            // A failed flush is retried on the next one; the final write reports errors.
            if self.store.flush_assistant(self.message_id, &parts).is_ok() {
                flush.dirty = false;
                flush.last = Instant::now();
            }
        }
    }

    /// A request Ponder will not send, and why, as the step's error.
    fn refused(&self, why: &str) -> Outcome {
        let error = ProviderError::new(
            &self.provider,
            ErrorKind::BadRequest,
            format!("Nothing was sent: {why}. Remove a file, or start a new conversation for it."),
        );
        let elapsed = self.elapsed_ms();
        let mut draft = self.draft.locked();
        draft.apply(ChatEvent::Error(error), elapsed, &mut Vec::new());
        Outcome::Failed(draft.take_finished(elapsed, None).0)
    }

    fn failed(&self, why: &str) -> Outcome {
        let elapsed = self.elapsed_ms();
        let error = ProviderError::new(
            &self.provider,
            ErrorKind::Internal,
            format!("Ponder failed while reading the answer ({why}); what arrived is kept"),
        );
        let mut draft = self.draft.locked();
        draft.apply(ChatEvent::Error(error), elapsed, &mut Vec::new());
        Outcome::Failed(draft.take_finished(elapsed, None).0)
    }
}

/// Writes a step's outcome to its row. A full disk or a busy file may clear up: the answer
/// stays in memory while the write is tried again, and comes back to the caller even when
/// it never lands.
async fn write_outcome(
    store: &Store,
    message_id: &str,
    mut outcome: Outcome,
    keep: bool,
) -> Result<Outcome, RecordError> {
    // Two calls under one id would share an approval and a result: settled before the step
    // is written, so its calls, their results and the next request agree.
    crate::tools::make_call_ids_unique(&mut outcome.turn_mut().message);
    let status = match &outcome {
        Outcome::Done(_) => MessageStatus::Complete,
        Outcome::Failed(_) => MessageStatus::Error,
        Outcome::Cancelled(_) => MessageStatus::Cancelled,
    };
    // The parts and the replay are lent to the record and given back after the write: a long
    // thought is megabytes, not worth copying for one write.
    let turn = outcome.turn_mut();
    let mut record = TurnRecord {
        status,
        parts: if keep {
            std::mem::take(&mut turn.message.parts)
        } else {
            stored_parts(&turn.message.parts, false)
        },
        replay: if keep {
            turn.message.replay.take()
        } else {
            None
        },
        usage: turn.usage,
        stop: turn.stop.clone(),
        error_code: turn.error.as_ref().map(|e| e.kind.as_str().to_owned()),
        error_message: turn.error.as_ref().map(|e| e.message.clone()),
    };
    let mut waits = FINAL_WRITE_RETRIES.iter();
    let written = loop {
        match store.finish_assistant(message_id, &record) {
            Ok(()) => break Ok(()),
            Err(error) => match waits.next() {
                Some(wait) => tokio::time::sleep(*wait).await,
                None => break Err(error),
            },
        }
    };
    if keep {
        let turn = outcome.turn_mut();
        turn.message.parts = std::mem::take(&mut record.parts);
        turn.message.replay = record.replay.take();
    }
    match written {
        Ok(()) => Ok(outcome),
        Err(source) => Err(RecordError::Unsaved {
            message_id: message_id.to_owned(),
            outcome: Box::new(outcome),
            source,
        }),
    }
}

/// The waits between tries of a step's final write: about eight seconds in all.
const FINAL_WRITE_RETRIES: [Duration; 6] = [
    Duration::from_millis(250),
    Duration::from_millis(500),
    Duration::from_millis(750),
    Duration::from_secs(1),
    Duration::from_secs(2),
    Duration::from_secs(3),
];

fn stored_parts(parts: &[Part], keep_thoughts: bool) -> Vec<Part> {
    parts
        .iter()
        .filter(|p| keep_thoughts || !matches!(p, Part::Thinking(_)))
        .cloned()
        .collect()
}

/// A future that turns a panic while it is polled into an `Err` with the panic's payload.
struct CatchUnwind<F>(std::pin::Pin<Box<F>>);

impl<F: std::future::Future> std::future::Future for CatchUnwind<F> {
    type Output = std::thread::Result<F::Output>;

    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        let inner = self.0.as_mut();
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| inner.poll(cx))) {
            Ok(std::task::Poll::Pending) => std::task::Poll::Pending,
            Ok(std::task::Poll::Ready(value)) => std::task::Poll::Ready(Ok(value)),
            Err(panic) => std::task::Poll::Ready(Err(panic)),
        }
    }
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "an unexpected failure".to_owned())
}
