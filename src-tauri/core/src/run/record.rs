//! A turn of a stored conversation: the question is stored, the answer is saved as it
//! streams, and its outcome is on disk before anyone hears of it.

use std::time::Instant;

use tokio_util::sync::CancellationToken;

use super::turn::lock;
use super::{Outcome, RunEvent, TurnRequest, fit_history, run_turn_into, turn_notes};
use crate::chat::{ChatEvent, Origin};
use crate::draft::Draft;
use crate::providers::error::{ErrorKind, ProviderError};
use crate::providers::http::HttpConfig;

/// What every turn runs with: the HTTP client and its settings, and the history.
#[derive(Debug, Clone, Copy)]
pub struct Runner<'a> {
    pub client: &'a reqwest::Client,
    pub http: &'a HttpConfig,
    pub store: &'a crate::store::Store,
}

/// How a recorded turn keeps its thoughts and how often it saves.
#[derive(Debug, Clone, Copy)]
pub struct RecordOptions {
    /// False: thoughts are shown while they stream but never written to disk.
    pub keep_thoughts: bool,
    /// The longest a streamed piece waits before it is on disk.
    pub flush_every: std::time::Duration,
}

impl Default for RecordOptions {
    fn default() -> Self {
        Self {
            keep_thoughts: true,
            flush_every: std::time::Duration::from_millis(500),
        }
    }
}

/// What the caller of a recorded turn hears.
#[derive(Debug, Clone)]
pub enum RecordedEvent<'a> {
    /// The question and the assistant's row are stored; their ids.
    Started {
        user_message_id: &'a str,
        message_id: &'a str,
    },
    /// Anything `run_turn` says, except the terminal stop or error.
    Run(RunEvent<'a>),
    /// The one terminal event, sent only once the outcome is on disk.
    Finished {
        message_id: &'a str,
        outcome: &'a Outcome,
    },
}

/// The user's side of a recorded turn.
#[derive(Debug, Clone, Copy)]
pub struct Question<'a> {
    pub text: &'a str,
    /// A message this question takes the place of, with everything after it (an edit or a
    /// regenerate). It is removed in the transaction that stores the question, never before.
    pub replaces: Option<&'a str>,
}

impl<'a> Question<'a> {
    pub fn new(text: &'a str) -> Self {
        Self {
            text,
            replaces: None,
        }
    }
}

