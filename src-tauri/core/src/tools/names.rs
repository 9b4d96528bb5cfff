//! Model-facing tool names: one per (server, tool), valid for every provider, unique.

use crate::chat::ToolSpec;
use crate::mcp::ServerTool;

/// A tool as offered to the model, and where it really lives.
#[derive(Debug, Clone, PartialEq)]
pub struct OfferedTool {
    pub spec: ToolSpec,
    pub server: String,
    /// The server's own name for it.
    pub tool: String,
}

/// The tools of one turn, by the names the model sees.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Toolbox {
    offered: Vec<OfferedTool>,
}

const MAX_NAME: usize = 64;

impl Toolbox {
    /// Names every (server id, tool): the tool's own name where it is valid and no other
    /// server has it, else `server__tool`, made valid and unique.
    pub fn new(tools: Vec<(String, ServerTool)>) -> Self {
        let clean: Vec<String> = tools.iter().map(|(_, t)| valid(&t.name)).collect();
        let mut taken = std::collections::BTreeSet::new();
        let mut offered = Vec::with_capacity(tools.len());
        for (i, (server, tool)) in tools.into_iter().enumerate() {
            let shared = clean.iter().filter(|n| **n == clean[i]).count() > 1;
            let mut name = if shared || clean[i] != tool.name {
                valid(&format!("{server}__{}", tool.name))
            } else {
                clean[i].clone()
            };
            let mut n = 2;
            while taken.contains(&name) {
                let suffix = format!("_{n}");
                let keep = MAX_NAME.saturating_sub(suffix.len());
                name = format!("{}{suffix}", &name[..name.len().min(keep)]);
                n += 1;
            }
            taken.insert(name.clone());
            offered.push(OfferedTool {
                spec: ToolSpec {
                    name,
                    description: tool.description,
                    input_schema: object_schema(tool.input_schema),
                },
                server,
                tool: tool.name,
            });
        }
        Self { offered }
    }

    pub fn specs(&self) -> Vec<ToolSpec> {
        self.offered.iter().map(|t| t.spec.clone()).collect()
    }

    pub fn find(&self, name: &str) -> Option<&OfferedTool> {
        self.offered.iter().find(|t| t.spec.name == name)
    }

    pub fn is_empty(&self) -> bool {
        self.offered.is_empty()
    }

    pub fn len(&self) -> usize {
        self.offered.len()
    }

    pub fn iter(&self) -> impl Iterator<Item = &OfferedTool> {
        self.offered.iter()
    }
}

/// Letters, digits, `_` and `-` only, at most 64 characters, never empty.
fn valid(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(MAX_NAME)
        .collect();
    if out.is_empty() {
        out.push_str("tool");
    }
    out
}

/// Every provider wants an object schema; a server that gives none (or another type) gets
/// one that takes no arguments.
fn object_schema(schema: serde_json::Value) -> serde_json::Value {
    if schema.get("type").and_then(serde_json::Value::as_str) == Some("object") {
        schema
    } else {
        serde_json::json!({ "type": "object", "properties": {} })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn tool(name: &str) -> ServerTool {
        ServerTool {
            name: name.into(),
            description: format!("{name} does things"),
            input_schema: json!({ "type": "object", "properties": {} }),
        }
    }

    #[test]
    fn names_are_the_servers_own_unless_they_clash_or_are_invalid() {
        let box_ = Toolbox::new(vec![
            ("everything".into(), tool("echo")),
            ("everything".into(), tool("get-sum")),
            ("files".into(), tool("read_file")),
            ("time".into(), tool("read_file")),
            ("odd".into(), tool("do.this now")),
            ("long".into(), tool(&"x".repeat(80))),
        ]);
        let names: Vec<String> = box_.specs().into_iter().map(|s| s.name).collect();
        assert_eq!(
            names,
            [
                "echo".to_owned(),
                "get-sum".to_owned(),
                "files__read_file".to_owned(),
                "time__read_file".to_owned(),
                "odd__do_this_now".to_owned(),
                format!("long__{}", "x".repeat(58)),
            ]
        );
        let found = box_.find("time__read_file").unwrap();
        assert_eq!(
            (found.server.as_str(), found.tool.as_str()),
            ("time", "read_file")
        );
        assert!(box_.find("read_file").is_none());
    }

    #[test]
    fn names_stay_unique_when_cleaning_makes_them_equal() {
        let box_ = Toolbox::new(vec![
            ("a".into(), tool("a.b")),
            ("a".into(), tool("a_b")),
            ("a".into(), tool("a b")),
        ]);
        let mut names: Vec<String> = box_.specs().into_iter().map(|s| s.name).collect();
        let count = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), count, "{names:?}");
        for name in &names {
            assert!(name.len() <= 64 && !name.is_empty());
        }
    }

    #[test]
    fn a_schema_that_is_not_an_object_becomes_one_with_no_arguments() {
        let mut odd = tool("ping");
        odd.input_schema = json!({ "type": "string" });
        let box_ = Toolbox::new(vec![("s".into(), odd)]);
        assert_eq!(box_.specs()[0].input_schema["type"], "object");
    }
}
