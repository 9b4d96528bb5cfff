//! ChatGPT's data export: `conversations.json`, a list of conversations, each a tree of nodes
//! (`mapping`: id → {message, parent, children}) with the node shown last (`current_node`).
//! One answer is often several nodes — the reasoning models' `thoughts`, a `reasoning_recap`
//! ("Thought for 12 seconds"), tool calls and their output, the text — and is read as one
//! message. A node with several children is where versions branch.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::{Built, Draft, ImportError};
use crate::chat::{Part, Role, ThinkingBlock, ThoughtSource};
use crate::import::assets::Assets;

const APP: &str = "chatgpt";

/// Seconds since the epoch (a float) as milliseconds.
fn ms(value: Option<&Value>) -> Option<i64> {
    value
        .and_then(Value::as_f64)
        .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e11)
        .map(|s| (s * 1000.0).round() as i64)
}

pub(super) fn conversation(
    item: &Value,
    path: &str,
    assets: &mut dyn Assets,
) -> Result<Built, ImportError> {
    let mapping = item
        .get("mapping")
        .and_then(Value::as_object)
        .ok_or_else(|| {
            ImportError::Invalid(format!("{path}.mapping is missing or not an object"))
        })?;
    let source_id = item
        .get("conversation_id")
        .or_else(|| item.get("id"))
        .and_then(Value::as_str)
        .ok_or_else(|| {
            ImportError::Invalid(format!("{path} has no \"id\" or \"conversation_id\""))
        })?
        .to_owned();
    let created_at = ms(item.get("create_time")).unwrap_or(0);
    let updated_at = ms(item.get("update_time")).unwrap_or(created_at);
    for (key, node) in mapping {
        if !node.is_object() {
            return Err(ImportError::Invalid(format!(
                "{path}.mapping.{key} is not an object"
            )));
        }
    }
    let tree = Tree::new(mapping);
    let order = tree.depth_first();
    if order.len() < mapping.len() {
        unreached(mapping, &order, path)?;
    }
    let mut folded = Folded::default();
    for key in order {
        let node_path = format!("{path}.mapping.{key}");
        folded.node(&tree, &key, &node_path, created_at, assets)?;
    }
    let leaf = item
        .get("current_node")
        .and_then(Value::as_str)
        .and_then(|c| folded.group.get(c))
        .map(|g| folded.drafts[*g].key.clone());
    Ok(Built {
        app: APP,
        source_id,
        title: item
            .get("title")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned(),
        created_at,
        updated_at,
        archived: item
            .get("is_archived")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        drafts: folded.drafts,
        leaf,
        project: project(item),
    })
}

/// ChatGPT keeps a project's conversations under its id (`gizmo_id` "g-p-…", of the gizmo type
/// "snorlax"); the export names no project, so the id's start stands for its name, which
/// keeps its conversations together.
fn project(item: &Value) -> Option<String> {
    let id = item.get("gizmo_id").and_then(Value::as_str)?;
    let rest = id.strip_prefix("g-p-")?;
    let short: String = rest
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(8)
        .collect();
    (!short.is_empty()).then(|| format!("ChatGPT project {short}"))
}

/// Nodes that no start leads to are nodes whose parents make a loop: refused when one of them
/// holds a message, which would otherwise be lost without a word.
fn unreached(
    mapping: &Map<String, Value>,
    order: &[String],
    path: &str,
) -> Result<(), ImportError> {
    let reached: HashSet<&str> = order.iter().map(String::as_str).collect();
    let lost = mapping.iter().find(|(key, node)| {
        !reached.contains(key.as_str()) && node.get("message").is_some_and(|m| !m.is_null())
    });
    match lost {
        Some((key, _)) => Err(ImportError::Invalid(format!(
            "{path}.mapping.{key} is in a loop: following its parents never reaches the conversation's start"
        ))),
        None => Ok(()),
    }
}

/// The nodes of a conversation, as a tree.
struct Tree<'a> {
    mapping: &'a Map<String, Value>,
    /// How many children each node has, counted once: a node with 50,000 regenerated answers
    /// would otherwise have its list copied for each of them.
    child_count: HashMap<&'a str, usize>,
}

impl<'a> Tree<'a> {
    fn new(mapping: &'a Map<String, Value>) -> Self {
        let mut tree = Self {
            mapping,
            child_count: HashMap::new(),
        };
        tree.child_count = mapping
            .keys()
            .map(|key| (key.as_str(), tree.children(key).len()))
            .collect();
        tree
    }

