//! One request case: a model, a thinking choice, the conversation's settings and history
//! (and the tools offered, inside a loop) turned into a request body by
//! `providers::to_wire`, then held to the conformance rules every request must keep.
//!
//! `Case::to("anthropic/claude-sonnet-4-5").at(Choice::MEDIUM).settings(include())
//! .history(…).send()`; the pieces conversations are made of are here too, so the request
//! goldens and the tool-loop requests build them the same way.

use ponder_core::catalog::{Catalog, ModelInfo};
use ponder_core::chat::{
    Message, Origin, Part, Replay, Role, ThinkingBlock, ThoughtSource, ToolCall, ToolContent,
    ToolResult, ToolSpec,
};
use ponder_core::providers::request::{WireInput, WireRequest};
use ponder_core::providers::to_wire;
use ponder_core::reasoning::{
    ApiChoice, Choice, Overrides, ReasoningSettings, TurnContext, translate,
};
use serde_json::Value;

use crate::conformance;

pub const SYSTEM: &str = "You are Ponder, a careful assistant. Answer briefly.";

/// What every tool call in these conversations got back.
pub const TOOL_RESULT: &str = "Paris: 18 °C, light rain.";

/// A case that has its model but not yet its thinking choice: the choice changes the body,
/// so no case gets one by default.
pub struct To {
    provider: String,
    model: String,
}

impl To {
    pub fn at(self, choice: Choice) -> Case {
        Case {
            provider: self.provider,
            model: self.model,
            choice,
            api: None,
            settings: defaults(),
            system: Some(SYSTEM),
            history: Vec::new(),
            tools: Vec::new(),
        }
    }
}

pub struct Case {
    provider: String,
    model: String,
    choice: Choice,
    api: Option<ApiChoice>,
    settings: ReasoningSettings,
    system: Option<&'static str>,
    history: Vec<Message>,
    tools: Vec<ToolSpec>,
}

impl Case {
    /// `model` is `provider/model`; the model id may itself hold slashes (OpenRouter's do).
    pub fn to(model: &str) -> To {
        let (provider, model) = model
            .split_once('/')
            .unwrap_or_else(|| panic!("{model}: say provider/model"));
        To {
            provider: provider.into(),
            model: model.into(),
        }
    }

    /// Takes `None` too, so a table of targets can leave the API to the catalog.
    pub fn api(mut self, api: impl Into<Option<ApiChoice>>) -> Self {
        self.api = api.into();
        self
    }

    pub fn settings(mut self, settings: ReasoningSettings) -> Self {
        self.settings = settings;
        self
    }

    pub fn history(mut self, history: impl Into<Vec<Message>>) -> Self {
        self.history = history.into();
        self
    }

    /// Offering tools also tells the plan a loop is running, as a real turn does.
    pub fn tools(mut self, tools: Vec<ToolSpec>) -> Self {
        self.tools = tools;
        self
    }

    pub fn without_system(mut self) -> Self {
        self.system = None;
        self
    }

    /// The request, after checking it against every conformance rule: a rule broken by any
    /// case fails that case, whatever else the case asserts.
    pub fn send(self) -> Sent {
        let Case {
            provider,
            model,
            choice,
            api,
            settings,
            system,
            history,
            tools,
        } = self;
        let history = with_results(history);
        let model = Catalog::builtin()
            .resolve(Some(&provider), &model)
            .unwrap_or_else(|e| panic!("{provider}/{model}: {e}"));
        let ctx = TurnContext {
            api,
            tools: !tools.is_empty(),
            ..TurnContext::default()
        };
        let plan = translate(choice, &model, &Overrides::default(), &ctx).unwrap();
        let mut request = to_wire(WireInput {
            model: &model,
            plan: &plan,
            settings: &settings,
            system,
            history: &history,
            tools: &tools,
        });
        // The body as it is sent: each file's mark replaced by its base64, as `prepare` does.
        let written = ponder_core::providers::inline::write(
            &serde_json::to_vec(&request.body).unwrap(),
            &history,
        );
        request.body = serde_json::from_slice(&written).unwrap();
        let sent = Sent {
            model,
            history,
            request,
        };
        conformance::check(&sent);
        sent
    }
}

pub struct Sent {
    pub model: ModelInfo,
    /// The history as sent, tool results included.
    pub history: Vec<Message>,
    pub request: WireRequest,
}

impl Sent {
    pub fn has_notice(&self, needle: &str) -> bool {
        self.request.notices.iter().any(|n| n.contains(needle))
    }
}

/// The history with a result after every step that called a tool, as a real loop leaves
/// it: a call without its result is not sendable to any provider, and would be dropped
/// before it showed what the case is about.
fn with_results(history: Vec<Message>) -> Vec<Message> {
    let mut out = Vec::with_capacity(history.len());
    let mut pending: Vec<ToolResult> = Vec::new();
    for message in history {
        if !pending.is_empty() && message.role != Role::Tool {
            out.push(Message::tool(std::mem::take(&mut pending)));
        }
        pending = message
            .tool_calls()
            .map(|call| result_of(&call.id, &call.name, false))
            .collect();
        out.push(message);
    }
    if !pending.is_empty() {
        out.push(Message::tool(pending));
    }
    out
}

// ---------------------------------------------------------------------------------------
// The pieces of a conversation

pub fn defaults() -> ReasoningSettings {
    ReasoningSettings::default()
}

pub fn include() -> ReasoningSettings {
    ReasoningSettings {
        include_in_context: true,
        ..ReasoningSettings::default()
    }
}

pub fn user(text: &str) -> Message {
    Message::user(text)
}

pub fn text(text: &str) -> Part {
    Part::Text { text: text.into() }
}

pub fn thought(text: &str, source: ThoughtSource) -> Part {
    Part::Thinking(ThinkingBlock {
        text: text.into(),
        source: Some(source),
        ..ThinkingBlock::default()
    })
}

pub fn call(id: &str, name: &str, arguments: &str) -> Part {
    Part::ToolCall(ToolCall {
        id: id.into(),
        name: name.into(),
        arguments: arguments.into(),
    })
}

/// The call's result, `TOOL_RESULT`.
pub fn result_of(call_id: &str, name: &str, is_error: bool) -> ToolResult {
    ToolResult {
        call_id: call_id.into(),
        name: name.into(),
        content: vec![ToolContent::Text {
            text: TOOL_RESULT.into(),
        }],
        is_error,
        duration_ms: None,
    }
}

/// An assistant turn from `provider`/`model`, with the provider-native turn the mapper kept
/// (`replay_model` is the model id the provider reported, often a dated snapshot).
pub fn assistant(
    provider: &str,
    model: &str,
    replay_model: &str,
    parts: Vec<Part>,
    content: Value,
) -> Message {
    Message {
        role: Role::Assistant,
        parts,
        origin: Some(Origin {
            provider: provider.into(),
            model: model.into(),
        }),
        replay: Some(Replay {
            provider: provider.into(),
            model: replay_model.into(),
            content,
        }),
    }
}
