use std::collections::BTreeMap;

use ponder_core::catalog::ModelInfo;
use ponder_core::catalog::model_list;
use ponder_core::chat::Message;
use ponder_core::providers::context::effective_tokens;
use ponder_core::providers::tokens::TokenCount;
use ponder_core::reasoning::levels::level_options;
use ponder_core::reasoning::{Choice, Level, Overrides, ReasoningSettings, TurnContext, translate};
use ponder_core::run::{TurnRequest, fit_history, prepare};
use ponder_core::sync::Locked;
use serde_json::{Value, json};
use tauri::{AppHandle, State};

use crate::error::{IpcError, IpcErrorCode};
use crate::ipc::{ModelView, RefreshReport, TranslatePreview};
use crate::state::AppState;
use ponder_core::catalog::ModelSource;

/// The models the picker offers for the enabled providers: the real ids of the model list
/// (retired ones left out), what each provider listed live, and what the user added, each
/// once, with what its levels mean.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn list_models(app: AppHandle, state: State<'_, AppState>) -> Result<Vec<ModelView>, IpcError> {
    let settings = crate::settings::load(&app)?;
    let live = state.live_models.locked().clone();
    let catalog = settings.catalog();
    let today = model_list::today();
    let mut models = Vec::new();
    for provider in catalog
        .providers
        .iter()
        .filter(|p| settings.provider_enabled(&p.id))
    {
        let needs_key = provider.api_key_env.is_some()
            && !state.can_ask(provider, settings.base_url(&provider.id));
        let live = live.get(&provider.id).map_or(&[][..], Vec::as_slice);
        let added = settings.added_models(&provider.id);
        for offered in catalog.offer(&provider.id, &today, live, added)? {
            models.push(model_view(
                &offered.model,
                offered.live_name,
                offered.source,
                needs_key,
                &settings.reasoning_overrides,
            ));
        }
        // A conversation that used a retired model still shows what it was and what its
        // levels mean, with a warning; the picker leaves these out.
        for model in catalog.retired(&provider.id, &today, live, added) {
            let mut view = model_view(
                &model,
                None,
                ModelSource::Catalog,
                needs_key,
                &settings.reasoning_overrides,
            );
            view.retired = model.listed.as_ref().and_then(|m| m.retires.clone());
            models.push(view);
        }
    }
    Ok(models)
}

/// One model as the picker shows it, its levels meaning what a turn under the user's
/// overrides sends.
pub fn model_view(
    model: &ModelInfo,
    live_name: Option<String>,
    source: ModelSource,
    needs_key: bool,
    overrides: &Overrides,
) -> ModelView {
    ModelView {
        provider: model.provider.id.clone(),
        provider_name: model.provider.name.clone(),
        id: model.id.clone(),
        name: live_name.unwrap_or_else(|| model.name.clone()),
        context_window: model.context_window,
        max_output: model.max_output,
        thinking: model.thinking.kind_name(),
        can_disable: model.thinking.can_disable(),
        // Copilot's families each have the one API that works for them (seed 003's matrix).
        api_choice: model.provider.responses_api
            && model.provider.sign_in.is_none()
            && !model.listed.as_ref().is_some_and(|m| m.responses_only),
        shows: serde_json::to_value(model.shows)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default(),
        needs_key,
        known: !model.is_generic(),
        rule: model.rule,
        source,
        released: model.listed.as_ref().and_then(|m| m.released.clone()),
        retired: None,
        levels: level_options(model, overrides),
        listed_price: model
            .listed
            .as_ref()
            .map(|m| &m.price)
            .filter(|p| p.input.is_some() || p.output.is_some())
            .map(ponder_core::prices::PriceFigures::from),
    }
}

