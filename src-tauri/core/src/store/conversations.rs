//! Conversations: create, list (pinned first, newest first), rename, pin, archive, delete.

use rusqlite::{OptionalExtension, Row, Transaction, params};
use serde::{Deserialize, Serialize};

use super::{Result, Store, StoreError, new_id, now_ms};
use crate::reasoning::settings::ReasoningSettings;

/// The title of a conversation until its first message names it.
pub const UNTITLED: &str = "New conversation";

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Conversation {
    pub id: String,
    pub title: String,
    pub created_at: i64,
    pub updated_at: i64,
    pub provider: Option<String>,
    pub model: Option<String>,
    /// The reasoning settings, the thinking choice among them.
    pub settings: ReasoningSettings,
    pub pinned: bool,
    pub archived: bool,
    /// The last message of the path through the message tree that the conversation shows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leaf_id: Option<String>,
    /// The project it belongs to, by name (one an imported export put it in).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ConversationSummary {
    pub id: String,
    pub title: String,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub updated_at: i64,
    pub provider: Option<String>,
    pub model: Option<String>,
    pub pinned: bool,
    pub archived: bool,
    pub message_count: u32,
    /// The project it belongs to, by name.
    pub project: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NewConversation {
    pub title: String,
    pub provider: Option<String>,
    pub model: Option<String>,
    pub settings: ReasoningSettings,
}

const COLUMNS: &str = "id, title, created_at, updated_at, provider, model, settings, pinned, archived, leaf_id, project";

fn from_row(row: &Row<'_>) -> rusqlite::Result<(Conversation, String)> {
    Ok((
        Conversation {
            id: row.get("id")?,
            title: row.get("title")?,
            created_at: row.get("created_at")?,
            updated_at: row.get("updated_at")?,
            provider: row.get("provider")?,
            model: row.get("model")?,
            settings: ReasoningSettings::default(),
            pinned: row.get::<_, i64>("pinned")? != 0,
            archived: row.get::<_, i64>("archived")? != 0,
            leaf_id: row.get("leaf_id")?,
            project: row.get("project")?,
        },
        row.get("settings")?,
    ))
}

fn with_settings((mut conversation, settings): (Conversation, String)) -> Result<Conversation> {
    conversation.settings = serde_json::from_str(&settings)?;
    Ok(conversation)
}

impl Store {
    pub fn create_conversation(&self, new: NewConversation) -> Result<Conversation> {
        self.write(|tx| create_tx(tx, new, &new_id(), now_ms()))
    }

    pub fn conversation(&self, id: &str) -> Result<Conversation> {
        self.read(|c| {
            let row = c
                .query_row(
                    &format!("SELECT {COLUMNS} FROM conversations WHERE id = ?1"),
                    [id],
                    from_row,
                )
                .optional()?
                .ok_or_else(|| not_found(id))?;
            with_settings(row)
        })
    }

    /// Pinned first, then the most recently active; archived ones only when asked.
    pub fn list_conversations(&self, include_archived: bool) -> Result<Vec<ConversationSummary>> {
        self.first_conversations(include_archived, None)
    }

    /// The start of `list_conversations`, at most `count` of them: what a window shows first
    /// of a history of a hundred thousand conversations, read before the rest.
    pub fn first_conversations(
        &self,
        include_archived: bool,
        count: Option<usize>,
    ) -> Result<Vec<ConversationSummary>> {
        // SQLite reads a negative limit as none.
        let limit = count.map_or(-1, |n| i64::try_from(n).unwrap_or(i64::MAX));
        self.read(|c| {
            let mut stmt = c.prepare(
                "SELECT c.id, c.title, c.updated_at, c.provider, c.model, c.pinned, c.archived, c.project,
                        (SELECT count(*) FROM messages m WHERE m.conversation_id = c.id AND m.deleted_at IS NULL) AS message_count
                   FROM conversations c
                  WHERE ?1 OR c.archived = 0
                  ORDER BY c.pinned DESC, c.updated_at DESC, c.rowid DESC
                  LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![include_archived, limit], |row| {
                Ok(ConversationSummary {
                    id: row.get("id")?,
                    title: row.get("title")?,
                    updated_at: row.get("updated_at")?,
                    provider: row.get("provider")?,
                    model: row.get("model")?,
                    pinned: row.get::<_, i64>("pinned")? != 0,
                    archived: row.get::<_, i64>("archived")? != 0,
                    message_count: row.get("message_count")?,
                    project: row.get("project")?,
                })
            })?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    pub fn rename_conversation(&self, id: &str, title: &str) -> Result<()> {
        self.update(
            id,
            "UPDATE conversations SET title = ?2, updated_at = ?3 WHERE id = ?1",
            title.trim(),
        )
    }

    pub fn set_pinned(&self, id: &str, pinned: bool) -> Result<()> {
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE conversations SET pinned = ?2 WHERE id = ?1",
                params![id, pinned],
            )?;
            if n == 0 { Err(not_found(id)) } else { Ok(()) }
        })
    }

    pub fn set_archived(&self, id: &str, archived: bool) -> Result<()> {
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE conversations SET archived = ?2 WHERE id = ?1",
                params![id, archived],
            )?;
            if n == 0 { Err(not_found(id)) } else { Ok(()) }
        })
    }

    /// The model a conversation talks to next.
    pub fn set_conversation_model(&self, id: &str, provider: &str, model: &str) -> Result<()> {
        self.write(|tx| {
            let n = tx.execute(
                "UPDATE conversations SET provider = ?2, model = ?3, updated_at = ?4 WHERE id = ?1",
                params![id, provider, model, now_ms()],
            )?;
            if n == 0 { Err(not_found(id)) } else { Ok(()) }
        })
    }

    pub fn set_conversation_settings(&self, id: &str, settings: &ReasoningSettings) -> Result<()> {
        let json = serde_json::to_string(settings)?;
        self.update(
            id,
            "UPDATE conversations SET settings = ?2, updated_at = ?3 WHERE id = ?1",
            &json,
        )
    }

    /// Deletes a conversation and, through the foreign key, its messages. The files only its
    /// questions had go with `collect_attachments`, which reads the whole history: the caller
    /// runs it when the user is not waiting.
    pub fn delete_conversation(&self, id: &str) -> Result<()> {
        self.write(|tx| {
            let n = tx.execute("DELETE FROM conversations WHERE id = ?1", [id])?;
            if n == 0 { Err(not_found(id)) } else { Ok(()) }
        })
    }

    fn update(&self, id: &str, sql: &str, value: &str) -> Result<()> {
        self.write(|tx| {
            let n = tx.execute(sql, params![id, value, now_ms()])?;
            if n == 0 { Err(not_found(id)) } else { Ok(()) }
        })
    }
}