    /// A node's children that are in the mapping, in their order.
    fn children(&self, key: &str) -> Vec<String> {
        self.mapping[key]
            .get("children")
            .and_then(Value::as_array)
            .map(|c| {
                c.iter()
                    .filter_map(Value::as_str)
                    .filter(|c| self.mapping.contains_key(*c))
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default()
    }

    fn parent_of(&self, key: &str) -> Option<String> {
        self.mapping[key]
            .get("parent")
            .and_then(Value::as_str)
            .filter(|p| self.mapping.contains_key(*p))
            .map(str::to_owned)
    }

    fn is_only_child_of(&self, parent: &str) -> bool {
        self.child_count.get(parent) == Some(&1)
    }

    /// Depth first from the roots, children in their order: parents come before children.
    /// A node reached twice (the file's links make a loop or a join) is read once.
    fn depth_first(&self) -> Vec<String> {
        let mut stack: Vec<String> = self
            .mapping
            .keys()
            .filter(|k| self.parent_of(k).is_none())
            .cloned()
            .collect();
        stack.sort();
        stack.reverse();
        let mut order = Vec::new();
        let mut seen = HashSet::new();
        while let Some(key) = stack.pop() {
            if !seen.insert(key.clone()) {
                continue;
            }
            let mut kids = self.children(&key);
            kids.reverse();
            stack.extend(kids);
            order.push(key);
        }
        order
    }
}

/// The messages read so far, and which node went into which.
#[derive(Default)]
struct Folded {
    drafts: Vec<Draft>,
    /// Each node's message in Ponder: the draft it went into (by index), if any.
    group: HashMap<String, usize>,
    /// What a system message said, for the next answer's notes.
    pending: Vec<String>,
}

impl Folded {
    /// Reads one node into the message it belongs to: a new one, or the answer its parent
    /// began when it is that answer's only continuation.
    fn node(
        &mut self,
        tree: &Tree<'_>,
        key: &str,
        node_path: &str,
        default_at: i64,
        assets: &mut dyn Assets,
    ) -> Result<(), ImportError> {
        let parent = tree.parent_of(key);
        let parent_group = parent.as_deref().and_then(|p| self.group.get(p)).copied();
        let Some(message) = tree.mapping[key].get("message").filter(|m| !m.is_null()) else {
            self.pass_through(key, parent_group);
            return Ok(());
        };
        let author = message.get("author");
        let role = author
            .and_then(|a| a.get("role"))
            .and_then(Value::as_str)
            .ok_or_else(|| {
                ImportError::Invalid(format!("{node_path}.message.author.role is missing"))
            })?;
        let content = message.get("content").ok_or_else(|| {
            ImportError::Invalid(format!("{node_path}.message.content is missing"))
        })?;
        if role == "system" {
            let said = plain_text(content);
            if !said.trim().is_empty() {
                self.pending.push(format!(
                    "ChatGPT's system message, not sent again: {}",
                    said.trim()
                ));
            }
            self.pass_through(key, parent_group);
            return Ok(());
        }
        let at = ms(message.get("create_time")).unwrap_or(default_at);
        let joins = role != "user"
            && parent_group.is_some_and(|g| self.drafts[g].role == Role::Assistant)
            && parent.as_deref().is_some_and(|p| tree.is_only_child_of(p));
        let g = match parent_group.filter(|_| joins) {
            Some(g) => g,
            None => self.start(key, role, parent_group, at),
        };
        self.group.insert(key.to_owned(), g);
        let draft = &mut self.drafts[g];
        draft.updated_at = draft.updated_at.max(at);
        if let Some(model) = message
            .get("metadata")
            .and_then(|m| m.get("model_slug"))
            .and_then(Value::as_str)
        {
            draft.model = Some(model.to_owned());
        }
        if draft.role == Role::Assistant {
            for note in self.pending.drain(..) {
                draft.note(note);
            }
        }
        let name = author
            .and_then(|a| a.get("name"))
            .and_then(Value::as_str)
            .unwrap_or("a tool");
        read_content(content, role, name, draft, node_path, assets)
    }

    /// A node with nothing of its own to show belongs to its parent's message, so that its
    /// children follow that message.
    fn pass_through(&mut self, key: &str, parent_group: Option<usize>) {
        if let Some(g) = parent_group {
            self.group.insert(key.to_owned(), g);
        }
    }

    /// A new message for `key`, after its parent's; its index.
    fn start(&mut self, key: &str, role: &str, parent_group: Option<usize>, at: i64) -> usize {
        self.drafts.push(Draft {
            key: key.to_owned(),
            parent: parent_group.map(|g| self.drafts[g].key.clone()),
            role: if role == "user" {
                Role::User
            } else {
                Role::Assistant
            },
            parts: Vec::new(),
            model: None,
            created_at: at,
            updated_at: at,
            thinking_ms: None,
            notes: Vec::new(),
            noted: HashSet::new(),
        });
        self.drafts.len() - 1
    }
}

/// The strings of `parts`, or `text`, whatever the content type.
fn plain_text(content: &Value) -> String {
    let mut out = Vec::new();
    if let Some(parts) = content.get("parts").and_then(Value::as_array) {
        out.extend(parts.iter().filter_map(Value::as_str).map(str::to_owned));
    }
    if let Some(text) = content.get("text").and_then(Value::as_str) {
        out.push(text.to_owned());
    }
    out.join("\n")
}

fn read_content(
    content: &Value,
    role: &str,
    name: &str,
    draft: &mut Draft,
    path: &str,
    assets: &mut dyn Assets,
) -> Result<(), ImportError> {
    let kind = content
        .get("content_type")
        .and_then(Value::as_str)
        .ok_or_else(|| {
            ImportError::Invalid(format!("{path}.message.content.content_type is missing"))
        })?;
    match kind {
        "text" | "multimodal_text" if role != "tool" => {
            for part in content
                .get("parts")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                match part {
                    Value::String(s) => draft.push_text(s),
                    Value::Object(o) => read_asset(o, role, draft, assets),
                    _ => {}
                }
            }
        }
        "thoughts" => {
            for (i, thought) in content
                .get("thoughts")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .enumerate()
            {
                let summary = thought.get("summary").and_then(Value::as_str).unwrap_or("");
                let body = thought.get("content").and_then(Value::as_str).unwrap_or("");
                let text = match (summary.trim(), body.trim()) {
                    ("", body) => body.to_owned(),
                    (summary, "") => summary.to_owned(),
                    (summary, body) => format!("**{summary}**\n\n{body}"),
                };
                if text.is_empty() {
                    return Err(ImportError::Invalid(format!(
                        "{path}.message.content.thoughts[{i}] has neither a summary nor content"
                    )));
                }
                draft.parts.push(Part::Thinking(ThinkingBlock {
                    text,
                    source: Some(ThoughtSource::Summary),
                    ..ThinkingBlock::default()
                }));
            }
        }
        "reasoning_recap" => {
            // "Thought for 12 seconds" / "Thought for 1m 5s": the time, when it reads.
            let recap = content.get("content").and_then(Value::as_str).unwrap_or("");
            if let Some(ms) = recap_ms(recap) {
                draft.thinking_ms = Some(draft.thinking_ms.unwrap_or(0) + ms);
            }
        }
        "code" if role == "assistant" => {
            let code = content.get("text").and_then(Value::as_str).unwrap_or("");
            let language = content
                .get("language")
                .and_then(Value::as_str)
                .unwrap_or("");
            draft.push_text(&format!("```{language}\n{code}\n```"));
        }
        _ if role == "tool" => {
            let output = plain_text(content);
            draft.push_text(&format!("Output of {name}:\n\n```\n{}\n```", output.trim()));
            draft.note("Tool calls and their output from ChatGPT are kept as text".to_owned());
        }
        other => {
            draft.push_text(&format!("```json\n{content}\n```"));
            draft.note(format!("ChatGPT content of type {other:?} is kept as text"));
        }
    }
    Ok(())
}

/// A file in a message: a question keeps it as its attachment when the export holds it (an
/// archive does; a bare `conversations.json` does not). Otherwise its place is marked.
fn read_asset(part: &Map<String, Value>, role: &str, draft: &mut Draft, assets: &mut dyn Assets) {
    let what = part
        .get("content_type")
        .and_then(Value::as_str)
        .unwrap_or("attachment");
    let pointer = part
        .get("asset_pointer")
        .and_then(Value::as_str)
        .unwrap_or("");
    // Ponder sends files with questions only; an answer's image (one ChatGPT drew) is marked.
    let found = if role == "user" && !pointer.is_empty() {
        assets.attachment(pointer)
    } else {
        Ok(None)
    };
    match found {
        Ok(Some(file)) => draft.parts.push(Part::Attachment(file)),
        Ok(None) => {
            draft.push_text(&format!("[{what} {pointer}: not in the export]"));
            draft.note(format!(
                "An attachment ({what}) is not in ChatGPT's export; its place is marked"
            ));
        }
        Err(why) => {
            draft.push_text(&format!("[{what} {pointer}: could not be kept]"));
            draft.note(format!(
                "A file of ChatGPT's export could not be kept: {why}"
            ));
        }
    }
}

/// "Thought for 12 seconds", "Thought for 1m 5s", "Thought for a couple of seconds".
fn recap_ms(recap: &str) -> Option<u64> {
    let rest = recap.strip_prefix("Thought for ")?;
    let mut total = 0u64;
    let mut found = false;
    let mut number = String::new();
    for word in rest.split(|c: char| c.is_whitespace()) {
        let (digits, unit): (String, String) = word.chars().partition(char::is_ascii_digit);
        if !digits.is_empty() {
            number = digits;
        }
        let unit = if unit.is_empty() { continue } else { unit };
        let Ok(n) = number.parse::<u64>() else {
            continue;
        };
        let scale = match unit.trim_end_matches('.') {
            "h" | "hour" | "hours" => 3_600_000,
            "m" | "min" | "mins" | "minute" | "minutes" => 60_000,
            "s" | "sec" | "secs" | "second" | "seconds" => 1_000,
            _ => continue,
        };
        total += n * scale;
        found = true;
        number.clear();
    }
    found.then_some(total)
}

#[cfg(test)]
mod tests {
    #[test]
    fn recaps_read_as_times() {
        for (recap, ms) in [
            ("Thought for 12 seconds", Some(12_000)),
            ("Thought for 1m 5s", Some(65_000)),
            ("Thought for 2 minutes", Some(120_000)),
            ("Thought for a couple of seconds", None),
            ("Reasoned", None),
        ] {
            assert_eq!(super::recap_ms(recap), ms, "{recap}");
        }
    }
}
