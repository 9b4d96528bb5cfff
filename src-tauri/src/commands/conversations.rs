use ponder_core::reasoning::ReasoningSettings;
use ponder_core::store::{ConversationSummary, NewConversation, SearchHit, SearchScope};
use tauri::State;

use crate::error::IpcError;
use crate::ipc::{ConversationView, MessageView};
use crate::state::AppState;

/// The sidebar's conversations, pinned first, then the most recently active; with `first`,
/// only that many (a window shows them before it reads the rest).
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn list_conversations(
    state: State<'_, AppState>,
    include_archived: Option<bool>,
    first: Option<u32>,
) -> Result<Vec<ConversationSummary>, IpcError> {
    Ok(state
        .store()?
        .first_conversations(include_archived.unwrap_or(false), first.map(|n| n as usize))?)
}

/// A conversation with the path it shows; with `tail`, only the path's end (at least that
/// many messages, from a question on), so that opening a long thread draws its last
/// screen without reading, sending and parsing all of it first — `earlier_messages`
/// reads the rest.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn get_conversation(
    state: State<'_, AppState>,
    id: String,
    tail: Option<u32>,
) -> Result<ConversationView, IpcError> {
    let view = read_view(&state, &id, tail.map(|count| count as usize));
    crate::heap_trim::give_back_soon();
    view
}

/// The messages of the shown path above `message_id` (the first message of a tail read
/// before), first message first.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn earlier_messages(
    state: State<'_, AppState>,
    message_id: String,
) -> Result<Vec<MessageView>, IpcError> {
    let store = state.store()?;
    let conversation = store.message(&message_id)?.conversation_id;
    let messages = store.with_loops_opened(|s| s.messages_above(&message_id))?;
    let versions = store.versions(&conversation)?;
    crate::heap_trim::give_back_soon();
    Ok(MessageView::with_versions(
        &messages,
        &versions,
        &state.prices(),
    ))
}

#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn create_conversation(
    state: State<'_, AppState>,
    provider: Option<String>,
    model: Option<String>,
    settings: Option<ReasoningSettings>,
) -> Result<ConversationView, IpcError> {
    let c = state.store()?.create_conversation(NewConversation {
        title: String::new(),
        provider,
        model,
        settings: settings.unwrap_or_default(),
    })?;
    view(&state, &c.id)
}

#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn rename_conversation(
    state: State<'_, AppState>,
    id: String,
    title: String,
) -> Result<(), IpcError> {
    Ok(state.store()?.rename_conversation(&id, &title)?)
}

#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn delete_conversation(state: State<'_, AppState>, id: String) -> Result<(), IpcError> {
    let store = state.store()?;
    store.delete_conversation(&id)?;
    // The files only its questions had go with it, after a pass through the whole history
    // that the deletion does not wait for.
    crate::indexing::collect_soon(store);
    Ok(())
}

#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn pin_conversation(
    state: State<'_, AppState>,
    id: String,
    pinned: bool,
) -> Result<(), IpcError> {
    Ok(state.store()?.set_pinned(&id, pinned)?)
}

/// Hides one thought of an answer (or shows it again): kept, but not shown, exported or sent
/// back unless the provider needs it.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn set_thought_hidden(
    state: State<'_, AppState>,
    message_id: String,
    index: usize,
    hidden: bool,
) -> Result<crate::ipc::MessageView, IpcError> {
    let stored = state
        .store()?
        .set_thought_hidden(&message_id, index, hidden)?;
    Ok(crate::ipc::MessageView::new(&stored, &state.prices()))
}

/// The whole text of a message's `index`-th thought (views carry only the start of long
/// ones), for the pane being opened.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn thought_text(
    state: State<'_, AppState>,
    message_id: String,
    index: usize,
) -> Result<String, IpcError> {
    Ok(state.store()?.thought_text(&message_id, index)?)
}