/// What a token budget typed at the picker's step two (or in Defaults) means for a model:
/// the budget within the model's range, with what a turn then sends under the user's
/// overrides. `None` where a budget means nothing for the model.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn budget_option(
    app: AppHandle,
    state: State<'_, AppState>,
    provider: String,
    model: String,
    tokens: u32,
) -> Result<Option<ponder_core::reasoning::levels::LevelOption>, IpcError> {
    let settings = crate::settings::load(&app)?;
    let model = state
        .with_live(settings.catalog())
        .resolve(Some(&provider), &model)?;
    Ok(ponder_core::reasoning::levels::budget_option(
        &model,
        tokens,
        &settings.reasoning_overrides,
    ))
}

/// Adds a model id the user typed to a provider's models, so the picker offers it from now
/// on, and returns it as the picker shows it.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn add_model(
    app: AppHandle,
    state: State<'_, AppState>,
    provider: String,
    id: String,
) -> Result<ModelView, IpcError> {
    let id = id.trim();
    if id.is_empty() || id.len() > 200 || id.chars().any(char::is_whitespace) {
        return Err(IpcError::new(
            IpcErrorCode::InvalidInput,
            "A model id is one word of at most 200 characters, as the provider spells it.",
        ));
    }
    let settings = crate::settings::load(&app)?;
    let catalog = settings.catalog();
    let provider = catalog.provider(&provider)?;
    let mut providers = settings.providers.clone();
    let entry =
        providers
            .entry(provider.id.clone())
            .or_insert_with(|| crate::settings::ProviderSettings {
                enabled: true,
                ..Default::default()
            });
    if !entry.models.iter().any(|m| m.eq_ignore_ascii_case(id)) {
        entry.models.push(id.to_owned());
        crate::settings::update(&app, &json!({ "providers": providers }))?;
    }
    let model = catalog.resolve(Some(&provider.id), id)?;
    let needs_key =
        provider.api_key_env.is_some() && !state.can_ask(provider, settings.base_url(&provider.id));
    Ok(model_view(
        &model,
        None,
        ModelSource::Added,
        needs_key,
        &settings.reasoning_overrides,
    ))
}

/// Asks every enabled provider that can answer (a key is stored, or none is needed) for its
/// current models; the next `list_models` includes them. Returns how many each listed, and
/// the providers that could not be asked, with why.
#[tauri::command]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub async fn refresh_models(
    app: AppHandle,
    state: State<'_, AppState>,
) -> Result<RefreshReport, IpcError> {
    let settings = crate::settings::load(&app)?;
    let cancel = tokio_util::sync::CancellationToken::new();
    let mut listed = BTreeMap::new();
    let mut failed = BTreeMap::new();
    let catalog = settings.catalog();
    let enabled: Vec<_> = catalog
        .providers
        .iter()
        .filter(|p| settings.provider_enabled(&p.id))
        .collect();
    // All keys at once, off the async runtime: a locked keyring costs one wait, not one each.
    // A provider one signs in to has a token per address instead, read below.
    let ids: Vec<String> = enabled
        .iter()
        .filter(|p| p.sign_in.is_none())
        .map(|p| p.id.clone())
        .collect();
    let mut keys: std::collections::HashMap<_, _> = tokio::task::spawn_blocking(move || {
        ponder_core::secrets::api_keys(ids.iter().map(String::as_str))
    })
    .await
    .unwrap_or_default()
    .into_iter()
    .collect();
    for provider in enabled {
        let base_url = settings.base_url(&provider.id);
        if provider.sign_in.is_some() {
            match copilot_models(&state, &settings, base_url, &cancel).await {
                // Not signed in at this address: another address's list is not this one's.
                Ok(None) => {
                    state.live_models.locked().remove(&provider.id);
                }
                Ok(Some(models)) => {
                    listed.insert(provider.id.clone(), models.len());
                    state
                        .live_models
                        .locked()
                        .insert(provider.id.clone(), models);
                }
                Err(err) => {
                    failed.insert(provider.id.clone(), err.to_string());
                }
            }
            continue;
        }
        let key = keys.remove(&provider.id).and_then(Result::ok);
        if provider.api_key_env.is_some() && key.is_none() {
            continue;
        }
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
                listed.insert(provider.id.clone(), ids.len());
                state.live_models.locked().insert(provider.id.clone(), ids);
            }
            Err(ponder_core::providers::http::AttemptError::Failed(err)) => {
                failed.insert(provider.id.clone(), err.message);
            }
            Err(ponder_core::providers::http::AttemptError::Cancelled) => {}
        }
    }
    Ok(RefreshReport { listed, failed })
}

