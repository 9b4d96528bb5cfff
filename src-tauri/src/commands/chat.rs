//! Sending a message: the turn runs in a task, its events reach the UI through a channel in
//! batches (the first event after a pause at once, then one message per ~8 ms at most), and
//! exactly one terminal event follows once the history has the outcome.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use ponder_core::chat::ChatEvent;
use ponder_core::run::{
    self, Ask, Outcome, RecordError, RecordOptions, RecordedEvent, RunEvent, Runner,
    run_recorded_with_tools,
};
use ponder_core::tools::{McpTools, Permissions, ToolHost, Toolbox};
use serde::Serialize;
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, State};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

use crate::error::{IpcError, IpcErrorCode};
use crate::ipc::{MessageView, PartView, SendRequest, StreamEvent};
use crate::state::AppState;

/// The least time between two sends to the UI: often enough that a token waits at most
/// half a frame for its send, seldom enough that a fast stream is not one message per token.
const BATCH_EVERY: Duration = Duration::from_millis(8);

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Sent {
    run_id: String,
    conversation_id: String,
}

#[tauri::command]
pub async fn send_message(
    app: AppHandle,
    request: SendRequest,
    on_event: Channel<StreamEvent>,
) -> Result<Sent, IpcError> {
    start(app, request, Place::Next, on_event).await
}

/// Where a turn goes in the conversation's tree of messages.
enum Place {
    /// A new question after what the conversation shows.
    Next,
    /// Another version of a stored question (an edit).
    Replaces(String),
    /// Another answer to a stored question (a regenerate).
    Answers(String),
    /// Another answer to a stored question, with a model and level for that answer only.
    Rerun(String),
    /// Another answer to a stored question, kept beside the one shown (asked at several
    /// levels at once).
    Beside(String),
}

/// Answers a question again with the conversation's current model and level. The new answer
/// is another version beside the earlier ones, which all stay.
#[tauri::command]
pub async fn regenerate(
    app: AppHandle,
    state: State<'_, AppState>,
    message_id: String,
    on_event: Channel<StreamEvent>,
) -> Result<Sent, IpcError> {
    let question = question_of(&state, &message_id)?;
    let request = resend(&state, &question.id, question.message.text())?;
    start(app.clone(), request, Place::Answers(question.id), on_event).await
}

/// Answers a question again with another model and level ("Rerun with…"): another version
/// beside the others, to compare. The conversation keeps its own model and level. `beside`:
/// the answer shown stays shown (the question asked at several levels at once).
#[tauri::command]
#[allow(clippy::too_many_arguments)]
pub async fn rerun(
    app: AppHandle,
    state: State<'_, AppState>,
    message_id: String,
    provider: String,
    model: String,
    choice: ponder_core::reasoning::Choice,
    beside: Option<bool>,
    on_event: Channel<StreamEvent>,
) -> Result<Sent, IpcError> {
    let question = question_of(&state, &message_id)?;
    let request = SendRequest {
        provider,
        model,
        once: Some(choice),
        ..resend(&state, &question.id, question.message.text())?
    };
    let place = if beside.unwrap_or(false) {
        Place::Beside(question.id)
    } else {
        Place::Rerun(question.id)
    };
    start(app.clone(), request, place, on_event).await
}

/// The question an answer answers, whichever version the conversation shows.
fn question_of(
    state: &AppState,
    answer_id: &str,
) -> Result<ponder_core::store::StoredMessage, IpcError> {
    state.store()?.question_of(answer_id).map_err(|e| match e {
        ponder_core::store::StoreError::NotFound { .. } => IpcError::new(
            IpcErrorCode::InvalidInput,
            "There is no question before this answer.",
        ),
        e => e.into(),
    })
}

/// Asks an edited version of a question, and answers it. The original and its answers stay,
/// as the other version.
#[tauri::command]
pub async fn edit_and_resend(
    app: AppHandle,
    state: State<'_, AppState>,
    message_id: String,
    text: String,
    on_event: Channel<StreamEvent>,
) -> Result<Sent, IpcError> {
    let request = resend(&state, &message_id, text)?;
    start(app.clone(), request, Place::Replaces(message_id), on_event).await
}

/// The request that asks a stored question again of the conversation's model. Nothing is
/// stored here: the new version is written only once the key, settings and model have all
/// been checked.
fn resend(state: &AppState, question_id: &str, text: String) -> Result<SendRequest, IpcError> {
    let question = state.store()?.message(question_id)?;
    let conversation = state.store()?.conversation(&question.conversation_id)?;
    let (Some(provider), Some(model)) = (conversation.provider.clone(), conversation.model.clone())
    else {
        return Err(IpcError::new(
            IpcErrorCode::InvalidInput,
            "Choose a model for this conversation first.",
        ));
    };
    Ok(SendRequest {
        conversation_id: Some(conversation.id),
        text,
        provider,
        model,
        choice: conversation.settings.choice,
        once: None,
    })
}

