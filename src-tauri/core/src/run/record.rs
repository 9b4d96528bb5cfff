//! A turn of a stored conversation: the question is stored, the answer is saved as it
//! streams, and its outcome is on disk before anyone hears of it.

use std::time::Instant;

use tokio_util::sync::CancellationToken;

use super::setup::Place;
use super::{Outcome, RunEvent, TurnRequest, fit_history, run_turn_into, turn_notes};
use crate::chat::{ChatEvent, Origin, ToolCall, ToolResult};
use crate::draft::Draft;
use crate::providers::error::{ErrorKind, ProviderError};
use crate::providers::http::HttpConfig;
use crate::sync::Locked;
use crate::tools::ToolHost;

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
    /// Model steps in one turn with tools before the loop is stopped.
    pub max_steps: usize,
}

impl Default for RecordOptions {
    fn default() -> Self {
        Self {
            keep_thoughts: true,
            flush_every: std::time::Duration::from_millis(500),
            max_steps: crate::tools::LIMITS.max_steps,
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
    /// A step of a tool loop is on disk; the tools it called run next.
    StepFinished { message_id: &'a str },
    /// A call is about to run (it may wait for the user's approval first).
    ToolStarted {
        call: &'a ToolCall,
        server: Option<&'a str>,
    },
    /// A call's result (or why it has none).
    ToolFinished { result: &'a ToolResult },
    /// The results are stored as their own message, and the next step starts in a new row.
    NextStep {
        tool_message_id: &'a str,
        message_id: &'a str,
    },
    /// The one terminal event, sent only once the outcome is on disk.
    Finished {
        message_id: &'a str,
        outcome: &'a Outcome,
    },
}

/// The user's side of a recorded turn: the question, and where the turn goes (a new
/// question, an edit of a stored one, or another answer to a stored one).
#[derive(Debug, Clone, Copy)]
pub struct Question<'a> {
    pub text: &'a str,
    pub place: &'a Place,
}

impl<'a> Question<'a> {
    /// A new question after what the conversation shows.
    pub fn new(text: &'a str) -> Self {
        const NEW: &Place = &Place::New;
        Self { text, place: NEW }
    }
}

/// One turn of a stored conversation: the user's message is stored, the assistant's row is
/// written as the stream starts and flushed at least every `flush_every`, and the outcome is
/// written before it is reported.
pub async fn run_recorded(
    runner: Runner<'_>,
    conversation_id: &str,
    question: Question<'_>,
    request: TurnRequest<'_>,
    options: RecordOptions,
    cancel: CancellationToken,
    on_event: impl FnMut(RecordedEvent<'_>) + Send,
) -> Result<(String, Outcome), RecordError> {
    run_recorded_with_tools(
        runner,
        conversation_id,
        question,
        request,
        None,
        options,
        cancel,
        on_event,
    )
    .await
}

/// A stored turn that may call tools: each model step is its own assistant row, the results
/// of the tools it called are a `tool` row after it, and the loop goes on until the model
/// answers, the user stops it, or `max_steps` is reached. Calls that never ran (a stop, the
/// step limit) are answered with an error result, so the history stays valid for every
/// provider.
#[allow(clippy::too_many_arguments)]
pub async fn run_recorded_with_tools(
    runner: Runner<'_>,
    conversation_id: &str,
    question: Question<'_>,
    mut request: TurnRequest<'_>,
    tools: Option<&dyn ToolHost>,
    options: RecordOptions,
    cancel: CancellationToken,
    mut on_event: impl FnMut(RecordedEvent<'_>) + Send,
) -> Result<(String, Outcome), RecordError> {
    let store = runner.store;
    let asked = match question.place {
        Place::New => store.ask(conversation_id, question.text, None)?,
        Place::Edit(id) => store.ask(conversation_id, question.text, Some(id))?,
        Place::Again(id) | Place::Once(id) | Place::Beside(id) => {
            store.question(conversation_id, id)?
        }
    };
    let specs = tools.map(ToolHost::specs).unwrap_or_default();
    request.tools = &specs;
    let origin = Origin {
        provider: request.model.provider.id.clone(),
        model: request.model.id.clone(),
    };
    let mut message_id = if matches!(question.place, Place::Beside(_)) {
        store.start_assistant_beside(conversation_id, &asked.id, &origin, request.choice)?
    } else {
        store.start_assistant(conversation_id, &asked.id, &origin, request.choice)?
    };
    on_event(RecordedEvent::Started {
        user_message_id: &asked.id,
        message_id: &message_id,
    });
    let mut step = 1;
    loop {
        let outcome = record_step(
            runner,
            &message_id,
            request,
            options,
            cancel.clone(),
            &mut on_event,
        )
        .await;
        let outcome = match outcome {
            Ok(outcome) => outcome,
            Err(error) => return Err(error),
        };
        let calls: Vec<ToolCall> = match (&outcome, tools) {
            (Outcome::Done(turn), Some(_)) => turn.message.tool_calls().cloned().collect(),
            _ => Vec::new(),
        };
        let Some(host) = tools.filter(|_| !calls.is_empty()) else {
            on_event(RecordedEvent::Finished {
                message_id: &message_id,
                outcome: &outcome,
            });
            return Ok((message_id, outcome));
        };
        on_event(RecordedEvent::StepFinished {
            message_id: &message_id,
        });
        let at_limit = step >= options.max_steps;
        let results = if at_limit {
            let why = format!(
                "Not run: Ponder stops a turn after {} steps. Answer with what you have.",
                options.max_steps
            );
            calls
                .iter()
                .map(|c| ToolResult::error(c, why.clone()))
                .collect()
        } else {
            run_calls(host, &calls, &cancel, &mut on_event).await
        };
        let tool_message = store.append_tool(conversation_id, &message_id, &results)?;
        let stopped = cancel.is_cancelled();
        if at_limit || stopped {
            let turn = outcome.turn().clone();
            let outcome = if stopped {
                Outcome::Cancelled(turn)
            } else {
                let _ = store.set_notes(
                    &message_id,
                    &[format!(
                        "The tool loop was stopped after {} steps (the limit in Settings)",
                        options.max_steps
                    )],
                );
                Outcome::Done(turn)
            };
            on_event(RecordedEvent::Finished {
                message_id: &message_id,
                outcome: &outcome,
            });
            return Ok((message_id, outcome));
        }
        step += 1;
        message_id =
            store.start_assistant(conversation_id, &tool_message.id, &origin, request.choice)?;
        on_event(RecordedEvent::NextStep {
            tool_message_id: &tool_message.id,
            message_id: &message_id,
        });
    }
}

/// Runs a step's calls at once; each result is reported as it arrives. A stop answers the
/// calls still running with an error result.
async fn run_calls(
    host: &dyn ToolHost,
    calls: &[ToolCall],
    cancel: &CancellationToken,
    on_event: &mut (dyn FnMut(RecordedEvent<'_>) + Send),
) -> Vec<ToolResult> {
    use futures::StreamExt;

    let servers: Vec<Option<String>> = calls.iter().map(|c| host.server_of(&c.name)).collect();
    for (call, server) in calls.iter().zip(&servers) {
        on_event(RecordedEvent::ToolStarted {
            call,
            server: server.as_deref(),
        });
    }
    let mut results: Vec<Option<ToolResult>> = vec![None; calls.len()];
    let mut running: futures::stream::FuturesUnordered<_> = calls
        .iter()
        .enumerate()
        .map(|(i, call)| async move { (i, host.run(call).await) })
        .collect();
    loop {
        tokio::select! {
            () = cancel.cancelled() => break,
            next = running.next() => match next {
                Some((i, result)) => {
                    on_event(RecordedEvent::ToolFinished { result: &result });
                    results[i] = Some(result);
                }
                None => break,
            },
        }
    }
    drop(running);
    calls
        .iter()
        .zip(results)
        .map(|(call, result)| {
            result.unwrap_or_else(|| {
                let result = ToolResult::error(call, "Stopped by the user before it finished.");
                on_event(RecordedEvent::ToolFinished { result: &result });
                result
            })
        })
        .collect()
}

/// One model step of a stored turn, into the assistant row `message_id` (already written).
async fn record_step(
    runner: Runner<'_>,
    message_id: &str,
    mut request: TurnRequest<'_>,
    options: RecordOptions,
    cancel: CancellationToken,
    on_event: &mut (dyn FnMut(RecordedEvent<'_>) + Send),
) -> Result<Outcome, RecordError> {
    use std::sync::Mutex;

    use crate::store::{MessageStatus, TurnRecord};

    let Runner {
        client,
        http: config,
        store,
    } = runner;

    // The path down to this step's row, whichever version the conversation shows meanwhile.
    let history = store.history_before(message_id)?;
    let (sent, left_out, context_tokens) = fit_history(&history, &request);
    request.history = sent;
    request.context_tokens = context_tokens;
    let origin = Origin {
        provider: request.model.provider.id.clone(),
        model: request.model.id.clone(),
    };
    let provider_id = origin.provider.clone();
    // What the user is told about this turn as it is sent, kept with the answer.
    let notes = Mutex::new(Vec::new());
    if left_out > 0 {
        let notice = format!(
            "The oldest {left_out} messages were left out of this request to fit the model's context window (they stay in the history)"
        );
        notes.locked().push(notice.clone());
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
            let parts = stored_parts(draft.locked().parts(), keep);
            // A failed flush is retried on the next one; the final write reports errors.
            if store.flush_assistant(message_id, &parts).is_ok() {
                flush.dirty = false;
                flush.last = Instant::now();
            }
        }
    };
    let on_event = Mutex::new(on_event);
    let first_token: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    let run = run_turn_into(client, config, request, cancel, &draft, |event| {
        if let RunEvent::Chat(
            ChatEvent::ThinkingDelta { .. }
            | ChatEvent::ThinkingRedacted { .. }
            | ChatEvent::TextDelta { .. }
            | ChatEvent::ToolCall(_),
        ) = &event
        {
            let mut first = None;
            first_token.get_or_init(|| {
                let ms = u64::try_from(run_started.elapsed().as_millis()).unwrap_or(u64::MAX);
                first = Some(ms);
                ms
            });
            if let Some(ms) = first {
                // Written now, while the row is small: once the answer is in it, changing a
                // column rewrites every page of the row (megabytes for a long thought). A
                // figure for comparing answers: not worth failing the turn over.
                let _ = store.set_first_token(message_id, ms);
            }
        }
        if let RunEvent::Chat(chat) = &event {
            let mut flush = flush.locked();
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
                notes.locked().extend(turn_notes(plan));
                true
            }
            RunEvent::Notice(notice) => {
                notes.locked().push(notice.clone());
                true
            }
            _ => false,
        };
        if noted {
            // Before the answer streams, and only a few lines: not on a hot path.
            let _ = store.set_notes(message_id, &notes.locked());
        }
        (on_event.locked())(RecordedEvent::Run(event));
    });
    let mut ticker = tokio::time::interval(options.flush_every);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let running = CatchUnwind(Box::pin(async {
        tokio::pin!(run);
        loop {
            tokio::select! {
                outcome = &mut run => break outcome,
                _ = ticker.tick() => save(&mut flush.locked()),
            }
        }
    }));
    // A bug anywhere in the turn (a mapper, the caller's callback) must not leave the row
    // `streaming` and the caller without a terminal event: it ends the turn as failed with
    // everything that had arrived.
    let mut outcome = match running.await {
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
            let mut draft = draft.locked();
            draft.apply(ChatEvent::Error(error), elapsed, &mut Vec::new());
            Outcome::Failed(draft.take_finished(elapsed, None).0)
        }
    };
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
    // A full disk or a busy file may clear up: the answer stays in memory while the final
    // write is tried again, and comes back to the caller even when it never lands.
    let mut attempt = 0;
    let written = loop {
        match store.finish_assistant(message_id, &record) {
            Ok(()) => break Ok(()),
            Err(error) => match FINAL_WRITE_RETRIES.get(attempt) {
                Some(wait) => {
                    attempt += 1;
                    tokio::time::sleep(*wait).await;
                }
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