/// One turn of a stored conversation: the user's message is stored, the assistant's row is
/// written as the stream starts and flushed at least every `flush_every`, and the outcome is
/// written before it is reported.
pub async fn run_recorded(
    runner: Runner<'_>,
    conversation_id: &str,
    question: Question<'_>,
    mut request: TurnRequest<'_>,
    options: RecordOptions,
    cancel: CancellationToken,
    mut on_event: impl FnMut(RecordedEvent<'_>) + Send,
) -> Result<(String, Outcome), RecordError> {
    use std::sync::Mutex;

    use crate::store::{MessageStatus, TurnRecord};

    let Runner {
        client,
        http: config,
        store,
    } = runner;

    let asked = store.ask(conversation_id, question.text, question.replaces)?;
    let history = store.history(conversation_id)?;
    let (sent, left_out, context_tokens) = fit_history(&history, &request);
    request.history = sent;
    request.context_tokens = context_tokens;
    let origin = Origin {
        provider: request.model.provider.id.clone(),
        model: request.model.id.clone(),
    };
    let message_id = store.start_assistant(conversation_id, &origin, request.choice)?;
    let provider_id = origin.provider.clone();
    on_event(RecordedEvent::Started {
        user_message_id: &asked.id,
        message_id: &message_id,
    });
    // What the user is told about this turn as it is sent, kept with the answer.
    let notes = Mutex::new(Vec::new());
    if left_out > 0 {
        let notice = format!(
            "The oldest {left_out} messages were left out of this request to fit the model's context window (they stay in the history)"
        );
        lock(&notes).push(notice.clone());
        on_event(RecordedEvent::Run(RunEvent::Notice(notice)));
    }

    /// When the answer was last written, and whether it has grown since.
    struct Flush {
        dirty: bool,
        last: Instant,
    }
    // The answer as it streams: `run_turn_into` folds into it, the saves below read it.
    let run_started = Instant::now();
    let draft = Mutex::new(Draft::new(origin, crate::chat::ThoughtSource::Reasoning));
    let flush = Mutex::new(Flush {
        dirty: false,
        last: Instant::now(),
    });
    let keep = options.keep_thoughts;
    let save = |flush: &mut Flush| {
        if flush.dirty {
            let parts = stored_parts(lock(&draft).parts(), keep);
            // A failed flush is retried on the next one; the final write reports errors.
            if store.flush_assistant(&message_id, &parts).is_ok() {
                flush.dirty = false;
                flush.last = Instant::now();
            }
        }
    };
    let on_event = Mutex::new(&mut on_event);
    let run = run_turn_into(client, config, request, cancel, &draft, |event| {
        if let RunEvent::Chat(chat) = &event {
            let mut flush = lock(&flush);
            flush.dirty = true;
            if flush.last.elapsed() >= options.flush_every {
                save(&mut flush);
            }
            if matches!(chat, ChatEvent::Stop(_) | ChatEvent::Error(_)) {
                return;
            }
        }
        let noted = match &event {
            RunEvent::Plan(plan) => {
                lock(&notes).extend(turn_notes(plan));
                true
            }
            RunEvent::Notice(notice) => {
                lock(&notes).push(notice.clone());
                true
            }
            _ => false,
        };
        if noted {
            // Before the answer streams, and only a few lines: not on a hot path.
            let _ = store.set_notes(&message_id, &lock(&notes));
        }
        (lock(&on_event))(RecordedEvent::Run(event));
    });
    let mut ticker = tokio::time::interval(options.flush_every);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let running = CatchUnwind(Box::pin(async {
        tokio::pin!(run);
        loop {
            tokio::select! {
                outcome = &mut run => break outcome,
                _ = ticker.tick() => save(&mut lock(&flush)),
            }
        }
    }));
    // A bug anywhere in the turn (a mapper, the caller's callback) must not leave the row
    // `streaming` and the caller without a terminal event: it ends the turn as failed with
    // everything that had arrived.
    let outcome = match running.await {
        Ok(outcome) => outcome,
        Err(panic) => {
            let elapsed = u64::try_from(run_started.elapsed().as_millis()).unwrap_or(u64::MAX);
            let error = ProviderError::new(
                &provider_id,
                ErrorKind::Internal,
                format!(
                    "Ponder failed while reading the answer ({}); what arrived is kept",
                    panic_text(panic.as_ref())
                ),
            );
            let mut draft = lock(&draft);
            draft.apply(ChatEvent::Error(error), elapsed, &mut Vec::new());
            Outcome::Failed(draft.take_finished(elapsed, None).0)
        }
    };
    let turn = outcome.turn();
    let status = match &outcome {
        Outcome::Done(_) => MessageStatus::Complete,
        Outcome::Failed(_) => MessageStatus::Error,
        Outcome::Cancelled(_) => MessageStatus::Cancelled,
    };
    let record = TurnRecord {
        status,
        parts: stored_parts(&turn.message.parts, keep),
        replay: if keep {
            turn.message.replay.clone()
        } else {
            None
        },
        usage: turn.usage,
        stop: turn.stop.clone(),
        error_code: turn.error.as_ref().map(|e| e.kind.as_str().to_owned()),
        error_message: turn.error.as_ref().map(|e| e.message.clone()),
    };
    // A full disk or a busy file may clear up: the answer stays in memory while the final
    // write is tried again, and comes back to the caller even when it never lands.
    let mut attempt = 0;
    while let Err(error) = store.finish_assistant(&message_id, &record) {
        let Some(wait) = FINAL_WRITE_RETRIES.get(attempt) else {
            return Err(RecordError::Unsaved {
                message_id: message_id.clone(),
                outcome: Box::new(outcome),
                source: error,
            });
        };
        attempt += 1;
        tokio::time::sleep(*wait).await;
    }
    (lock(&on_event))(RecordedEvent::Finished {
        message_id: &message_id,
        outcome: &outcome,
    });
    Ok((message_id.clone(), outcome))
}

/// The waits between tries of a turn's final write: about eight seconds in all.
const FINAL_WRITE_RETRIES: [std::time::Duration; 6] = [
    std::time::Duration::from_millis(250),
    std::time::Duration::from_millis(500),
    std::time::Duration::from_millis(750),
    std::time::Duration::from_secs(1),
    std::time::Duration::from_secs(2),
    std::time::Duration::from_secs(3),
];

/// Why a recorded turn could not be kept.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The turn could not start (the question or the answer's row could not be written).
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    /// The turn ran, but its outcome could not be written even after retries; the answer
    /// is here, in memory, for the caller to show.
    #[error("the answer could not be saved: {source}")]
    Unsaved {
        message_id: String,
        outcome: Box<Outcome>,
        #[source]
        source: crate::store::StoreError,
    },
}

fn stored_parts(parts: &[crate::chat::Part], keep_thoughts: bool) -> Vec<crate::chat::Part> {
    parts
        .iter()
        .filter(|p| keep_thoughts || !matches!(p, crate::chat::Part::Thinking(_)))
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