/// The models of the Copilot account signed in at the address the settings give, from the
/// Copilot API's own list; `None` when no one is signed in there. GitHub and Copilot keep to
/// the stall timeout.
async fn copilot_models(
    state: &AppState,
    settings: &crate::settings::Settings,
    address: Option<&str>,
    cancel: &tokio_util::sync::CancellationToken,
) -> Result<
    Option<Vec<ponder_core::providers::models::LiveModel>>,
    ponder_core::providers::copilot::CopilotError,
> {
    use ponder_core::providers::copilot;
    let hosts = copilot::hosts_for(address)?;
    let asked = hosts.clone();
    let token = tokio::task::spawn_blocking(move || ponder_core::secrets::github_token(&asked))
        .await
        .ok()
        .and_then(Result::ok)
        .flatten();
    let Some(github_token) = token else {
        return Ok(None);
    };
    let http = ponder_core::providers::http::HttpConfig {
        idle_timeout: settings.stall_timeout(),
        ..state.http.clone()
    };
    let session = copilot::Session::start(
        &state.copilot,
        &state.client,
        hosts,
        &github_token,
        &http,
        cancel,
    )
    .await?;
    let models = copilot::fetch_models(&state.client, &session.credentials, &http, cancel).await?;
    Ok(Some(copilot::models::live(&models)))
}

/// Stands in for the key in the preview: it is never read for a preview, let alone shown.
const KEY_PLACEHOLDER: &str = "<your key>";
/// Stands in for the message the user has not written yet.
const NEXT_MESSAGE: &str = "(your next message)";

/// What the next turn will send: the whole request as `run_turn` builds it (the key replaced
/// by a placeholder), the feedback and warnings for the choice, and what the conversation
/// costs in context once stripped.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn translate_preview(
    app: AppHandle,
    state: State<'_, AppState>,
    provider: String,
    model: String,
    choice: Choice,
    settings: ReasoningSettings,
    conversation_id: Option<String>,
) -> Result<TranslatePreview, IpcError> {
    let app_settings = crate::settings::load(&app)?;
    let model = state
        .with_live(app_settings.catalog())
        .resolve(Some(&provider), &model)?;
    let mut history = match &conversation_id {
        Some(id) => state.store()?.history(id)?,
        None => Vec::new(),
    };
    // Each file is named in the preview where its base64 would go, never read for it.
    if let Some(files) = state.store()?.attachments() {
        files.describe_for(&mut history, &model);
    }
    history.push(Message::user(NEXT_MESSAGE));
    let overrides = app_settings.reasoning_overrides.clone();
    // Copilot's API is named by the token exchange; the preview shows the usual one.
    let copilot_api = model.provider.sign_in.map(|_| {
        ponder_core::providers::copilot::hosts_for(app_settings.base_url(&model.provider.id))
            .map_or_else(
                |_| ponder_core::providers::copilot::Hosts::github().default_api(),
                |h| h.default_api(),
            )
    });
    // The tools the next turn offers: those of the conversation's servers that are running.
    // A preview starts nothing; a server not started yet is named instead.
    let mut tool_notes = Vec::new();
    let mut offered = Vec::new();
    let hub = state.hub.clone();
    for server in app_settings
        .mcp_servers
        .iter()
        .filter(|s| s.enabled && settings.tools.servers.contains(&s.id))
    {
        match hub.running_tools(&server.id) {
            Some(tools) => offered.extend(
                tools
                    .into_iter()
                    .filter(|t| settings.tools.offers(&server.id, &t.name))
                    .map(|t| (server.id.clone(), t)),
            ),
            None => tool_notes.push(format!(
                "{}'s tools are added when it starts, with the next message",
                server.name
            )),
        }
    }
    let tools = ponder_core::tools::Toolbox::new(offered).specs();
    let mut turn = TurnRequest {
        model: &model,
        choice,
        overrides: &overrides,
        settings: &settings,
        system: settings
            .system_prompt
            .as_deref()
            .filter(|s| !s.trim().is_empty()),
        history: &[],
        base_url: copilot_api
            .as_deref()
            .or(app_settings.base_url(&model.provider.id)),
        api: settings.api,
        api_key: model.provider.api_key_env.as_ref().map(|_| KEY_PLACEHOLDER),
        context_tokens: 0,
        tools: &tools,
        renew_key: None,
    };
    let (sent, left_out, tokens) = fit_history(&history, &turn);
    turn.history = sent;
    turn.context_tokens = tokens;
    let prepared = prepare(&turn)?;
    let plan = &prepared.plan;
    let body: Value = serde_json::from_slice(&prepared.http.body).unwrap_or_default();
    let headers: BTreeMap<String, String> = prepared.http.headers.iter().cloned().collect();
    let mut warnings = plan.warnings.clone();
    warnings.extend(prepared.notices.iter().cloned());
    warnings.extend(tool_notes);
    if left_out > 0 {
        warnings.push(format!(
            "The oldest {left_out} messages will be left out to fit the model's context window"
        ));
    }
    let context = conversation_id
        .as_ref()
        .map(|_| effective_tokens(&history[..history.len() - 1], &settings, &model));
    Ok(TranslatePreview {
        feedback: plan.feedback.text(),
        warnings,
        meaning: plan.meaning.clone(),
        url: prepared.http.url.clone(),
        request: body,
        headers,
        // Whether the answer streams: the user's setting, and what the request needs.
        stream: plan.stream,
        api: plan.api,
        output_cap: plan.output_cap(),
        thinking_budget: plan.thinking_budget(),
        context_tokens: context,
    })
}

