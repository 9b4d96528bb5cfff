//! Messages: the user's, and the assistant's as it streams — written when the stream starts,
//! flushed while it runs, finished before the outcome is reported.

use rusqlite::{OptionalExtension, Transaction, params};

use super::conversations::{not_found, touch_tx};
use super::parts_codec::{Columns, encode};
use super::rows::{COLUMNS, MessageStatus, StoredMessage, decode, from_row};
use super::{Result, Store, StoreError, new_id, now_ms};
use crate::chat::{Attachment, Origin, Part, Replay, Role, StopReason, Usage};
use crate::reasoning::choice::Choice;

/// How an assistant turn ended, written in one transaction.
#[derive(Debug, Clone, PartialEq)]
pub struct TurnRecord {
    pub status: MessageStatus,
    pub parts: Vec<Part>,
    pub replay: Option<Replay>,
    pub usage: Usage,
    pub stop: Option<StopReason>,
    pub error_code: Option<String>,
    pub error_message: Option<String>,
}

fn thinking_ms(parts: &[Part]) -> Option<i64> {
    let total: u64 = parts
        .iter()
        .filter_map(|p| match p {
            Part::Thinking(b) => b.duration_ms,
            _ => None,
        })
        .sum();
    (total > 0).then(|| i64::try_from(total).unwrap_or(i64::MAX))
}

impl Store {
    pub fn append_user(&self, conversation_id: &str, text: &str) -> Result<StoredMessage> {
        self.ask(conversation_id, text, None)
    }

    /// Stores the user's question after the message the conversation shows last; with
    /// `replaces`, as another version of that question (an edit): beside it, below the same
    /// message. Nothing is removed: the earlier version and its answers stay reachable.
    pub fn ask(
        &self,
        conversation_id: &str,
        text: &str,
        replaces: Option<&str>,
    ) -> Result<StoredMessage> {
        self.ask_with(conversation_id, text, &[], replaces)
    }

    /// A question with the files given with it (already in the attachment store), before its
    /// words.
    pub fn ask_with(
        &self,
        conversation_id: &str,
        text: &str,
        files: &[Attachment],
        replaces: Option<&str>,
    ) -> Result<StoredMessage> {
        let id = new_id();
        self.write(|tx| {
            let parent = match replaces {
                Some(replaced) => tx
                    .query_row(
                        "SELECT parent_id FROM messages
                          WHERE id = ?1 AND conversation_id = ?2 AND role = 'user' AND deleted_at IS NULL",
                        params![replaced, conversation_id],
                        |r| r.get::<_, Option<String>>(0),
                    )
                    .optional()?
                    .ok_or_else(|| StoreError::NotFound {
                        what: "message",
                        id: replaced.to_owned(),
                    })?,
                None => super::tree::leaf_of(tx, conversation_id)?,
            };
            let now = now_ms();
            let parts: Vec<Part> = files
                .iter()
                .map(|file| Part::Attachment(Attachment { data: None, ..file.clone() }))
                .chain([Part::Text {
                    text: text.to_owned(),
                }])
                .collect();
            insert_tx(
                tx,
                &NewRow {
                    id: &id,
                    conversation_id,
                    parent: parent.as_deref(),
                    role: Role::User,
                    status: MessageStatus::Complete,
                    parts: &parts,
                    origin: None,
                    may_show: true,
                },
                now,
            )?;
            // The user is looking at what they just asked.
            super::tree::set_leaf(tx, conversation_id, Some(&id))?;
            touch_tx(tx, conversation_id, now)?;
            Ok(())
        })?;
        self.message(&id)
    }

    /// Stores the results of the tools the assistant's step `after` called, below it.
    pub fn append_tool(
        &self,
        conversation_id: &str,
        after: &str,
        results: &[crate::chat::ToolResult],
    ) -> Result<StoredMessage> {
        let id = new_id();
        let parts: Vec<Part> = results.iter().cloned().map(Part::ToolResult).collect();
        self.write(|tx| {
            let now = now_ms();
            insert_tx(
                tx,
                &NewRow {
                    id: &id,
                    conversation_id,
                    parent: Some(after),
                    role: Role::Tool,
                    status: MessageStatus::Complete,
                    parts: &parts,
                    origin: None,
                    may_show: true,
                },
                now,
            )?;
            touch_tx(tx, conversation_id, now)?;
            Ok(())
        })?;
        self.message(&id)
    }

    /// Writes the assistant row as the stream starts, status `streaming`, below `after` (the
    /// question, or the tool results of the step before). Another answer to the same
    /// question is another version of it.
    pub fn start_assistant(
        &self,
        conversation_id: &str,
        after: &str,
        origin: &Origin,
        choice: Choice,
    ) -> Result<String> {
        self.start_answer(conversation_id, after, origin, choice, true)
    }

