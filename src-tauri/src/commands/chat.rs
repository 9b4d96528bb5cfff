//! Asking: a new question, another answer, an edit, a rerun at another level or model. Each
//! checks what the turn needs and hands it to `relay`, which runs it and streams it to the
//! window; the command answers as soon as the turn has started.

use ponder_core::run::{Ask, Place, Session};
use ponder_core::sync::Locked;
use serde::Serialize;
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, State};
use tokio_util::sync::CancellationToken;

use crate::error::{IpcError, IpcErrorCode};
use crate::ipc::{RerunRequest, RerunShows, SendRequest, StreamEvent};
use crate::relay::{self, Run};
use crate::state::AppState;

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct Sent {
    run_id: String,
    conversation_id: String,
}

#[tauri::command]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub async fn send_message(
    app: AppHandle,
    request: SendRequest,
    on_event: Channel<StreamEvent>,
) -> Result<Sent, IpcError> {
    start(app, request, Place::New, on_event).await
}

/// Answers a question again with the conversation's current model and level. The new answer
/// is another version beside the earlier ones, which all stay.
#[tauri::command]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub async fn regenerate(
    app: AppHandle,
    state: State<'_, AppState>,
    message_id: String,
    on_event: Channel<StreamEvent>,
) -> Result<Sent, IpcError> {
    let question = question_of(&state, &message_id)?;
    let request = resend(&state, &question.id, question.message.text())?;
    start(app.clone(), request, Place::Again(question.id), on_event).await
}

/// Answers a question again with another model and level ("Rerun with…"): another version
/// beside the others, to compare. The conversation keeps its own model and level.
#[tauri::command]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub async fn rerun(
    app: AppHandle,
    state: State<'_, AppState>,
    request: RerunRequest,
    on_event: Channel<StreamEvent>,
) -> Result<Sent, IpcError> {
    let question = question_of(&state, &request.message_id)?;
    let send = SendRequest {
        provider: request.provider,
        model: request.model,
        once: Some(request.choice),
        ..resend(&state, &question.id, question.message.text())?
    };
    let place = match request.shows {
        RerunShows::New => Place::Once(question.id),
        RerunShows::Current => Place::Beside(question.id),
    };
    start(app.clone(), send, place, on_event).await
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
#[tracing::instrument(skip_all, err(level = "warn"))]
pub async fn edit_and_resend(
    app: AppHandle,
    state: State<'_, AppState>,
    message_id: String,
    text: String,
    on_event: Channel<StreamEvent>,
) -> Result<Sent, IpcError> {
    let request = resend(&state, &message_id, text)?;
    start(app.clone(), request, Place::Edit(message_id), on_event).await
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
        files: Vec::new(),
        pdf_as_text: false,
    })
}

#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn cancel_run(state: State<'_, AppState>, run_id: String) -> Result<(), IpcError> {
    if let Some(token) = state.runs.locked().get(&run_id) {
        token.cancel();
    }
    Ok(())
}

/// Checks everything a turn needs (and, for a signed-in provider, its key) before anything
/// is stored, then runs it at `place` in the conversation.
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
    let store = state.store()?;
    let files = super::attachments::resolve(&state, request.files.clone()).await?;
    let ask = Ask {
        provider: &request.provider,
        model: &request.model,
        text: &request.text,
        files: &files,
        pdf_as_text: request.pdf_as_text,
        conversation_id: request.conversation_id.as_deref(),
        choice: Some(request.choice),
        once: request.once,
        place,
        address: settings.base_url(&request.provider),
        ..Ask::default()
    };
    let catalog = state.with_live(settings.catalog());
    let mut session = Session::prepare(&store, &catalog, &settings.reasoning_overrides, ask)?;
    let run = Run {
        id: ponder_core::store::new_id(),
        cancel: CancellationToken::new(),
        http: ponder_core::providers::http::HttpConfig {
            idle_timeout: settings.stall_timeout(),
            ..state.http.clone()
        },
    };
    // Registered first, so that quitting stops a Copilot exchange still waiting.
    state
        .runs
        .locked()
        .insert(run.id.clone(), run.cancel.clone());
    let authorized = session
        .authorize(&state.copilot, &state.client, &run.http, &run.cancel)
        .await;
    if let Err(e) = authorized {
        state.runs.locked().remove(&run.id);
        return Err(e.into());
    }
    let sent = Sent {
        run_id: run.id.clone(),
        conversation_id: session.turn().conversation.id.clone(),
    };
    relay::spawn(app.clone(), session, run, store, settings, on_event);
    Ok(sent)
}