/// The model a conversation talks to next, saved as soon as the user picks it.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn set_conversation_model(
    app: tauri::AppHandle,
    state: State<'_, AppState>,
    id: String,
    provider: String,
    model: String,
) -> Result<(), IpcError> {
    crate::settings::load(&app)?
        .catalog()
        .resolve(Some(&provider), &model)?;
    Ok(state
        .store()?
        .set_conversation_model(&id, &provider, &model)?)
}

#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn set_conversation_settings(
    state: State<'_, AppState>,
    id: String,
    settings: ReasoningSettings,
) -> Result<ConversationView, IpcError> {
    state.store()?.set_conversation_settings(&id, &settings)?;
    view(&state, &id)
}

#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn search(
    state: State<'_, AppState>,
    query: String,
    in_thoughts: Option<bool>,
) -> Result<Vec<SearchHit>, IpcError> {
    let scope = if in_thoughts.unwrap_or(false) {
        SearchScope::TextAndThoughts
    } else {
        SearchScope::Text
    };
    Ok(state.store()?.search(&query, scope, 50)?)
}

pub fn view(state: &AppState, id: &str) -> Result<ConversationView, IpcError> {
    read_view(state, id, None)
}

/// The conversation with its whole shown path, or with the path's end only (`tail`).
fn read_view(
    state: &AppState,
    id: &str,
    tail: Option<usize>,
) -> Result<ConversationView, IpcError> {
    let store = state.store()?;
    let conversation = store.conversation(id)?;
    // A loop of parents (a history edited by hand, or damaged) is opened when it is met
    // here, in the conversation being shown.
    let (messages, earlier) = store.with_loops_opened(|s| match tail {
        None => Ok((s.messages(id)?, 0)),
        Some(count) => s.messages_tail(id, count.max(1)),
    })?;
    let versions = store.versions(id)?;
    let prices = state.prices();
    let totals = store.conversation_totals(id, &prices)?;
    Ok(ConversationView::new(
        conversation,
        &messages,
        earlier,
        &versions,
        totals,
        &prices,
    ))
}

/// Shows another version of a message (the ‹ 2 / 3 › switcher): the conversation as it
/// reads through that version.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn show_version(
    state: State<'_, AppState>,
    message_id: String,
) -> Result<ConversationView, IpcError> {
    let conversation = state.store()?.message(&message_id)?.conversation_id;
    state.store()?.select_version(&message_id)?;
    view(&state, &conversation)
}

/// Tokens and cost per day and model over the last `days` days, for the usage view.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn usage_report(
    state: State<'_, AppState>,
    days: u32,
) -> Result<Vec<ponder_core::store::UsageRow>, IpcError> {
    let since = crate::commands::settings::now_ms() - i64::from(days.clamp(1, 3660)) * 86_400_000;
    Ok(state.store()?.usage_by_day(since, &state.prices())?)
}

/// Every version of an answer (the answers to its question), oldest first, with their
/// figures and thoughts, for the compare view.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn compare_versions(
    state: State<'_, AppState>,
    message_id: String,
) -> Result<Vec<crate::ipc::VersionView>, IpcError> {
    let prices = state.prices();
    Ok(
        ponder_core::compare::versions(&*state.store()?, &message_id, &prices)?
            .into_iter()
            .map(|v| crate::ipc::VersionView {
                figures: v.figures,
                messages: v
                    .turn
                    .iter()
                    .map(|m| crate::ipc::MessageView::whole(m, &prices))
                    .collect(),
            })
            .collect(),
    )
}

/// Deletes one version of a message and everything that followed it; `restore_branch`
/// brings it back.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn delete_branch(
    state: State<'_, AppState>,
    message_id: String,
) -> Result<ConversationView, IpcError> {
    let conversation = state.store()?.message(&message_id)?.conversation_id;
    state.store()?.delete_branch(&message_id)?;
    view(&state, &conversation)
}

#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn restore_branch(
    state: State<'_, AppState>,
    message_id: String,
) -> Result<ConversationView, IpcError> {
    let conversation = state.store()?.message(&message_id)?.conversation_id;
    state.store()?.restore_branch(&message_id)?;
    view(&state, &conversation)
}
