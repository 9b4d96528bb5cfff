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

/// Every catalog model of the enabled providers, with what each of its levels means.
#[tauri::command(async)]
pub fn list_models(app: AppHandle) -> Result<Vec<ModelView>, IpcError> {
    let settings = crate::settings::load(&app)?;
    let catalog = Catalog::builtin();
    let mut models = Vec::new();
    for provider in catalog
        .providers
        .iter()
        .filter(|p| settings.provider_enabled(&p.id))
    {
        let needs_key =
            provider.api_key_env.is_some() && ponder_core::secrets::api_key(&provider.id).is_err();
        for entry in catalog.models_of(&provider.id) {
            let model = catalog.resolve(Some(&provider.id), &entry.pattern)?;
            models.push(ModelView {
                provider: provider.id.clone(),
                provider_name: provider.name.clone(),
                id: entry.pattern.clone(),
                name: entry.name.clone(),
                context_window: entry.context_window,
                max_output: entry.max_output,
                thinking: entry.thinking.kind_name(),
                can_disable: entry.thinking.can_disable(),
                shows: serde_json::to_value(entry.shows)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default(),
                needs_key,
                levels: level_options(&model),
            });
        }
    }
    Ok(models)
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
            let history = state.store.history(id)?;
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
    let conversation = state.store.conversation(&id)?;
    let history = state.store.history(&id)?;
    Ok(effective_tokens(&history, &conversation.settings, &model))
}
