//! A turn: the one place that joins reasoning, request building, HTTP and the stream.
//! history + settings → plan → request → stream → fold → exactly one terminal outcome.
//!
//! - `session` is a turn's whole life, which the app and the command line both drive;
//! - `setup` turns what the user asked (a model, a level, a conversation) into a request;
//! - `turn` runs it against the provider (`run_turn`);
//! - `record` runs it as part of a stored conversation (`run_recorded`).

mod record;
mod recording;
mod session;
mod setup;
mod step;
#[cfg(test)]
mod tests;
mod turn;

pub use record::{Question, run_recorded, run_recorded_with_tools};
pub use recording::{RecordError, RecordOptions, RecordedEvent, Runner};
pub use session::Session;
pub use setup::{Ask, Place, SetupError, TurnSetup, setup};
pub use turn::{run_turn, run_turn_into};

use crate::catalog::ModelInfo;
use crate::chat::{ChatEvent, Message, ToolSpec};
use crate::draft::Turn;
use crate::providers::http::{HttpRequest, RetryNotice};
use crate::providers::request::WireInput;
use crate::providers::to_wire;
use crate::providers::{endpoint_url, request_headers};
use crate::reasoning::choice::Choice;
use crate::reasoning::overrides::Overrides;
use crate::reasoning::plan::{ApiChoice, Plan, TurnContext};
use crate::reasoning::settings::ReasoningSettings;
use crate::reasoning::translate::{TranslateError, translate};

/// Everything one turn needs.
#[derive(Debug, Clone, Copy)]
pub struct TurnRequest<'a> {
    pub model: &'a ModelInfo,
    pub choice: Choice,
    pub overrides: &'a Overrides,
    pub settings: &'a ReasoningSettings,
    pub system: Option<&'a str>,
    /// The conversation, oldest first, ending with the user's new message.
    pub history: &'a [Message],
    /// Overrides the provider's base URL (a proxy, a local server, the mock provider).
    pub base_url: Option<&'a str>,
    pub api: Option<ApiChoice>,
    pub api_key: Option<&'a str>,
    /// Effective tokens already in the conversation.
    pub context_tokens: u64,
    /// The tools the model may call.
    pub tools: &'a [ToolSpec],
    /// Where a provider's keys are short-lived (Copilot): a new key, asked for once when the
    /// provider refuses the one sent with a 401.
    pub renew_key: Option<&'a dyn RenewKey>,
}

/// Where a turn gets a new key when its provider's expired (Copilot's).
pub use crate::providers::auth::RenewKey;

/// What the caller hears while a turn runs.
#[derive(Debug, Clone)]
pub enum RunEvent<'a> {
    /// The plan the engine made (feedback line, warnings), before anything is sent.
    Plan(&'a Plan),
    /// How the history was sent, where the provider's rules beat the settings.
    Notice(String),
    /// An attempt failed before any answer arrived and will be repeated.
    Retry(RetryNotice),
    /// A normalised stream event.
    Chat(ChatEvent),
}

/// The one terminal outcome of a turn. The turn holds whatever arrived, in every case.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Done(Turn),
    Failed(Turn),
    Cancelled(Turn),
}

impl Outcome {
    pub fn turn(&self) -> &Turn {
        match self {
            Self::Done(t) | Self::Failed(t) | Self::Cancelled(t) => t,
        }
    }

    pub fn turn_mut(&mut self) -> &mut Turn {
        match self {
            Self::Done(t) | Self::Failed(t) | Self::Cancelled(t) => t,
        }
    }
}

pub fn plan_for(request: &TurnRequest<'_>) -> Result<Plan, TranslateError> {
    // `enabled = false` sends no reasoning parameters; thoughts a model returns are still kept.
    let choice = if request.settings.enabled {
        request.choice
    } else {
        Choice::Default
    };
    let ctx = TurnContext {
        api: request.api,
        max_output: request.settings.max_output_tokens,
        context_tokens: request.context_tokens,
        long_context_reduction: request.settings.long_context_cut,
        tools: !request.tools.is_empty(),
    };
    translate(choice, request.model, request.overrides, &ctx)
}

/// What a turn sends: the plan, and the HTTP request built from it and the history.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub plan: Plan,
    pub http: HttpRequest,
    /// How the history was sent, where the provider's rules beat the settings.
    pub notices: Vec<String>,
}

/// Builds exactly what `run_turn` sends, without sending it (the request preview uses it).
pub fn prepare(request: &TurnRequest<'_>) -> Result<Prepared, TranslateError> {
    let model = request.model;
    let plan = plan_for(request)?;
    let wire = to_wire(WireInput {
        model,
        plan: &plan,
        settings: request.settings,
        system: request.system,
        history: request.history,
        tools: request.tools,
    });
    let mut headers = request_headers(model, &plan, request.api_key);
    // Copilot counts premium requests by the questions a user asks: a tool loop's next step
    // is the agent's own request.
    if request
        .history
        .last()
        .is_some_and(|m| m.role == crate::chat::Role::Tool)
    {
        for (name, value) in &mut headers {
            if name == "x-initiator" {
                "agent".clone_into(value);
            }
        }
    }
    let http = HttpRequest {
        url: endpoint_url(model, &plan, request.base_url),
        headers,
        body: crate::providers::inline::write(
            &serde_json::to_vec(&wire.body).unwrap_or_default(),
            request.history,
        )
        .into(),
    };
    Ok(Prepared {
        plan,
        http,
        notices: wire.notices,
    })
}

/// What a turn's note line says: how the level was read (with any cut), and every warning
/// and note of the plan. The "switched to" headline is for changing models, not for turns.
pub fn turn_notes(plan: &Plan) -> Vec<String> {
    let feedback = &plan.feedback;
    let mut lines = vec![feedback.thinking.clone()];
    lines.extend(plan.warnings.iter().map(|w| format!("⚠ {w}")));
    lines.extend(feedback.notes.iter().cloned());
    lines
}

/// Room an answer is given in a shared window when the plan names no output cap.
const DEFAULT_ANSWER_ROOM: u32 = 16_384;

/// The newest part of `history` that fits the model's window, how many messages were left
/// out, and its effective tokens. Where the answer counts against the same window as the
/// prompt (Anthropic, most OpenAI-compatible servers), room is left for the output cap the
/// plan will actually send — not the model's whole output limit, which would keep a 200K
/// model below the 150K at which long conversations get smaller budgets.
pub fn fit_history<'h>(
    history: &'h [Message],
    request: &TurnRequest<'_>,
) -> (&'h [Message], usize, u64) {
    use crate::providers::context::{effective_tokens, fit_to_window};

    let model = request.model;
    let room_for = |context_tokens: u64| -> u32 {
        if !model.provider.output_shares_window {
            return 0;
        }
        let planned = plan_for(&TurnRequest {
            context_tokens,
            ..*request
        })
        .ok()
        .and_then(|plan| plan.output_cap());
        planned.unwrap_or_else(|| model.max_output.min(DEFAULT_ANSWER_ROOM))
    };
    let all = effective_tokens(history, request.settings, model).tokens;
    let mut room = room_for(all);
    loop {
        let (sent, left_out) = fit_to_window(history, request.settings, model, room);
        let tokens = if left_out == 0 {
            all
        } else {
            effective_tokens(sent, request.settings, model).tokens
        };
        // Fewer tokens can mean a bigger budget again (under the long-context line), and so
        // a bigger cap: fit once more with it. The cap only grows, so this ends.
        let needed = room_for(tokens);
        if needed <= room {
            return (sent, left_out, tokens);
        }
        room = needed;
    }
}
