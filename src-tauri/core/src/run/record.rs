//! A turn of a stored conversation: the question is stored, the answer is saved as it
//! streams, and its outcome is on disk before anyone hears of it.

use tokio_util::sync::CancellationToken;

use super::recording::{RecordError, RecordOptions, RecordedEvent, Runner};
use super::setup::Place;
use super::step::record_step;
use super::{Outcome, TurnRequest};
use crate::chat::{Origin, ToolCall, ToolResult};
use crate::tools::ToolHost;

/// The user's side of a recorded turn: the question, and where the turn goes (a new
/// question, an edit of a stored one, or another answer to a stored one).
#[derive(Debug, Clone, Copy)]
pub struct Question<'a> {
    pub text: &'a str,
    /// The files given with a new question (or an edit), already in the attachment store.
    pub files: &'a [crate::chat::Attachment],
    pub place: &'a Place,
}

impl<'a> Question<'a> {
    /// A new question after what the conversation shows.
    pub fn new(text: &'a str) -> Self {
        const NEW: &Place = &Place::New;
        Self {
            text,
            files: &[],
            place: NEW,
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
        Place::New => store.ask_with(conversation_id, question.text, question.files, None)?,
        Place::Edit(id) => {
            store.ask_with(conversation_id, question.text, question.files, Some(id))?
        }
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