    /// Like [`Store::start_assistant`] for another answer to a question whose shown answer
    /// is running too (asked at several levels at once): it is kept as a version, and what
    /// the conversation shows does not move to it.
    pub fn start_assistant_beside(
        &self,
        conversation_id: &str,
        after: &str,
        origin: &Origin,
        choice: Choice,
    ) -> Result<String> {
        self.start_answer(conversation_id, after, origin, choice, false)
    }

    fn start_answer(
        &self,
        conversation_id: &str,
        after: &str,
        origin: &Origin,
        choice: Choice,
        may_show: bool,
    ) -> Result<String> {
        let id = new_id();
        self.write(|tx| {
            let now = now_ms();
            insert_tx(
                tx,
                &NewRow {
                    id: &id,
                    conversation_id,
                    parent: Some(after),
                    role: Role::Assistant,
                    status: MessageStatus::Streaming,
                    parts: &[],
                    origin: Some((origin, choice)),
                    may_show,
                },
                now,
            )?;
            tx.execute(
                "UPDATE messages SET run_owner = ?2 WHERE id = ?1",
                params![id, self.owner.id],
            )?;
            touch_tx(tx, conversation_id, now)?;
            Ok(())
        })?;
        Ok(id)
    }

    /// The whole text of the `index`-th thought of a message.
    pub fn thought_text(&self, id: &str, index: usize) -> Result<String> {
        self.message(id)?
            .message
            .thinking()
            .nth(index)
            .map(|block| block.text.clone())
            .ok_or_else(|| StoreError::NotFound {
                what: "thought",
                id: format!("{id}#{index}"),
            })
    }

    /// Hides (or shows again) one thinking block of a message, the `index`-th among its
    /// thinking blocks. A hidden block is kept, with its signature, but not shown, not
    /// exported and not sent back unless the provider needs it.
    pub fn set_thought_hidden(
        &self,
        id: &str,
        index: usize,
        hidden: bool,
    ) -> Result<StoredMessage> {
        let mut message = self.message(id)?;
        let block = message
            .message
            .parts
            .iter_mut()
            .filter_map(|p| match p {
                Part::Thinking(block) => Some(block),
                _ => None,
            })
            .nth(index)
            .ok_or_else(|| StoreError::NotFound {
                what: "thought",
                id: format!("{id}#{index}"),
            })?;
        block.hidden = hidden;
        // All three together: the places in the parts are places in these thoughts.
        let columns = encode(&message.message.parts)?;
        self.write(|tx| {
            tx.execute(
                "UPDATE messages SET parts = ?2, text = ?3, thoughts = ?4 WHERE id = ?1",
                params![id, columns.parts, columns.text, columns.thoughts],
            )?;
            Ok(())
        })?;
        Ok(message)
    }

    /// How long the answer took to start.
    pub fn set_first_token(&self, id: &str, ms: u64) -> Result<()> {
        self.write(|tx| {
            tx.execute(
                "UPDATE messages SET first_token_ms = ?2 WHERE id = ?1",
                params![id, i64::try_from(ms).unwrap_or(i64::MAX)],
            )?;
            Ok(())
        })
    }

    /// Keeps what Ponder told the user about a turn as it was sent, with the message.
    pub fn set_notes(&self, id: &str, notes: &[String]) -> Result<()> {
        let json = serde_json::to_string(notes)?;
        self.write(|tx| {
            tx.execute(
                "UPDATE messages SET notes = ?2 WHERE id = ?1",
                params![id, json],
            )?;
            Ok(())
        })
    }

    /// Saves what has streamed so far; called in batches, never per token.
    pub fn flush_assistant(&self, id: &str, parts: &[Part]) -> Result<()> {
        let columns = encode(parts)?;
        self.write(|tx| {
            tx.execute(
                "UPDATE messages SET parts = ?2, text = ?3, thoughts = ?4, thinking_ms = ?5, updated_at = ?6
                  WHERE id = ?1 AND status = 'streaming'",
                params![id, columns.parts, columns.text, columns.thoughts, thinking_ms(parts), now_ms()],
            )?;
            Ok(())
        })
    }

