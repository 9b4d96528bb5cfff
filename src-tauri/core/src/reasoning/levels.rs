//! What each choice means for one model, for the picker's second step and `ponder-cli models`.

use serde::Serialize;

use super::choice::Choice;
use super::overrides::Overrides;
use super::plan::{MeaningKind, Plan, TurnContext, thousands};
use super::translate::{CANNOT_DISABLE, translate};
use crate::catalog::{ModelInfo, Thinking};

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LevelOption {
    pub choice: Choice,
    /// `medium — 43,008 tokens`, `off — not available, minimum is LOW`.
    pub label: String,
    /// False when the model cannot do this choice, or does exactly what another choice does.
    pub available: bool,
}

/// The meaning of every named choice for a model under the user's overrides, in picker
/// order: what is shown is what a turn sends. A model without thinking gets no options: the
/// picker skips its second step.
pub fn level_options(model: &ModelInfo, overrides: &Overrides) -> Vec<LevelOption> {
    if matches!(model.thinking, Thinking::None) {
        return Vec::new();
    }
    let ctx = TurnContext::default();
    let plans: Vec<(Choice, Plan)> = Choice::NAMED
        .into_iter()
        .filter_map(|choice| Some((choice, translate(choice, model, overrides, &ctx).ok()?)))
        .collect();
    if matches!(model.thinking, Thinking::Always) {
        return vec![LevelOption {
            choice: Choice::Default,
            label: "always thinks — nothing to choose".to_owned(),
            available: true,
        }];
    }
    let off_unavailable = |choice: Choice, plan: &Plan| {
        choice == Choice::Off && plan.warnings.iter().any(|w| w == CANNOT_DISABLE)
    };
    let same = |a: &Plan, b: &Plan| a.request == b.request && a.meaning == b.meaning;
    let mut options = Vec::new();
    for (choice, plan) in &plans {
        let what = describe(plan);
        // Choices that send exactly the same thing add nothing to the picker: keep the one
        // whose name says what is sent (`low` over `minimal` when minimal means low effort),
        // else the first, and mark the rest as the same.
        let twins: Vec<Choice> = plans
            .iter()
            .filter(|(other, p)| {
                *other != Choice::Default
                    && *choice != Choice::Default
                    && !off_unavailable(*other, p)
                    && same(p, plan)
            })
            .map(|(other, _)| *other)
            .collect();
        let keeper = twins
            .iter()
            .copied()
            .find(|c| {
                plan.meaning
                    .value
                    .as_deref()
                    .is_some_and(|v| v.eq_ignore_ascii_case(&c.to_string()))
            })
            .or_else(|| twins.first().copied());
        let (label, available) = if let Thinking::Toggle { .. } = model.thinking
            && plan.meaning.kind == MeaningKind::Toggle
        {
            // On or off only: `medium` stands for "on" (translate notes the others as "on" too).
            if *choice == Choice::MEDIUM {
                ("on — thinking on".to_owned(), true)
            } else {
                (format!("{choice} — same as on"), false)
            }
        } else if off_unavailable(*choice, plan) {
            (format!("off — not available, minimum is {what}"), false)
        } else if let Some(keeper) = keeper.filter(|k| k != choice) {
            (format!("{choice} — same as {keeper}"), false)
        } else {
            (format!("{choice} — {what}"), true)
        };
        options.push(LevelOption {
            choice: *choice,
            label,
            available,
        });
    }
    options
}

/// What a typed token budget means for a model (the picker's step two and Defaults, as
/// `/model X/12000`): the budget within the model's range, with what it sends. `None` where a
/// budget means nothing (no thinking, or thinking that cannot be steered).
pub fn budget_option(model: &ModelInfo, tokens: u32, overrides: &Overrides) -> Option<LevelOption> {
    let (tokens, bound) = match model.thinking {
        Thinking::None | Thinking::Always => return None,
        Thinking::Budget { min, max, .. } => {
            let floor = min.max(1);
            if tokens < floor {
                (floor, " (the least it takes)")
            } else if tokens > max {
                (max, " (the most it takes)")
            } else {
                (tokens, "")
            }
        }
        _ => (tokens.max(1), ""),
    };
    let choice = Choice::Budget(tokens);
    let plan = translate(choice, model, overrides, &TurnContext::default()).ok()?;
    let what = describe(&plan);
    let asked = format!("{} tokens", thousands(tokens));
    let label = if plan.meaning.kind == MeaningKind::Budget {
        if what == asked {
            format!("{what}{bound}")
        } else {
            // The engine sent less than asked (the model's output limit): say both.
            format!("{asked}{bound} — {what} sent")
        }
    } else {
        format!("{asked}{bound} — {what}")
    };
    Some(LevelOption {
        choice,
        label,
        available: true,
    })
}

/// A short phrase for what a plan means: `43,008 tokens`, `medium effort`, `LOW`.
pub fn describe(plan: &Plan) -> String {
    let meaning = &plan.meaning;
    match meaning.kind {
        MeaningKind::Budget => format!("{} tokens", thousands(meaning.tokens.unwrap_or(0))),
        MeaningKind::Adaptive => format!(
            "adaptive, {} effort",
            meaning.value.as_deref().unwrap_or("?")
        ),
        MeaningKind::Effort => format!("{} effort", meaning.value.as_deref().unwrap_or("?")),
        MeaningKind::Level => meaning.value.clone().unwrap_or_default(),
        MeaningKind::Disabled => "no thinking".to_owned(),
        MeaningKind::ProviderDefault => format!(
            "the provider decides ({})",
            meaning.value.as_deref().unwrap_or("unknown")
        ),
        MeaningKind::Toggle => "thinking on".to_owned(),
        MeaningKind::Always => "always thinks".to_owned(),
    }
}
