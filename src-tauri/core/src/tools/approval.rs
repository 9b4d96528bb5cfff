//! Asking before a tool runs: the user's answers, and what they allow from then on.

use std::collections::BTreeSet;
use std::future::Future;
use std::pin::Pin;

use serde::{Deserialize, Serialize};

/// One call waiting for the user's answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalRequest {
    pub call_id: String,
    /// The server's id and its own name for the tool.
    pub server: String,
    pub tool: String,
    /// The arguments the model gave, as JSON.
    pub arguments: serde_json::Value,
}

/// The user's answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Decision {
    AllowOnce,
    /// This tool, for the rest of this conversation.
    AllowConversation,
    /// This tool, in every conversation from now on (kept in the settings).
    AlwaysAllow,
    Deny,
}

impl Decision {
    pub fn allows(self) -> bool {
        self != Self::Deny
    }
}

/// Whoever answers: the window's approval card, the terminal, or `--yes`.
pub trait Approver: Send + Sync {
    fn approve<'a>(
        &'a self,
        request: &'a ApprovalRequest,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>>;
}

/// What runs without asking: tools always allowed (from the settings) and tools allowed
/// for this conversation, each as `server/tool`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Permissions {
    #[serde(default)]
    pub always: BTreeSet<String>,
    #[serde(default)]
    pub conversation: BTreeSet<String>,
}

impl Permissions {
    pub fn key(server: &str, tool: &str) -> String {
        format!("{server}/{tool}")
    }

    pub fn allowed(&self, server: &str, tool: &str) -> bool {
        let key = Self::key(server, tool);
        self.always.contains(&key) || self.conversation.contains(&key)
    }

    /// Remembers an answer that reaches beyond this call.
    pub fn remember(&mut self, server: &str, tool: &str, decision: Decision) {
        let key = Self::key(server, tool);
        match decision {
            Decision::AllowConversation => {
                self.conversation.insert(key);
            }
            Decision::AlwaysAllow => {
                self.always.insert(key);
            }
            Decision::AllowOnce | Decision::Deny => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_reach_as_far_as_they_say() {
        let cases = [
            (Decision::AllowOnce, false, false),
            (Decision::AllowConversation, true, false),
            (Decision::AlwaysAllow, true, true),
            (Decision::Deny, false, false),
        ];
        for (decision, afterwards, in_settings) in cases {
            let mut p = Permissions::default();
            p.remember("everything", "echo", decision);
            assert_eq!(p.allowed("everything", "echo"), afterwards, "{decision:?}");
            assert_eq!(
                p.always.contains("everything/echo"),
                in_settings,
                "{decision:?}"
            );
            assert!(!p.allowed("everything", "add"), "only that tool");
        }
        assert_eq!(
            serde_json::to_string(&Decision::AllowConversation).unwrap(),
            "\"allowConversation\""
        );
    }
}
