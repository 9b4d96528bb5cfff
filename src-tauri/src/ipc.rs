//! The shapes that cross IPC. Signatures, provider data and replays never do: the UI shows,
//! it does not resend. `ui/src/lib/types.ts` mirrors these by hand; a test pins the JSON.

use serde::{Deserialize, Serialize};

use ponder_core::catalog::ModelSource;
use ponder_core::chat::{Part, StopReason, ThoughtSource, ToolContent, Usage};
use ponder_core::prices::Prices;
use ponder_core::reasoning::levels::LevelOption;
use ponder_core::reasoning::{Choice, Meaning, ReasoningSettings};
use ponder_core::run::Outcome;
use ponder_core::store::{Conversation, MessageStatus, StoredMessage};

use crate::error::IpcError;

/// A part of a message as the UI shows it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum PartView {
    Text {
        text: String,
    },
    Thinking {
        text: String,
        source: Option<ThoughtSource>,
        /// A summary written by another model (OpenAI, Gemini, Claude 4), labelled as such.
        summary: bool,
        /// Encrypted thoughts with no readable text.
        redacted: bool,
        hidden: bool,
        #[cfg_attr(test, ts(type = "number | null"))]
        duration_ms: Option<u64>,
        token_estimate: Option<u32>,
        /// `text` is only the start of a long thought (enough for the folded preview); the
        /// `thought_text` command gives the whole when the pane opens. A long thread then
        /// opens without carrying every thought across.
        partial: bool,
    },
    ToolCall {
        id: String,
        name: String,
        arguments: String,
    },
    /// What a tool returned (text, or images it made), or why it returned nothing.
    ToolResult {
        call_id: String,
        name: String,
        content: Vec<ToolContent>,
        is_error: bool,
        #[cfg_attr(test, ts(type = "number | null"))]
        duration_ms: Option<u64>,
    },
}

impl From<&Part> for PartView {
    fn from(part: &Part) -> Self {
        Self::of(part, false, Thoughts::Whole)
    }
}

/// How much of each thought a view carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Thoughts {
    Whole,
    /// Long thoughts cut to their start (`PartView::Thinking::partial`).
    Previewed,
}

/// The start of a long thought a view carries: the folded pane's eight preview lines and
/// more, about one screen.
pub const THOUGHT_PREVIEW_BYTES: usize = 1_500;

/// The start of `text`, cut at a line end (or a character boundary) near `max` bytes.
fn thought_start(text: &str, max: usize) -> &str {
    let mut end = max.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let start = &text[..end];
    match start.rfind('\n') {
        Some(line) if line > max / 2 => &start[..line],
        _ => start,
    }
}