/// What an override map would make of each level, for the editor in Settings: the map is
/// read as the overrides format reads it (`null`, one value, or four for minimal, low, medium, high) and
/// each level translated for `model`, or for the provider's first model when none is given.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn override_meanings(
    app: AppHandle,
    provider: String,
    model: Option<String>,
    reasoning: Value,
) -> Result<Vec<String>, IpcError> {
    let catalog = crate::settings::load(&app)?.catalog();
    let entry = catalog.provider(&provider)?;
    let id = match model.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
        Some(id) => id.to_owned(),
        None => catalog
            .offered(&entry.id, &model_list::today())
            .into_iter()
            .find(|m| !m.is_generic())
            .map_or_else(|| entry.id.clone(), |m| m.id),
    };
    let info = catalog.resolve(Some(&entry.id), &id)?;
    let scope = match &model {
        Some(m) if !m.trim().is_empty() => {
            json!({ "models": { m.trim(): { "reasoning": reasoning } } })
        }
        _ => json!({ "reasoning": reasoning }),
    };
    let overrides: Overrides = serde_json::from_value(json!({ "providers": { &entry.id: scope } }))
        .map_err(|e| IpcError::new(IpcErrorCode::InvalidInput, e.to_string()))?;
    Level::ALL[..4]
        .iter()
        .map(|level| {
            let plan = translate(
                Choice::Level(*level),
                &info,
                &overrides,
                &TurnContext::default(),
            )?;
            Ok(format!(
                "{} on {}: {}",
                level.as_str(),
                info.id,
                plan.feedback.thinking.trim_start_matches("Thinking: ")
            ))
        })
        .collect()
}

/// The effective context tokens of a conversation for a model.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn context_tokens(
    app: AppHandle,
    state: State<'_, AppState>,
    id: String,
    provider: String,
    model: String,
) -> Result<TokenCount, IpcError> {
    let model = crate::settings::load(&app)?
        .catalog()
        .resolve(Some(&provider), &model)?;
    let conversation = state.store()?.conversation(&id)?;
    let history = state.store()?.history(&id)?;
    Ok(effective_tokens(&history, &conversation.settings, &model))
}
