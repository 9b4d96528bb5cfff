//! A conversation as the window opens it, and an answer's versions for the compare view.

use serde::Serialize;

use ponder_core::prices::Prices;
use ponder_core::reasoning::ReasoningSettings;
use ponder_core::store::{Conversation, StoredMessage};

use super::MessageView;

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