impl PartView {
    /// `summarized`: the model that wrote it returns summaries in its thinking blocks (Claude
    /// 4 and later), which the source field alone does not say.
    pub fn of(part: &Part, summarized: bool, thoughts: Thoughts) -> Self {
        match part {
            Part::Thinking(block) => {
                let partial =
                    thoughts == Thoughts::Previewed && block.text.len() > THOUGHT_PREVIEW_BYTES;
                let text = if partial {
                    thought_start(&block.text, THOUGHT_PREVIEW_BYTES)
                } else {
                    &block.text
                };
                Self::Thinking {
                    text: text.to_owned(),
                    source: block.source,
                    summary: summarized || block.source.is_some_and(ThoughtSource::is_summary),
                    redacted: block.is_redacted(),
                    hidden: block.hidden,
                    duration_ms: block.duration_ms,
                    // The window's own estimate (four characters a token) of the whole, which
                    // it no longer has.
                    token_estimate: block.token_estimate.or_else(|| {
                        partial.then(|| {
                            u32::try_from(block.text.chars().count().div_ceil(4))
                                .unwrap_or(u32::MAX)
                        })
                    }),
                    partial,
                }
            }
            Part::Text { text } => Self::Text { text: text.clone() },
            Part::ToolCall(call) => Self::ToolCall {
                id: call.id.clone(),
                name: call.name.clone(),
                arguments: call.arguments.clone(),
            },
            Part::ToolResult(result) => Self::ToolResult {
                call_id: result.call_id.clone(),
                name: result.name.clone(),
                content: result.content.clone(),
                is_error: result.is_error,
                duration_ms: result.duration_ms,
            },
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct MessageView {
    pub id: String,
    #[cfg_attr(test, ts(type = r#""user" | "assistant" | "tool""#))]
    pub role: &'static str,
    pub status: MessageStatus,
    pub parts: Vec<PartView>,
    pub provider: Option<String>,
    pub model: Option<String>,
    pub choice: Option<Choice>,
    pub usage: Usage,
    #[cfg_attr(test, ts(type = "number | null"))]
    pub thinking_ms: Option<u64>,
    pub stop: Option<StopReason>,
    pub error: Option<IpcError>,
    /// What Ponder told the user about the turn when it was sent: how the level was read,
    /// warnings, how the history went (a quiet line under the answer).
    pub notes: Vec<String>,
    #[cfg_attr(test, ts(type = "number"))]
    pub created_at: i64,
    /// The ids of every version of this message (its siblings and itself, oldest first);
    /// empty when there is only this one.
    pub versions: Vec<String>,
    /// US dollars, where the model's prices are listed.
    pub cost: Option<f64>,
}

impl MessageView {
    /// A stored message as the window shows it, with what it cost at `prices`; long
    /// thoughts carry only their start.
    pub fn new(m: &StoredMessage, prices: &Prices) -> Self {
        Self::with(m, prices, Thoughts::Previewed)
    }

    /// Messages of a shown path, each naming its versions (from the conversation's `versions`).
    pub fn with_versions(
        messages: &[StoredMessage],
        versions: &std::collections::HashMap<String, Vec<String>>,
        prices: &Prices,
    ) -> Vec<Self> {
        messages
            .iter()
            .map(|m| Self {
                versions: versions.get(&m.id).cloned().unwrap_or_default(),
                ..Self::new(m, prices)
            })
            .collect()
    }

    /// As `new`, with every thought whole (the compare view shows them side by side).
    pub fn whole(m: &StoredMessage, prices: &Prices) -> Self {
        Self::with(m, prices, Thoughts::Whole)
    }

    fn with(m: &StoredMessage, prices: &Prices, thoughts: Thoughts) -> Self {
        let summarized = summarizes(m.message.origin.as_ref());
        Self {
            id: m.id.clone(),
            role: m.message.role.as_str(),
            status: m.status,
            parts: m
                .message
                .parts
                .iter()
                .map(|p| PartView::of(p, summarized, thoughts))
                .collect(),
            provider: m.message.origin.as_ref().map(|o| o.provider.clone()),
            model: m.message.origin.as_ref().map(|o| o.model.clone()),
            choice: m.choice,
            usage: m.usage,
            thinking_ms: m.thinking_ms,
            stop: m.stop.clone(),
            error: m
                .error_code
                .as_ref()
                .map(|code| IpcError::provider(code, m.error_message.clone().unwrap_or_default())),
            notes: m.notes.clone(),
            created_at: m.created_at,
            versions: Vec::new(),
            cost: prices.message_cost(m),
        }
    }
}

/// Whether the model behind an answer returns summarized thinking (its rule says so).
fn summarizes(origin: Option<&ponder_core::chat::Origin>) -> bool {
    origin
        .and_then(|o| {
            ponder_core::catalog::Catalog::builtin()
                .resolve(Some(&o.provider), &o.model)
                .ok()
        })
        .is_some_and(|model| model.shows == ponder_core::catalog::Shows::Summary)
}

impl MessageView {
    /// An answer that ran but could not be written, from what is in memory.
    pub fn unsaved(id: &str, outcome: &Outcome, choice: Choice, notes: Vec<String>) -> Self {
        let turn = outcome.turn();
        let status = match outcome {
            Outcome::Done(_) => MessageStatus::Complete,
            Outcome::Failed(_) => MessageStatus::Error,
            Outcome::Cancelled(_) => MessageStatus::Cancelled,
        };
        let thinking_ms: u64 = turn.message.thinking().filter_map(|b| b.duration_ms).sum();
        Self {
            id: id.to_owned(),
            role: "assistant",
            status,
            parts: turn
                .message
                .parts
                .iter()
                .map(|p| {
                    // Not stored, so nothing to fetch the rest of a thought from later.
                    PartView::of(p, summarizes(turn.message.origin.as_ref()), Thoughts::Whole)
                })
                .collect(),
            provider: turn.message.origin.as_ref().map(|o| o.provider.clone()),
            model: turn.message.origin.as_ref().map(|o| o.model.clone()),
            choice: Some(choice),
            usage: turn.usage,
            thinking_ms: (thinking_ms > 0).then_some(thinking_ms),
            stop: turn.stop.clone(),
            error: turn.error.as_ref().map(IpcError::from),
            notes,
            created_at: crate::commands::settings::now_ms(),
            versions: Vec::new(),
            cost: None,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ConversationView {
    pub id: String,
    pub title: String,
    #[cfg_attr(test, ts(type = "number"))]
    pub created_at: i64,
    #[cfg_attr(test, ts(type = "number"))]
    pub updated_at: i64,
    pub provider: Option<String>,
    pub model: Option<String>,
    pub settings: ReasoningSettings,
    pub pinned: bool,
    pub archived: bool,
    pub messages: Vec<MessageView>,
    /// How many messages of the shown path come before `messages` and were not read: a view
    /// opened at its end (`earlier_messages` reads them). 0 for a whole view.
    pub earlier: u32,
    /// What every answer in it cost, every version included (US dollars); none when no
    /// answer's model has listed prices.
    pub cost: Option<f64>,
    /// What its answers took, every version included: thinking time, tokens, cost.
    pub totals: ponder_core::store::ConversationTotals,
}

/// One version of an answer, for the compare view: its figures and its messages (the steps
/// of a tool loop included), with their thoughts.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct VersionView {
    pub figures: ponder_core::compare::VersionFigures,
    pub messages: Vec<MessageView>,
}

impl ConversationView {
    /// The conversation with the path it shows (all of it, or its end with `earlier`
    /// messages before it left to read); `versions` names the other versions of the
    /// messages that have them.
    pub fn new(
        c: Conversation,
        messages: &[StoredMessage],
        earlier: usize,
        versions: &std::collections::HashMap<String, Vec<String>>,
        totals: ponder_core::store::ConversationTotals,
        prices: &Prices,
    ) -> Self {
        Self {
            id: c.id,
            title: c.title,
            created_at: c.created_at,
            updated_at: c.updated_at,
            provider: c.provider,
            model: c.model,
            settings: c.settings,
            pinned: c.pinned,
            archived: c.archived,
            messages: MessageView::with_versions(messages, versions, prices),
            earlier: u32::try_from(earlier).unwrap_or(u32::MAX),
            cost: totals.cost,
            totals,
        }
    }
}

/// One model in the picker.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ModelView {
    pub provider: String,
    pub provider_name: String,
    pub id: String,
    pub name: String,
    pub context_window: u32,
    pub max_output: u32,
    /// budget, adaptive, effort, level, toggle, always or none.
    pub thinking: &'static str,
    pub can_disable: bool,
    /// Chat Completions and Responses can both serve it (the conversation may choose).
    pub api_choice: bool,
    /// full, summary or none.
    pub shows: String,
    /// The provider needs a key and none is stored.
    pub needs_key: bool,
    /// False when no source knows the id (no hand rule, nothing in the model list or the
    /// provider's live list): it gets the provider's generic rule and the picker says
    /// "thinking support unknown".
    pub known: bool,
    /// Where its thinking rule comes from: a hand rule, derived from the model list, or none.
    pub rule: ponder_core::catalog::RuleSource,
    /// Where the id comes from.
    pub source: ModelSource,
    /// The day its newest snapshot came out (YYYY-MM-DD), where known.
    pub released: Option<String>,
    /// Only the choices this model supports, each with its meaning.
    pub levels: Vec<LevelOption>,
    /// Its prices in the embedded model list, where listed (dollars per million tokens).
    pub listed_price: Option<ponder_core::prices::PriceFigures>,
}

/// What the next turn will send (`translate_preview`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct TranslatePreview {
    /// The feedback lines for the choice: a headline, then one indented line per detail.
    pub feedback: String,
    pub warnings: Vec<String>,
    pub meaning: ponder_core::reasoning::Meaning,
    /// Where the next turn goes.
    pub url: String,
    /// The whole body of the next turn's request, as `run_turn` will send it.
    #[cfg_attr(test, ts(type = "Record<string, unknown>"))]
    pub request: serde_json::Value,
    /// Its headers, the key replaced by a placeholder.
    pub headers: std::collections::BTreeMap<String, String>,
    pub stream: bool,
    pub api: ponder_core::reasoning::plan::Endpoint,
    /// The cap on the answer (thinking included) the request sends, if any.
    pub output_cap: Option<u32>,
    /// The thinking budget it sends, where the model takes one.
    pub thinking_budget: Option<u32>,
    /// What the conversation costs in context once stripped (none for a new chat).
    pub context_tokens: Option<ponder_core::providers::tokens::TokenCount>,
}

/// How many models each provider listed, and why the others could not be asked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct RefreshReport {
    pub listed: std::collections::BTreeMap<String, usize>,
    pub failed: std::collections::BTreeMap<String, String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ProviderView {
    pub id: String,
    pub name: String,
    /// The wire protocol it speaks: settings that exist for one protocol (Anthropic's prompt
    /// caching) show for every provider speaking it, custom ones included.
    pub protocol: ponder_core::catalog::Protocol,
    pub enabled: bool,
    pub base_url: String,
    pub default_base_url: String,
    pub needs_key: bool,
    pub has_key: bool,
    /// The environment variable that can hold the key instead of the keyring.
    pub key_env: String,
    /// A server the user added (it can be removed).
    pub custom: bool,
    /// Signed in to instead of given a key: `github` (Copilot's device flow).
    #[cfg_attr(test, ts(optional = nullable))]
    pub sign_in: Option<String>,
}

/// Everything a running turn tells the UI, in order. Exactly one of `done`, `error` or
/// `cancelled` ends it, sent after the history has it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum StreamEvent {
    Started {
        run_id: String,
        /// The stored question, which the UI shows under a local id until now.
        user_message_id: String,
        message_id: String,
    },
    Plan {
        feedback: String,
        warnings: Vec<String>,
        meaning: Meaning,
        /// The turn's note line: how the level was read, warnings and notes.
        notes: Vec<String>,
    },
    Notice {
        text: String,
    },
    Retry {
        attempt: u32,
        #[cfg_attr(test, ts(type = "number"))]
        wait_ms: u64,
        message: String,
    },
    ThinkingStart {
        source: ThoughtSource,
    },
    ThinkingDelta {
        text: String,
        /// When the first of these words reached Ponder, in ms since the Unix epoch: what
        /// the time from a token's arrival to its paint is counted from.
        at: f64,
    },
    ThinkingEnd,
    ThinkingRedacted,
    TextDelta {
        text: String,
        /// As for `ThinkingDelta`.
        at: f64,
    },
    ToolCall {
        name: String,
    },
    Usage {
        usage: Usage,
    },
    /// A step of a tool loop is stored; its calls run next.
    StepFinished {
        message_id: String,
    },
    /// A call starts (it may first wait for the user's approval).
    ToolStarted {
        call_id: String,
        name: String,
        server: Option<String>,
        arguments: String,
    },
    ToolFinished {
        result: PartView,
    },
    /// A call waits for the user: the approval card (answered with `answer_tool_call`).
    ApprovalNeeded {
        call_id: String,
        server: String,
        tool: String,
        /// The arguments, pretty-printed JSON.
        arguments: String,
    },
    /// The results are stored as their own message; the next step streams into `message_id`.
    NextStep {
        tool_message_id: String,
        message_id: String,
    },
    Done {
        message: MessageView,
    },
    Error {
        error: IpcError,
        message: Option<MessageView>,
    },
    Cancelled {
        message: MessageView,
    },
}

/// What the user sends.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct SendRequest {
    pub conversation_id: Option<String>,
    pub text: String,
    pub provider: String,
    pub model: String,
    /// The conversation's choice; saved on it.
    pub choice: Choice,
    /// A choice for this message only (the one-message override); not saved.
    #[serde(default)]
    pub once: Option<Choice>,
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// The UI's types.ts mirrors these by hand; this pins the JSON they agree on.
    #[test]
    fn stream_events_serialize_as_the_ui_expects() {
        let cases = [
            (
                StreamEvent::Started {
                    run_id: "r".into(),
                    user_message_id: "u".into(),
                    message_id: "m".into(),
                },
                json!({"type": "started", "runId": "r", "userMessageId": "u", "messageId": "m"}),
            ),
            (
                StreamEvent::ThinkingStart {
                    source: ThoughtSource::Summary,
                },
                json!({"type": "thinkingStart", "source": "summary"}),
            ),
            (
                StreamEvent::ThinkingDelta {
                    text: "hm".into(),
                    at: 1.5,
                },
                json!({"type": "thinkingDelta", "text": "hm", "at": 1.5}),
            ),
            (StreamEvent::ThinkingEnd, json!({"type": "thinkingEnd"})),
            (
                StreamEvent::TextDelta {
                    text: "Hi".into(),
                    at: 2.0,
                },
                json!({"type": "textDelta", "text": "Hi", "at": 2.0}),
            ),
            (
                StreamEvent::Retry {
                    attempt: 1,
                    wait_ms: 500,
                    message: "Overloaded".into(),
                },
                json!({"type": "retry", "attempt": 1, "waitMs": 500, "message": "Overloaded"}),
            ),
            (
                StreamEvent::Error {
                    error: IpcError::provider("auth", "invalid x-api-key".into()),
                    message: None,
                },
                json!({"type": "error", "error": {"code": "auth", "message": "invalid x-api-key"}, "message": null}),
            ),
        ];
        for (event, expected) in cases {
            assert_eq!(serde_json::to_value(&event).unwrap(), expected);
        }
    }

    #[test]
    fn thinking_parts_show_no_signature_or_provider_data() {
        let part = Part::Thinking(ponder_core::chat::ThinkingBlock {
            text: "t".into(),
            source: Some(ThoughtSource::Thinking),
            signature: Some("SECRET-SIGNATURE".into()),
            provider_data: Some(json!({"encrypted_content": "SECRET-DATA"})),
            ..Default::default()
        });
        let view = serde_json::to_string(&PartView::from(&part)).unwrap();
        assert!(!view.contains("SECRET"), "{view}");
        assert!(view.contains("\"type\":\"thinking\""));
    }

    #[test]
    fn a_long_thought_is_previewed_by_its_start_with_the_whole_estimate() {
        let thought = |text: &str| {
            Part::Thinking(ponder_core::chat::ThinkingBlock {
                text: text.into(),
                source: Some(ThoughtSource::Thinking),
                ..Default::default()
            })
        };
        // Lines of 33 bytes, with a two-byte character to cut beside: about 8 KB.
        let long: String = (0..250)
            .map(|i| format!("line {i:03} of the thought, é ok...\n"))
            .collect();
        assert_eq!(long.lines().next().unwrap().len(), 33);
        let view = |text: &str, thoughts| match PartView::of(&thought(text), false, thoughts) {
            PartView::Thinking {
                text,
                partial,
                token_estimate,
                ..
            } => (text, partial, token_estimate),
            other => panic!("{other:?}"),
        };
        let (start, partial, estimate) = view(&long, Thoughts::Previewed);
        assert!(partial);
        assert!(start.len() <= THOUGHT_PREVIEW_BYTES && start.len() > THOUGHT_PREVIEW_BYTES - 34);
        assert!(
            long.starts_with(&start) && start.ends_with("ok..."),
            "cut at a line end"
        );
        assert_eq!(
            estimate,
            Some(u32::try_from(long.chars().count().div_ceil(4)).unwrap())
        );
        // Short thoughts, and whole views, are as stored.
        assert_eq!(
            view("short", Thoughts::Previewed),
            ("short".into(), false, None)
        );
        assert_eq!(view(&long, Thoughts::Whole), (long.clone(), false, None));
        // One unbroken line is cut at a character boundary.
        let line = "é".repeat(3_000);
        let (start, partial, _) = view(&line, Thoughts::Previewed);
        assert!(partial && line.starts_with(&start) && start.len() == THOUGHT_PREVIEW_BYTES);
    }

    #[test]
    fn claude_4_thinking_is_labelled_a_summary_and_3_7_is_not() {
        let block = Part::Thinking(ponder_core::chat::ThinkingBlock {
            text: "t".into(),
            source: Some(ThoughtSource::Thinking),
            ..Default::default()
        });
        let origin = |model: &str| ponder_core::chat::Origin {
            provider: "anthropic".into(),
            model: model.into(),
        };
        let summary = |model: &str| match PartView::of(
            &block,
            summarizes(Some(&origin(model))),
            Thoughts::Whole,
        ) {
            PartView::Thinking { summary, .. } => summary,
            _ => unreachable!(),
        };
        assert!(summary("claude-opus-4-5"));
        assert!(summary("claude-sonnet-4-20250514"));
        assert!(
            !summary("claude-3-7-sonnet-20250219"),
            "3.7 returns its full thinking"
        );
    }
}
