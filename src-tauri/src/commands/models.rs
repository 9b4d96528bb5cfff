use ponder_core::providers::context::effective_tokens;
use ponder_core::providers::tokens::TokenCount;
use ponder_core::reasoning::levels::level_options;
use ponder_core::reasoning::{
    Catalog, Choice, Overrides, ReasoningSettings, TurnContext, translate,
};
use serde_json::{Value, json};
use tauri::{AppHandle, State};

use crate::error::IpcError;
use crate::ipc::ModelView;
use crate::state::AppState;

/// Every catalog model of the enabled providers, plus the models they listed live that the
/// catalog does not know, each with what its levels mean.
#[tauri::command(async)]
pub fn list_models(app: AppHandle, state: State<'_, AppState>) -> Result<Vec<ModelView>, IpcError> {
    let settings = crate::settings::load(&app)?;
    let live = state
        .live_models
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .clone();
    let catalog = Catalog::builtin();
    let mut models = Vec::new();
    for provider in catalog
        .providers
        .iter()
        .filter(|p| settings.provider_enabled(&p.id))
    {
        let needs_key =
            provider.api_key_env.is_some() && ponder_core::secrets::api_key(&provider.id).is_err();
        let known = catalog.models_of(&provider.id).map(|e| e.pattern.clone());
        let unknown = live
            .get(&provider.id)
            .into_iter()
            .flatten()
            .filter(|id| {
                catalog
                    .resolve(Some(&provider.id), id)
                    .is_ok_and(|m| m.is_generic())
            })
            .cloned();
        for id in known.chain(unknown) {
            let model = catalog.resolve(Some(&provider.id), &id)?;
            models.push(ModelView {
                provider: provider.id.clone(),
                provider_name: provider.name.clone(),
                id: id.clone(),
                name: if model.is_generic() {
                    id.clone()
                } else {
                    model.name.clone()
                },
                context_window: model.context_window,
                max_output: model.max_output,
                thinking: model.thinking.kind_name(),
                can_disable: model.thinking.can_disable(),
                shows: serde_json::to_value(model.shows)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default(),
                needs_key,
                known: !model.is_generic(),
                levels: level_options(&model),
            });
        }
    }
    Ok(models)
}

/// Asks every enabled provider that can answer (a key is stored, or none is needed) for its
/// current models; the next `list_models` includes them. Returns how many each listed, and
/// the providers that could not be asked, with why.
#[tauri::command]
pub async fn refresh_models(app: AppHandle, state: State<'_, AppState>) -> Result<Value, IpcError> {
    let settings = crate::settings::load(&app)?;
    let cancel = tokio_util::sync::CancellationToken::new();
    let mut listed = serde_json::Map::new();
    let mut failed = serde_json::Map::new();
    for provider in Catalog::builtin()
        .providers
        .iter()
        .filter(|p| settings.provider_enabled(&p.id))
    {
        let key = ponder_core::secrets::api_key(&provider.id).ok();
        if provider.api_key_env.is_some() && key.is_none() {
            continue;
        }
        let base_url = settings.base_url(&provider.id);
        match ponder_core::providers::models::list_live(
            &state.client,
            provider,
            base_url,
            key.as_deref(),
            &state.http,
            &cancel,
        )
        .await
        {
            Ok(ids) => {
                listed.insert(provider.id.clone(), json!(ids.len()));
                state
                    .live_models
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .insert(provider.id.clone(), ids);
            }
            Err(ponder_core::providers::http::Attempt::Failed(err)) => {
                failed.insert(provider.id.clone(), json!(err.message));
            }
            Err(ponder_core::providers::http::Attempt::Cancelled) => {}
        }
    }
    Ok(json!({ "listed": listed, "failed": failed }))
}

/// What will be sent: the request fields, headers and feedback for a choice, and what the
/// conversation costs in context once stripped.
#[tauri::command(async)]
pub fn translate_preview(
    state: State<'_, AppState>,
    provider: String,
    model: String,
    choice: Choice,
    settings: ReasoningSettings,
    conversation_id: Option<String>,
) -> Result<Value, IpcError> {
    let model = Catalog::builtin().resolve(Some(&provider), &model)?;
    let context = match &conversation_id {
        Some(id) => {
            let history = state.store()?.history(id)?;
            Some(effective_tokens(&history, &settings, &model))
        }
        None => None,
    };
    let ctx = TurnContext {
        max_output: settings.max_tokens,
        context_tokens: context.map_or(0, |c| c.tokens),
        ..TurnContext::default()
    };
    let effective = if settings.enabled {
        choice
    } else {
        Choice::Default
    };
    let plan = translate(effective, &model, &Overrides::default(), &ctx)?;
    Ok(json!({
        "feedback": plan.feedback.text(),
        "warnings": plan.warnings,
        "meaning": plan.meaning,
        "request": plan.request,
        "headers": plan.headers,
        "stream": plan.stream,
        "api": plan.api,
        "contextTokens": context.map(|c: TokenCount| json!({"tokens": c.tokens, "exact": c.exact})),
    }))
}

/// The effective context tokens of a conversation for a model.
#[tauri::command(async)]
pub fn context_tokens(
    state: State<'_, AppState>,
    id: String,
    provider: String,
    model: String,
) -> Result<TokenCount, IpcError> {
    let model = Catalog::builtin().resolve(Some(&provider), &model)?;
    let conversation = state.store()?.conversation(&id)?;
    let history = state.store()?.history(&id)?;
    Ok(effective_tokens(&history, &conversation.settings, &model))
}