    /// Writes how the turn ended, in one transaction with the conversation's activity time.
    pub fn finish_assistant(&self, id: &str, record: &TurnRecord) -> Result<()> {
        let Columns {
            parts,
            text,
            thoughts,
        } = encode(&record.parts)?;
        let replay = record
            .replay
            .as_ref()
            .map(|r| super::replay_codec::encode(r, &record.parts))
            .transpose()?;
        let stop = record
            .stop
            .as_ref()
            .map(serde_json::to_string)
            .transpose()?;
        self.write(|tx| {
            let now = now_ms();
            let conversation: Option<String> = tx
                .query_row("SELECT conversation_id FROM messages WHERE id = ?1", [id], |r| r.get(0))
                .optional()?;
            let conversation = conversation.ok_or_else(|| StoreError::NotFound {
                what: "message",
                id: id.to_owned(),
            })?;
            tx.execute(
                "UPDATE messages SET status = ?2, parts = ?3, text = ?4, thoughts = ?5, replay = ?6,
                        input_tokens = ?7, output_tokens = ?8, reasoning_tokens = ?9, cached_tokens = ?10,
                        thinking_ms = ?11, stop_reason = ?12, error_code = ?13, error_message = ?14, updated_at = ?15,
                        run_owner = NULL
                  WHERE id = ?1",
                params![
                    id,
                    record.status.as_str(),
                    parts,
                    text,
                    thoughts,
                    replay,
                    record.usage.input,
                    record.usage.output,
                    record.usage.reasoning,
                    record.usage.cached,
                    thinking_ms(&record.parts),
                    stop,
                    record.error_code,
                    record.error_message,
                    now
                ],
            )?;
            touch_tx(tx, &conversation, now)?;
            Ok(())
        })
    }

    pub fn message(&self, id: &str) -> Result<StoredMessage> {
        let raw = self.read(|c| {
            Ok(c.query_row(
                &format!("SELECT {COLUMNS} FROM messages WHERE id = ?1"),
                [id],
                from_row,
            )
            .optional()?)
        })?;
        decode(raw.ok_or_else(|| StoreError::NotFound {
            what: "message",
            id: id.to_owned(),
        })?)
    }

    /// Leftover `streaming` rows (a crash, a kill) become `interrupted`; their text and
    /// thoughts up to the last flush stay.
    ///
    /// Only rows whose owner is gone are touched: a stream another live process is writing
    /// (the app while the command line opens the same file) is left to it.
    pub(super) fn recover_interrupted(&self) -> Result<usize> {
        let owners: Vec<Option<String>> = self.read(|c| {
            let mut stmt =
                c.prepare("SELECT DISTINCT run_owner FROM messages WHERE status = 'streaming'")?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })?;
        let gone: Vec<Option<String>> = owners
            .into_iter()
            .filter(|o| self.owner.liveness_of(o.as_deref()) == super::owner::Liveness::Gone)
            .collect();
        let recovered = self.write(|tx| {
            let mut count = 0;
            for owner in &gone {
                count += tx.execute(
                    "UPDATE messages SET status = 'interrupted', run_owner = NULL
                      WHERE status = 'streaming' AND run_owner IS ?1",
                    [owner],
                )?;
            }
            Ok(count)
        })?;
        self.owner.sweep();
        Ok(recovered)
    }
}

/// A message row about to be written.
struct NewRow<'a> {
    id: &'a str,
    conversation_id: &'a str,
    /// The message it follows; none for a conversation's first.
    parent: Option<&'a str>,
    role: Role,
    status: MessageStatus,
    parts: &'a [Part],
    /// The model and level of an answer.
    origin: Option<(&'a Origin, Choice)>,
    /// False: never becomes what the conversation shows by being written.
    may_show: bool,
}

fn insert_tx(tx: &Transaction<'_>, row: &NewRow<'_>, now: i64) -> Result<()> {
    let NewRow {
        id,
        conversation_id,
        parent,
        role,
        status,
        parts,
        origin,
        may_show,
    } = *row;
    let seq: i64 = tx.query_row(
        "SELECT coalesce(max(seq), -1) + 1 FROM messages WHERE conversation_id = ?1",
        [conversation_id],
        |r| r.get(0),
    )?;
    let columns = encode(parts)?;
    let role = role.as_str();
    // A message that goes on from what the conversation shows is shown too; one that goes
    // on from another branch (a run the user switched away from) is not.
    let shown = may_show
        && match parent {
            Some(parent) => super::tree::on_shown_path(tx, conversation_id, parent)?,
            None => super::tree::leaf_of(tx, conversation_id)?.is_none(),
        };
    let result = tx.execute(
        "INSERT INTO messages (id, conversation_id, seq, parent_id, role, status, text, thoughts, parts, provider, model, choice, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?13, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?12)",
        params![
            id,
            conversation_id,
            seq,
            role,
            status.as_str(),
            columns.text,
            columns.thoughts,
            columns.parts,
            origin.map(|(o, _)| o.provider.clone()),
            origin.map(|(o, _)| o.model.clone()),
            origin.map(|(_, c)| c.to_string()),
            now,
            parent
        ],
    );
    match result {
        Err(rusqlite::Error::SqliteFailure(e, _))
            if e.code == rusqlite::ErrorCode::ConstraintViolation =>
        {
            Err(not_found(conversation_id))
        }
        Err(e) => Err(e.into()),
        Ok(_) if shown => super::tree::set_leaf(tx, conversation_id, Some(id)),
        Ok(_) => Ok(()),
    }
}
