//! Claude's data export: `conversations.json`, a list of conversations (`uuid`, `name`,
//! `created_at`, `chat_messages`). Each message has a `sender` (`human` or `assistant`), its
//! `text`, and in newer exports typed `content` (text, thinking with its summaries, tool use
//! and results), `attachments` with their extracted text, `files`, and the message it follows
//! (`parent_message_uuid`), which is where versions branch.

use serde_json::Value;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::{Built, Draft, ImportError, text};
use crate::chat::{Part, Role, ThinkingBlock, ThoughtSource};
use crate::import::assets::{MAX_PROJECT_NAME, plain_name};

const APP: &str = "claude.ai";
/// The parent Claude gives a conversation's first message.
const ROOT: &str = "00000000-0000-4000-8000-000000000000";

fn ms(value: &Value, key: &str, path: &str) -> Result<Option<i64>, ImportError> {
    match value.get(key).and_then(Value::as_str) {
        None => Ok(None),
        Some(stamp) => OffsetDateTime::parse(stamp, &Rfc3339)
            .map(|t| Some((t.unix_timestamp_nanos() / 1_000_000) as i64))
            .map_err(|e| {
                ImportError::Invalid(format!("{path}.{key} is not a time ({stamp:?}: {e})"))
            }),
    }
}

pub(super) fn conversation(
    item: &Value,
    path: &str,
    assets: &mut dyn crate::import::assets::Assets,
) -> Result<Built, ImportError> {
    let source_id = text(item, "uuid", path)?.to_owned();
    let created_at = ms(item, "created_at", path)?.unwrap_or(0);
    let updated_at = ms(item, "updated_at", path)?.unwrap_or(created_at);
    let messages = item
        .get("chat_messages")
        .and_then(Value::as_array)
        .ok_or_else(|| {
            ImportError::Invalid(format!("{path}.chat_messages is missing or not a list"))
        })?;
    let model = item.get("model").and_then(Value::as_str).map(str::to_owned);
    let mut drafts: Vec<Draft> = Vec::new();
    let mut keys = std::collections::HashSet::new();
    for (i, message) in messages.iter().enumerate() {
        let at = format!("{path}.chat_messages[{i}]");
        let key = text(message, "uuid", &at)?.to_owned();
        let role = match text(message, "sender", &at)? {
            "human" => Role::User,
            "assistant" => Role::Assistant,
            other => {
                return Err(ImportError::Invalid(format!(
                    "{at}.sender is {other:?}, not \"human\" or \"assistant\""
                )));
            }
        };
        // A file from before branches follows the message listed before it.
        let parent = match message.get("parent_message_uuid").and_then(Value::as_str) {
            Some(ROOT) => None,
            Some(parent) => Some(parent.to_owned()),
            None => drafts.last().map(|d| d.key.clone()),
        };
        if let Some(parent) = &parent
            && !keys.contains(parent)
        {
            return Err(ImportError::Invalid(format!(
                "{at}.parent_message_uuid names {parent}, which is not before it in the conversation"
            )));
        }
        let created = ms(message, "created_at", &at)?.unwrap_or(created_at);
        let mut draft = Draft {
            key: key.clone(),
            parent,
            role,
            parts: Vec::new(),
            model: (role == Role::Assistant).then(|| model.clone()).flatten(),
            created_at: created,
            updated_at: ms(message, "updated_at", &at)?.unwrap_or(created),
            thinking_ms: None,
            notes: Vec::new(),
            noted: std::collections::HashSet::new(),
        };
        match message.get("content").and_then(Value::as_array) {
            Some(blocks) if !blocks.is_empty() => {
                for (j, block) in blocks.iter().enumerate() {
                    read_block(block, &mut draft, &format!("{at}.content[{j}]"))?;
                }
            }
            _ => draft.push_text(message.get("text").and_then(Value::as_str).unwrap_or("")),
        }
        read_attached(message, &mut draft);
        keys.insert(key);
        drafts.push(draft);
    }
    let leaf = item
        .get("current_leaf_message_uuid")
        .and_then(Value::as_str)
        .filter(|l| keys.contains(*l))
        .map(str::to_owned)
        .or_else(|| drafts.last().map(|d| d.key.clone()));
    Ok(Built {
        app: APP,
        source_id,
        title: item
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_owned(),
        created_at,
        updated_at,
        archived: false,
        drafts,
        leaf,
        project: project(item, assets),
    })
}

