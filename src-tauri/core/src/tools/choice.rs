//! Which tools a conversation offers: the servers switched on for it, single tools switched
//! off, and the tools it may run without asking. Kept with the conversation's settings, so
//! a profile can carry it too.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ToolChoice {
    /// Server ids whose tools are offered.
    pub servers: Vec<String>,
    /// Tools of those servers left out, as `server/tool`.
    pub off: Vec<String>,
    /// Tools this conversation runs without asking (the user chose "Allow for this
    /// conversation"), as `server/tool`.
    pub allowed: Vec<String>,
}

impl ToolChoice {
    pub fn is_empty(&self) -> bool {
        self.servers.is_empty() && self.off.is_empty() && self.allowed.is_empty()
    }

    /// Whether a tool of a server that is on is offered.
    pub fn offers(&self, server: &str, tool: &str) -> bool {
        self.servers.iter().any(|s| s == server)
            && !self.off.contains(&super::Permissions::key(server, tool))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_is_offered_when_its_server_is_on_and_it_is_not_off() {
        let choice = ToolChoice {
            servers: vec!["everything".into()],
            off: vec!["everything/get-env".into()],
            allowed: Vec::new(),
        };
        assert!(choice.offers("everything", "echo"));
        assert!(!choice.offers("everything", "get-env"));
        assert!(!choice.offers("files", "read_file"));
        assert!(ToolChoice::default().is_empty());
        let json = serde_json::to_value(&choice).unwrap();
        assert_eq!(json["servers"][0], "everything");
        let read: ToolChoice = serde_json::from_str(r#"{"servers":["time"]}"#).unwrap();
        assert!(read.off.is_empty() && read.allowed.is_empty());
    }
}