#[tauri::command(async)]
pub fn cancel_run(state: State<'_, AppState>, run_id: String) -> Result<(), IpcError> {
    if let Some(token) = state
        .runs
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .get(&run_id)
    {
        token.cancel();
    }
    Ok(())
}

/// The Copilot token for a turn, exchanged for the GitHub token signed in at the address the
/// turn was set up with.
async fn start_copilot(
    state: &AppState,
    settings: &crate::settings::Settings,
    turn: &ponder_core::run::TurnSetup,
    http: &ponder_core::providers::http::HttpConfig,
    cancel: &CancellationToken,
) -> Result<ponder_core::providers::copilot::Session, IpcError> {
    use ponder_core::providers::copilot;
    let hosts = copilot::hosts_for(settings.base_url(&turn.model.provider.id))?;
    let github_token = turn.api_key.as_deref().unwrap_or_default();
    Ok(copilot::Session::start(
        &state.copilot,
        &state.client,
        hosts,
        github_token,
        http,
        cancel,
    )
    .await?)
}

/// Checks everything a turn needs, then runs it in a task, at `place` in the conversation.
async fn start(
    app: AppHandle,
    request: SendRequest,
    place: Place,
    on_event: Channel<StreamEvent>,
) -> Result<Sent, IpcError> {
    let state = app.state::<AppState>();
    if state.quitting.load(std::sync::atomic::Ordering::SeqCst) {
        return Err(IpcError::new(
            IpcErrorCode::InvalidInput,
            "Ponder is quitting.",
        ));
    }
    let settings = crate::settings::load(&app)?;
    let catalog = state.catalog(&settings);
    // A provider one signs in to keeps its sign-in's address in the base URL, not its API's.
    let signed_in = catalog
        .provider(&request.provider)
        .is_ok_and(|p| p.sign_in.is_some());
    let turn = run::setup(
        &*state.store()?,
        &catalog,
        &settings.reasoning_overrides,
        Ask {
            provider: &request.provider,
            model: &request.model,
            text: &request.text,
            conversation_id: request.conversation_id.as_deref(),
            choice: Some(request.choice),
            once: request.once,
            replaces: match &place {
                Place::Replaces(id) => Some(id),
                _ => None,
            },
            answers: match &place {
                Place::Answers(id) | Place::Rerun(id) | Place::Beside(id) => Some(id),
                _ => None,
            },
            beside: matches!(place, Place::Beside(_)),
            model_once: matches!(place, Place::Rerun(_) | Place::Beside(_)),
            base_url: settings.base_url(&request.provider).filter(|_| !signed_in),
            sign_in_at: settings.base_url(&request.provider).filter(|_| signed_in),
            ..Ask::default()
        },
    )?;
    let run_id = ponder_core::store::new_id();
    let cancel = CancellationToken::new();
    state
        .runs
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .insert(run_id.clone(), cancel.clone());
    let http = ponder_core::providers::http::HttpConfig {
        idle_timeout: settings.stall_timeout(),
        ..state.http.clone()
    };
    // Copilot: the GitHub token is exchanged (or the last exchange reused) before anything is
    // stored, so that a sign-in that no longer works is said at once and the message kept.
    // The exchange keeps to the stall timeout, and quitting stops it.
    let copilot = match turn.model.provider.sign_in {
        Some(_) => {
            let started = start_copilot(&state, &settings, &turn, &http, &cancel).await;
            if started.is_err() {
                state
                    .runs
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .remove(&run_id);
            }
            Some(started?)
        }
        None => None,
    };
    let token_cache = state.copilot.clone();

    let sent = Sent {
        run_id: run_id.clone(),
        conversation_id: turn.conversation.id.clone(),
    };
    let store = state.store()?.clone();
    let client = state.client.clone();
    let keep_thoughts = settings.store_thoughts;
    let tool_choice = turn.settings.tools.clone();
    let servers: Vec<_> = settings
        .mcp_servers
        .iter()
        .filter(|s| s.enabled && tool_choice.servers.contains(&s.id))
        .cloned()
        .collect();
    let always_allowed = settings.always_allowed_tools.clone();
    let limits = settings.tool_limits();
    let app_for_task = app.clone();
    tauri::async_runtime::spawn(async move {
        let batch = Arc::new(Mutex::new(Batch::default()));
        let done = CancellationToken::new();
        // Whatever happens below, even a panic, the flusher stops, the run is forgotten and
        // the UI hears exactly one terminal event.
        let mut guard = RunGuard {
            app: app_for_task.clone(),
            run_id: run_id.clone(),
            done: done.clone(),
            channel: Some(on_event.clone()),
        };
        let flusher = {
            let (batch, channel, done) = (batch.clone(), on_event.clone(), done.clone());
            let wake = lock(&batch).wake.clone();
            tauri::async_runtime::spawn(async move {
                loop {
                    tokio::select! {
                        () = done.cancelled() => break,
                        () = wake.notified() => {}
                    }
                    for event in lock(&batch).drain() {
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
        };
        let options = RecordOptions {
            keep_thoughts,
            max_steps: limits.max_steps,
            ..RecordOptions::default()
        };
        let runner = Runner {
            client: &client,
            http: &http,
            store: &store,
        };
        // The conversation's servers start now (each only once per app run); one that
        // cannot is named under the answer, and the turn goes on with the others.
        let hub = app_for_task.state::<AppState>().hub.clone();
        let mut offered = Vec::new();
        let mut unavailable = Vec::new();
        for server in &servers {
            match hub.connection(&server.id).await {
                Ok(connection) => offered.extend(
                    connection
                        .tools()
                        .iter()
                        .filter(|t| tool_choice.offers(&server.id, &t.name))
                        .cloned()
                        .map(|t| (server.id.clone(), t)),
                ),
                Err(e) => {
                    unavailable.push(format!("{}'s tools are not available: {e}", server.name))
                }
            }
        }
        let approver = super::approval::WindowApprover {
            app: app_for_task.clone(),
            run_id: run_id.clone(),
            conversation_id: turn.conversation.id.clone(),
            batch: batch.clone(),
            cancel: cancel.clone(),
            permissions: Mutex::new(Permissions {
                always: always_allowed.into_iter().collect(),
                conversation: tool_choice.allowed.iter().cloned().collect(),
            }),
        };
        let host = (!offered.is_empty()).then(|| McpTools {
            hub: &hub,
            toolbox: Toolbox::new(offered),
            approver: &approver,
            limits,
        });
        let renewer = copilot
            .as_ref()
            .map(|session| session.renewer(&token_cache, &client, &http, &cancel));
        let mut request = turn.request();
        if let (Some(session), Some(renewer)) = (&copilot, &renewer) {
            request.api_key = Some(&session.credentials.token);
            request.base_url = Some(&session.credentials.api_base);
            request.renew_key = Some(renewer);
        }
        let result = run_recorded_with_tools(
            runner,
            &turn.conversation.id,
            turn.question(),
            request,
            host.as_ref().map(|h| h as &dyn ToolHost),
            options,
            cancel,
            |event| {
                let started = matches!(event, RecordedEvent::Started { .. });
                let mut batch = lock(&batch);
                batch.push(event, &run_id);
                if started {
                    for text in unavailable.drain(..) {
                        batch.push_event(StreamEvent::Notice { text });
                    }
                }
            },
        )
        .await;
        done.cancel();
        let _ = flusher.await;
        for event in lock(&batch).drain() {
            let _ = on_event.send(event);
        }
        // The request carried the whole history (thoughts and all), now freed.
        crate::memory::give_back_soon();
        crate::indexing::index_soon(store.clone());
        let terminal = match result {
            Ok((message_id, outcome)) => {
                let message = store
                    .message(&message_id)
                    .map(|m| MessageView::new(&m, &app_for_task.state::<AppState>().prices()))
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
                    turn.choice,
                    Vec::new(),
                )),
            },
            Err(RecordError::Store(err)) => StreamEvent::Error {
                error: IpcError::from(err),
                message: None,
            },
        };
        guard.channel = None;
        let _ = on_event.send(terminal);
    });
    Ok(sent)
}

/// Ends a run's bookkeeping when its task ends, however it ends.
struct RunGuard {
    app: AppHandle,
    run_id: String,
    done: CancellationToken,
    /// Still set when no terminal event has been sent.
    channel: Option<Channel<StreamEvent>>,
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
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&self.run_id);
    }
}

/// Now, in ms since the Unix epoch (the clock the webview's `performance.timeOrigin` uses).
fn epoch_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

pub(crate) fn lock(batch: &Mutex<Batch>) -> std::sync::MutexGuard<'_, Batch> {
    batch
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Events waiting for the next send, with consecutive deltas of one kind joined. Each new
/// entry wakes the sender, so the first event after a pause goes at once and what follows
/// within `BATCH_EVERY` goes together.
#[derive(Default)]
pub(crate) struct Batch {
    pending: Vec<StreamEvent>,
    wake: Arc<Notify>,
}

impl Batch {
    /// An event made outside the turn (an approval card), in order with the turn's own.
    pub(crate) fn push_event(&mut self, event: StreamEvent) {
        self.pending.push(event);
        self.wake.notify_one();
    }

    fn push(&mut self, event: RecordedEvent<'_>, run_id: &str) {
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

    fn drain(&mut self) -> Vec<StreamEvent> {
        std::mem::take(&mut self.pending)
    }
}