/// What was attached to a message: a document's text when the export holds it, else a mark
/// where it was (Claude's export keeps no files).
fn read_attached(message: &Value, draft: &mut Draft) {
    for attachment in message
        .get("attachments")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = attachment
            .get("file_name")
            .and_then(Value::as_str)
            .unwrap_or("an attachment");
        match attachment.get("extracted_content").and_then(Value::as_str) {
            Some(content) if !content.is_empty() => {
                draft.push_text(&format!("Attached {name}:\n\n```\n{content}\n```"));
            }
            _ => draft.push_text(&format!(
                "[Attached {name}: its content is not in the export]"
            )),
        }
    }
    for file in message
        .get("files")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = file
            .get("file_name")
            .and_then(Value::as_str)
            .unwrap_or("a file");
        draft.push_text(&format!("[Attached {name}: not in the export]"));
        draft.note(
            "Files attached in Claude are not in its export; their places are marked".to_owned(),
        );
    }
}

/// The project a conversation is in: named in it (`project: {uuid, name}`), or by its id
/// (`project_uuid`, or `project.uuid`) among those the export's `projects.json` lists.
fn project(item: &Value, assets: &dyn crate::import::assets::Assets) -> Option<String> {
    let inline = item.get("project");
    let named = inline
        .and_then(|p| p.get("name"))
        .and_then(Value::as_str)
        .map(|n| plain_name(n, MAX_PROJECT_NAME))
        .filter(|n| !n.is_empty());
    if named.is_some() {
        return named;
    }
    let id = item
        .get("project_uuid")
        .or_else(|| inline.and_then(|p| p.get("uuid")))
        .and_then(Value::as_str)?;
    assets.project(id)
}

fn read_block(block: &Value, draft: &mut Draft, path: &str) -> Result<(), ImportError> {
    let kind = text(block, "type", path)?;
    match kind {
        "text" => draft.push_text(block.get("text").and_then(Value::as_str).unwrap_or("")),
        "thinking" => {
            let thinking = block.get("thinking").and_then(Value::as_str).unwrap_or("");
            let summaries: Vec<&str> = block
                .get("summaries")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|s| s.get("summary").and_then(Value::as_str))
                .collect();
            let (text, source) = if thinking.trim().is_empty() {
                (summaries.join("\n\n"), ThoughtSource::Summary)
            } else {
                (thinking.to_owned(), ThoughtSource::Thinking)
            };
            if !text.trim().is_empty() {
                draft.parts.push(Part::Thinking(ThinkingBlock {
                    text,
                    source: Some(source),
                    ..ThinkingBlock::default()
                }));
            }
        }
        "tool_use" => {
            let name = block
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("a tool");
            let input = block.get("input").map(Value::to_string).unwrap_or_default();
            draft.push_text(&format!("Used {name}:\n\n```json\n{input}\n```"));
            draft.note("Tool calls and their results from Claude are kept as text".to_owned());
        }
        "tool_result" => {
            let name = block
                .get("name")
                .and_then(Value::as_str)
                .unwrap_or("the tool");
            let output = match block.get("content") {
                Some(Value::Array(items)) => items
                    .iter()
                    .filter_map(|c| c.get("text").and_then(Value::as_str))
                    .collect::<Vec<_>>()
                    .join("\n"),
                Some(Value::String(s)) => s.clone(),
                _ => String::new(),
            };
            draft.push_text(&format!("Result of {name}:\n\n```\n{output}\n```"));
            draft.note("Tool calls and their results from Claude are kept as text".to_owned());
        }
        other => {
            draft.push_text(&format!("```json\n{block}\n```"));
            draft.note(format!("Claude content of type {other:?} is kept as text"));
        }
    }
    Ok(())
}
