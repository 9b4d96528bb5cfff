//! `translate` and `models`: the reasoning engine from the command line.

use std::io::Write;
use std::path::{Path, PathBuf};

use clap::Args;
use ponder_core::catalog::model_list;
use ponder_core::reasoning::levels::level_options;
use ponder_core::reasoning::{ApiChoice, TurnContext, translate as plan_for};
use serde_json::json;

use crate::Usage;
use crate::settings::AppSettings;

#[derive(Debug, Args)]
pub struct TranslateArgs {
    /// MODEL or MODEL/CHOICE, e.g. claude-sonnet-4-5/med, o3/none, gemini-2.5-flash/12000.
    target: String,
    /// The provider, for a model the catalog does not know or one several providers serve.
    #[arg(long)]
    provider: Option<String>,
    /// Chat Completions or Responses, where a provider has both.
    #[arg(long, value_enum)]
    api: Option<ApiArg>,
    /// The conversation's cap on output tokens.
    #[arg(long, value_name = "N")]
    max_output: Option<u32>,
    /// Tokens already in the conversation.
    #[arg(long, value_name = "N", default_value_t = 0)]
    context_tokens: u64,
    /// A JSON file of reasoning overrides, shaped like `{"providers": {…}}`.
    #[arg(long, value_name = "FILE")]
    overrides: Option<PathBuf>,
    /// The request carries tools.
    #[arg(long)]
    tools: bool,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum ApiArg {
    Chat,
    Responses,
}

#[derive(Debug, Args)]
pub struct ModelsArgs {
    /// Only this provider's models.
    #[arg(long)]
    provider: Option<String>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// What `chat` would send for a model and choice: the same catalog (the user's own servers
/// included) and the same saved overrides, unless a file of overrides is given.
pub fn translate(args: TranslateArgs, settings_file: &Path) -> anyhow::Result<()> {
    let app = AppSettings::read(settings_file)?;
    let catalog = app.catalog();
    let (model_id, choice) = catalog
        .parse_target(args.provider.as_deref(), &args.target)
        .map_err(|e| Usage(e.to_string()))?;
    let model = catalog
        .resolve(args.provider.as_deref(), &model_id)
        .map_err(|e| Usage(e.to_string()))?;
    let overrides = app.overrides(args.overrides.as_deref())?;
    let ctx = TurnContext {
        api: args.api.map(|a| match a {
            ApiArg::Chat => ApiChoice::Chat,
            ApiArg::Responses => ApiChoice::Responses,
        }),
        max_output: args.max_output,
        context_tokens: args.context_tokens,
        tools: args.tools,
        ..TurnContext::default()
    };
    let choice = choice.unwrap_or_default();
    let plan = plan_for(choice, &model, &overrides, &ctx).map_err(|e| Usage(e.to_string()))?;
    let out = json!({
        "provider": plan.provider,
        "model": plan.model,
        "api": plan.api,
        "choice": plan.choice,
        "meaning": plan.meaning,
        "request": plan.request,
        "headers": plan.headers,
        "omit": plan.omit,
        "stream": plan.stream,
        "caching": plan.caching,
        "feedback": plan.feedback.text(),
        "warnings": plan.warnings,
        "generic": plan.generic,
    });
    writeln!(std::io::stdout().lock(), "{}", serde_json::to_string(&out)?)?;
    Ok(())
}

/// The models the picker offers with what each level sends under the saved overrides.
pub fn models(args: ModelsArgs, settings_file: &Path) -> anyhow::Result<()> {
    let app = AppSettings::read(settings_file)?;
    let overrides = &app.overrides(None)?;
    let catalog = &app.catalog();
    let providers: Vec<_> = match &args.provider {
        Some(id) => vec![catalog.provider(id).map_err(|e| Usage(e.to_string()))?],
        None => catalog.providers.iter().collect(),
    };
    let today = model_list::today();
    let rows: Vec<_> = providers
        .iter()
        .map(|provider| (*provider, catalog.offered(&provider.id, &today)))
        .collect();
    if args.json {
        let list: Vec<_> = rows
            .iter()
            .flat_map(|(provider, models)| {
                models.iter().map(move |model| {
                    let listed = model.listed.as_ref();
                    json!({
                        "provider": provider.id,
                        "providerName": provider.name,
                        "model": model.id,
                        "name": model.name,
                        "rule": model.pattern,
                        "contextWindow": model.context_window,
                        "maxOutput": model.max_output,
                        "thinking": model.thinking,
                        "thinkingKnown": !model.is_generic(),
                        "ruleSource": model.rule,
                        "ruleDocs": model.rule_source,
                        "shows": model.shows,
                        "replay": model.replay,
                        "default": model.default,
                        "released": listed.and_then(|m| m.released.as_deref()),
                        "retires": listed.and_then(|m| m.retires.as_deref()),
                        "price": listed.map(|m| &m.price),
                        "levels": level_options(model, overrides),
                    })
                })
            })
            .collect();
        writeln!(
            std::io::stdout().lock(),
            "{}",
            serde_json::to_string(&list)?
        )?;
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    for (provider, models) in &rows {
        writeln!(out, "{} ({})", provider.name, provider.id)?;
        if models.is_empty() {
            writeln!(
                out,
                "  (no fixed list: the models are the ones the server lists, or any id you give)"
            )?;
        }
        for model in models {
            let kind = if model.is_generic() {
                "thinking support unknown (no source knows this id)".to_owned()
            } else {
                format!("{} ({})", model.thinking.kind_name(), model.rule.as_str())
            };
            writeln!(out, "  {:<34} {kind}", model.id)?;
            for level in level_options(model, overrides)
                .iter()
                .filter(|l| l.available)
            {
                writeln!(out, "      {}", level.label)?;
            }
        }
    }
    Ok(())
}