pub(super) fn create_tx(
    tx: &Transaction<'_>,
    new: NewConversation,
    id: &str,
    now: i64,
) -> Result<Conversation> {
    let title = if new.title.trim().is_empty() {
        UNTITLED.to_owned()
    } else {
        new.title.trim().to_owned()
    };
    tx.execute(
        "INSERT INTO conversations (id, title, created_at, updated_at, provider, model, settings)
         VALUES (?1, ?2, ?3, ?3, ?4, ?5, ?6)",
        params![
            id,
            title,
            now,
            new.provider,
            new.model,
            serde_json::to_string(&new.settings)?
        ],
    )?;
    Ok(Conversation {
        id: id.to_owned(),
        title,
        created_at: now,
        updated_at: now,
        provider: new.provider,
        model: new.model,
        settings: new.settings,
        pinned: false,
        archived: false,
        leaf_id: None,
        project: None,
    })
}

pub(super) fn touch_tx(tx: &Transaction<'_>, id: &str, now: i64) -> Result<()> {
    tx.execute(
        "UPDATE conversations SET updated_at = ?2 WHERE id = ?1",
        params![id, now],
    )?;
    Ok(())
}

pub(super) fn not_found(id: &str) -> StoreError {
    StoreError::NotFound {
        what: "conversation",
        id: id.to_owned(),
    }
}

/// A title from the first line of a first message, cut at 60 characters.
pub fn title_from(message: &str) -> String {
    let line = message
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    let mut title: String = line.chars().take(60).collect();
    if line.chars().count() > 60 {
        title.push('…');
    }
    title
}
