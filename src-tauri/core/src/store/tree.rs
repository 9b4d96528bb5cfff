//! The message tree. Every version is kept: a regenerated answer is a sibling of the one
//! before it, an edited question a sibling of the original. A conversation shows one path,
//! from its first message down to its `leaf_id`; switching to a sibling shows the newest
//! path below it. Deleting a branch marks it, so it can be brought back, until the history
//! is next opened an hour or more later.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, params};

use super::conversations::not_found;
use super::rows::{COLUMNS, StoredMessage, decode, from_row};
use super::{Result, Store, StoreError, now_ms};
use crate::chat::{Message, Role};

/// How long a deleted branch can be brought back, at the least.
const UNDO_FOR_MS: i64 = 60 * 60 * 1000;

/// Every start runs it: it reads the partial index of deleted messages, never the table.
pub(super) const PURGE_DELETED: &str =
    "DELETE FROM messages WHERE deleted_at IS NOT NULL AND deleted_at < ?1";

/// The path from the first message down to `last` (both included), without deleted rows.
fn path_to(c: &Connection, last: &str) -> Result<Vec<StoredMessage>> {
    path_end(c, last, i64::MAX)
}

/// The query behind [`path_end`]: `?1` the last message, `?2` how many steps.
fn path_end_query() -> String {
    // CROSS JOIN keeps the path the outer loop: SQLite 3.53 would otherwise scan every
    // message of the history and test each against the path (a bloom filter), reading a
    // page per message to draw a thread's last 40 (10,000 messages: 5,000 reads, 30 ms).
    format!(
        "WITH RECURSIVE path(pid, depth) AS (
             SELECT ?1, 0
             UNION ALL
             SELECT m.parent_id, path.depth + 1 FROM messages m JOIN path ON m.id = path.pid
              WHERE m.parent_id IS NOT NULL AND path.depth + 1 < ?2
         )
         SELECT {COLUMNS}, path.depth FROM path CROSS JOIN messages ON messages.id = path.pid
          WHERE messages.deleted_at IS NULL"
    )
}

/// The last `depth` steps of the path down to `last` (`last` itself is the first step).
fn path_end(c: &Connection, last: &str, depth: i64) -> Result<Vec<StoredMessage>> {
    let depth = depth.min(longest_path(c, last)?);
    let mut stmt = c.prepare_cached(&path_end_query())?;
    // Ordered here, not by SQLite: its sorter would copy every long row (a 2,000-message
    // thread is 15 MB of parts) before the first came out, which took two thirds of the read.
    let rows = stmt.query_map(params![last, depth], |row| {
        Ok((row.get::<_, i64>("depth")?, from_row(row)?))
    })?;
    let mut raws = rows.collect::<rusqlite::Result<Vec<_>>>()?;
    raws.sort_unstable_by_key(|(depth, _)| std::cmp::Reverse(*depth));
    let path: Vec<StoredMessage> = raws
        .into_iter()
        .map(|(_, raw)| decode(raw))
        .collect::<Result<_>>()?;
    refuse_loop(path.iter().map(|m| m.id.as_str()), last)?;
    Ok(path)
}

/// One step more than a path to `last` can have (one per message of its conversation).
/// Walks are bounded by it, so that a history whose parents form a loop (edited by hand, or
/// damaged) ends its queries instead of holding the history forever, and a walk round a loop
/// meets a message twice.
fn longest_path(c: &Connection, last: &str) -> Result<i64> {
    let mut stmt = c.prepare_cached(
        "SELECT count(*) FROM messages
          WHERE conversation_id = (SELECT conversation_id FROM messages WHERE id = ?1)",
    )?;
    Ok(stmt.query_row([last], |r| r.get::<_, i64>(0))? + 1)
}

/// A path that meets a message twice went round a loop of parents.
fn refuse_loop<'a>(ids: impl Iterator<Item = &'a str>, last: &str) -> Result<()> {
    let mut seen = std::collections::HashSet::new();
    for id in ids {
        if !seen.insert(id) {
            return Err(StoreError::TreeLoop {
                message: last.to_owned(),
            });
        }
    }
    Ok(())
}

/// Walks up from `message` until a message repeats, and makes the earliest written message
/// of the loop it went round a first message (a version of the conversation's start, as
/// the loop's first message was before); false when the walk reaches a first message.
fn open_loop_above(tx: &Connection, message: &str) -> Result<bool> {
    let mut walk: Vec<(String, i64)> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut at = message.to_owned();
    while seen.insert(at.clone()) {
        let Some((parent, seq)) = tx
            .query_row(
                "SELECT parent_id, seq FROM messages WHERE id = ?1",
                [&at],
                |r| Ok((r.get::<_, Option<String>>(0)?, r.get::<_, i64>(1)?)),
            )
            .optional()?
        else {
            return Ok(false);
        };
        walk.push((at, seq));
        match parent {
            Some(parent) => at = parent,
            None => return Ok(false),
        }
    }
    // The walk from where it first met `at` is the loop.
    let start = walk.iter().position(|(id, _)| *id == at).unwrap_or(0);
    let Some((earliest, _)) = walk[start..].iter().min_by_key(|(_, seq)| *seq) else {
        return Ok(false);
    };
    tx.execute(
        "UPDATE messages SET parent_id = NULL WHERE id = ?1",
        [earliest],
    )?;
    Ok(true)
}

/// Each step of the path down to `last`, last first: its id, and whether it is deleted.
/// Read from indexes alone: a message's row, even its first columns, sits on pages of its
/// own, and reading one per step of a 10,000-message path took 290 ms warm and 430 ms from
/// disk (the ids alone: 9 and 22 ms).
fn path_steps(c: &Connection, conversation_id: &str, last: &str) -> Result<Vec<(String, bool)>> {
    let deleted: std::collections::HashSet<String> = {
        let mut stmt = c.prepare_cached(
            "SELECT id FROM messages WHERE conversation_id = ?1 AND deleted_at IS NOT NULL",
        )?;
        let rows = stmt.query_map([conversation_id], |r| r.get(0))?;
        rows.collect::<rusqlite::Result<_>>()?
    };
    let mut stmt = c.prepare_cached(
        "WITH RECURSIVE path(pid, depth) AS (
             SELECT ?1, 0
             UNION ALL
             SELECT m.parent_id, path.depth + 1 FROM messages m JOIN path ON m.id = path.pid
              WHERE m.parent_id IS NOT NULL AND path.depth + 1 < ?2
         )
         SELECT pid FROM path ORDER BY depth",
    )?;
    let rows = stmt.query_map(params![last, longest_path(c, last)?], |r| {
        r.get::<_, String>(0)
    })?;
    let steps = rows.collect::<rusqlite::Result<Vec<_>>>()?;
    refuse_loop(steps.iter().map(String::as_str), last)?;
    Ok(steps
        .into_iter()
        .map(|id| {
            let gone = deleted.contains(&id);
            (id, gone)
        })
        .collect())
}

/// Whether the message is a question (the user's), read from its row.
fn is_question(c: &Connection, id: &str) -> Result<bool> {
    let mut stmt = c.prepare_cached("SELECT role = 'user' FROM messages WHERE id = ?1")?;
    Ok(stmt
        .query_row([id], |r| r.get::<_, bool>(0))
        .optional()?
        .unwrap_or(false))
}

pub(super) fn leaf_of(c: &Connection, conversation_id: &str) -> Result<Option<String>> {
    c.query_row(
        "SELECT leaf_id FROM conversations WHERE id = ?1",
        [conversation_id],
        |r| r.get(0),
    )
    .optional()?
    .ok_or_else(|| not_found(conversation_id))
}

/// Whether `id` is on the path the conversation shows (the leaf or one of its ancestors).
pub(super) fn on_shown_path(c: &Connection, conversation_id: &str, id: &str) -> Result<bool> {
    let Some(leaf) = leaf_of(c, conversation_id)? else {
        return Ok(false);
    };
    if leaf == id {
        return Ok(true);
    }
    Ok(c.query_row(
        "WITH RECURSIVE path(pid) AS (
             SELECT ?1
             UNION
             SELECT m.parent_id FROM messages m JOIN path ON m.id = path.pid WHERE m.parent_id IS NOT NULL
         )
         SELECT EXISTS (SELECT 1 FROM path WHERE pid = ?2)",
        params![leaf, id],
        |r| r.get(0),
    )?)
}

pub(super) fn set_leaf(c: &Connection, conversation_id: &str, leaf: Option<&str>) -> Result<()> {
    c.execute(
        "UPDATE conversations SET leaf_id = ?2 WHERE id = ?1",
        params![conversation_id, leaf],
    )?;
    Ok(())
}

/// The newest path below `id`: from `id`, the most recent child at each step.
fn newest_leaf_below(c: &Connection, id: &str) -> Result<String> {
    let mut leaf = id.to_owned();
    let mut stmt = c.prepare_cached(
        "SELECT id FROM messages WHERE parent_id = ?1 AND deleted_at IS NULL ORDER BY seq DESC LIMIT 1",
    )?;
    let mut seen = std::collections::HashSet::from([leaf.clone()]);
    while let Some(child) = stmt
        .query_row([&leaf], |r| r.get::<_, String>(0))
        .optional()?
    {
        if !seen.insert(child.clone()) {
            return Err(StoreError::TreeLoop { message: child });
        }
        leaf = child;
    }
    Ok(leaf)
}

fn conversation_of(c: &Connection, id: &str) -> Result<(String, Option<String>)> {
    c.query_row(
        "SELECT conversation_id, parent_id FROM messages WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )
    .optional()?
    .ok_or_else(|| StoreError::NotFound {
        what: "message",
        id: id.to_owned(),
    })
}

/// What goes back to a provider of a path: user messages, and the others that have anything
/// in them and are not still streaming (an error with no answer is left out).
pub(super) fn sendable(path: Vec<StoredMessage>) -> Vec<Message> {
    path.into_iter()
        .filter(|m| m.message.role == Role::User || !m.message.parts.is_empty())
        .filter(|m| m.status != super::MessageStatus::Streaming)
        .map(|m| m.message)
        .collect()
}

impl Store {
    /// The path the conversation shows, first message first.
    pub fn messages(&self, conversation_id: &str) -> Result<Vec<StoredMessage>> {
        self.read(|c| match leaf_of(c, conversation_id)? {
            Some(leaf) => path_to(c, &leaf),
            None => Ok(Vec::new()),
        })
    }

    /// The end of the path the conversation shows, for a window to draw before the rest
    /// arrives: at least the last `count` messages, back to the question their first turn
    /// starts with (so no turn is cut), and how many messages come before them.
    pub fn messages_tail(
        &self,
        conversation_id: &str,
        count: usize,
    ) -> Result<(Vec<StoredMessage>, usize)> {
        self.read(|c| {
            let Some(leaf) = leaf_of(c, conversation_id)? else {
                return Ok((Vec::new(), 0));
            };
            let steps = path_steps(c, conversation_id, &leaf)?;
            // Steps are last first: take `count` shown ones, then on to a question. Only the
            // steps from there on are read for their role.
            let mut depth = 0;
            let mut taken = 0;
            for (id, deleted) in &steps {
                depth += 1;
                if *deleted {
                    continue;
                }
                taken += 1;
                if taken >= count && is_question(c, id)? {
                    break;
                }
            }
            let shown = steps.iter().filter(|(_, deleted)| !deleted).count();
            let tail = path_end(c, &leaf, depth)?;
            let earlier = shown - tail.len();
            Ok((tail, earlier))
        })
    }

    /// The shown path above `message_id`: every message before it, first message first.
    /// A message's ancestors never change, so this joins onto a tail read earlier.
    pub fn messages_above(&self, message_id: &str) -> Result<Vec<StoredMessage>> {
        self.read(|c| match conversation_of(c, message_id)?.1 {
            Some(parent) => path_to(c, &parent),
            None => Ok(Vec::new()),
        })
    }

    /// Every message of the conversation, every version, in the order they were written.
    pub fn all_messages(&self, conversation_id: &str) -> Result<Vec<StoredMessage>> {
        let raws = self.read(|c| {
            leaf_of(c, conversation_id)?;
            let mut stmt = c.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM messages
                  WHERE conversation_id = ?1 AND deleted_at IS NULL ORDER BY seq"
            ))?;
            let rows = stmt.query_map([conversation_id], from_row)?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })?;
        raws.into_iter().map(decode).collect()
    }

    /// The path the conversation shows as it goes back to a provider: user messages, and the
    /// others that have anything in them (an error with no answer is left out).
    pub fn history(&self, conversation_id: &str) -> Result<Vec<Message>> {
        Ok(sendable(self.messages(conversation_id)?))
    }

    /// The history a turn answering below `message_id` is sent with: the path down to the
    /// message before it, whatever the conversation shows meanwhile.
    pub fn history_before(&self, message_id: &str) -> Result<Vec<Message>> {
        let path = self.read(|c| match conversation_of(c, message_id)?.1 {
            Some(parent) => path_to(c, &parent),
            None => Ok(Vec::new()),
        })?;
        Ok(sendable(path))
    }

    /// A stored question of the conversation, to answer again.
    pub fn question(&self, conversation_id: &str, id: &str) -> Result<StoredMessage> {
        let message = self.message(id)?;
        if message.conversation_id != conversation_id || message.message.role != Role::User {
            return Err(StoreError::NotFound {
                what: "question",
                id: id.to_owned(),
            });
        }
        Ok(message)
    }

    /// The question `message_id` answers: itself when it is one, else the nearest question
    /// above it in the tree (whichever version the conversation shows).
    pub fn question_of(&self, message_id: &str) -> Result<StoredMessage> {
        let path = self.read(|c| path_to(c, message_id))?;
        path.into_iter()
            .rev()
            .find(|m| m.message.role == Role::User)
            .ok_or_else(|| StoreError::NotFound {
                what: "question before message",
                id: message_id.to_owned(),
            })
    }

    /// The answers to a question, every version, in the order they were written.
    pub fn answers_to(&self, question_id: &str) -> Result<Vec<String>> {
        self.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT id FROM messages WHERE parent_id = ?1 AND deleted_at IS NULL ORDER BY seq",
            )?;
            let rows = stmt.query_map([question_id], |r| r.get(0))?;
            Ok(rows.collect::<rusqlite::Result<Vec<String>>>()?)
        })
    }

    /// For each message that has siblings (other versions), their ids in the order they
    /// were written, itself included.
    pub fn versions(&self, conversation_id: &str) -> Result<HashMap<String, Vec<String>>> {
        let rows: Vec<(String, Option<String>)> = self.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT id, parent_id FROM messages
                  WHERE conversation_id = ?1 AND deleted_at IS NULL ORDER BY seq",
            )?;
            let rows = stmt.query_map([conversation_id], |r| Ok((r.get(0)?, r.get(1)?)))?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })?;
        let mut children: HashMap<Option<String>, Vec<String>> = HashMap::new();
        for (id, parent) in rows {
            children.entry(parent).or_default().push(id);
        }
        let mut out = HashMap::new();
        for group in children.into_values().filter(|g| g.len() > 1) {
            for id in &group {
                out.insert(id.clone(), group.clone());
            }
        }
        Ok(out)
    }

    /// A version of an answer as one turn: it and the steps that followed it (tool results,
    /// later steps) along its newest path, up to the next question.
    pub fn turn_of(&self, answer_id: &str) -> Result<Vec<StoredMessage>> {
        let leaf = self.read(|c| newest_leaf_below(c, answer_id))?;
        let path = self.read(|c| path_to(c, &leaf))?;
        let start = path
            .iter()
            .position(|m| m.id == answer_id)
            .unwrap_or(path.len());
        Ok(path[start..]
            .iter()
            .take_while(|m| m.id == answer_id || m.message.role != Role::User)
            .cloned()
            .collect())
    }

    /// Shows the version `message_id`: the conversation's path goes through it and down its
    /// newest branch.
    pub fn select_version(&self, message_id: &str) -> Result<()> {
        self.write(|tx| {
            let (conversation, _) = conversation_of(tx, message_id)?;
            let leaf = newest_leaf_below(tx, message_id)?;
            set_leaf(tx, &conversation, Some(&leaf))
        })
    }

    /// Deletes the version `message_id` with everything below it. It can be brought back
    /// with `restore_branch`; the conversation shows the newest version left beside it (or
    /// the path down to its parent when it was the only one).
    pub fn delete_branch(&self, message_id: &str) -> Result<()> {
        self.write(|tx| {
            let (conversation, parent) = conversation_of(tx, message_id)?;
            let shown = on_shown_path(tx, &conversation, message_id)?;
            tx.execute(
                "WITH RECURSIVE below(bid) AS (
                     SELECT ?1
                     UNION
                     SELECT m.id FROM messages m JOIN below ON m.parent_id = below.bid
                 )
                 UPDATE messages SET deleted_at = ?2
                  WHERE id IN (SELECT bid FROM below) AND deleted_at IS NULL",
                params![message_id, now_ms()],
            )?;
            if shown {
                let sibling: Option<String> = tx
                    .query_row(
                        "SELECT id FROM messages
                          WHERE conversation_id = ?1 AND parent_id IS ?2 AND deleted_at IS NULL
                          ORDER BY seq DESC LIMIT 1",
                        params![conversation, parent],
                        |r| r.get(0),
                    )
                    .optional()?;
                let leaf = match sibling.or(parent) {
                    Some(id) => Some(newest_leaf_below(tx, &id)?),
                    None => None,
                };
                set_leaf(tx, &conversation, leaf.as_deref())?;
            }
            Ok(())
        })
    }

    /// Brings back a branch `delete_branch` took away, and shows it.
    pub fn restore_branch(&self, message_id: &str) -> Result<()> {
        self.write(|tx| {
            let (conversation, _) = conversation_of(tx, message_id)?;
            let stamp: Option<i64> = tx.query_row(
                "SELECT deleted_at FROM messages WHERE id = ?1",
                [message_id],
                |r| r.get(0),
            )?;
            let Some(stamp) = stamp else {
                return Ok(());
            };
            tx.execute(
                "WITH RECURSIVE below(bid) AS (
                     SELECT ?1
                     UNION
                     SELECT m.id FROM messages m JOIN below ON m.parent_id = below.bid
                 )
                 UPDATE messages SET deleted_at = NULL
                  WHERE id IN (SELECT bid FROM below) AND deleted_at = ?2",
                params![message_id, stamp],
            )?;
            let leaf = newest_leaf_below(tx, message_id)?;
            set_leaf(tx, &conversation, Some(&leaf))
        })
    }

    /// Messages whose parents never reach a first message: they, or a message above them,
    /// form a loop. The store never makes one (a message's parent exists before it, in an
    /// import too); a history edited by hand or damaged can hold one. Each comes with its
    /// conversation, at most `limit` of them.
    pub fn tree_loops(&self, limit: usize) -> Result<Vec<(String, String)>> {
        self.read(|c| {
            // Down from every first message: each message has one parent, so each is reached
            // once at most, and those in or below a loop never.
            let mut stmt = c.prepare_cached(
                "WITH RECURSIVE reached(id) AS (
                     SELECT id FROM messages WHERE parent_id IS NULL
                     UNION ALL
                     SELECT m.id FROM messages m JOIN reached ON m.parent_id = reached.id
                 )
                 SELECT conversation_id, id FROM messages
                  WHERE id NOT IN (SELECT id FROM reached)
                  ORDER BY conversation_id, seq LIMIT ?1",
            )?;
            let rows = stmt.query_map([i64::try_from(limit).unwrap_or(i64::MAX)], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }

    /// `read`, and if it meets a loop of parents (a history edited by hand, or damaged), the
    /// loop opened (its earliest written message becomes a first message: a version of the
    /// conversation's start; nothing is deleted) and `read` again. What reading the one
    /// conversation costs: `tree_loops` walks the whole history, millions of messages.
    pub fn with_loops_opened<T>(&self, read: impl Fn(&Store) -> Result<T>) -> Result<T> {
        // A path meets one loop at most (a walk up that enters one never leaves it); one
        // more try covers a loop made meanwhile.
        for _ in 0..2 {
            match read(self) {
                Err(StoreError::TreeLoop { message }) => {
                    if !self.write(|tx| open_loop_above(tx, &message))? {
                        return Err(StoreError::TreeLoop { message });
                    }
                }
                other => return other,
            }
        }
        read(self)
    }

    /// Removes for good the branches deleted more than an hour ago.
    pub(super) fn purge_deleted(&self) -> Result<usize> {
        self.write(|tx| Ok(tx.execute(PURGE_DELETED, [now_ms() - UNDO_FOR_MS])?))
    }
}

#[cfg(test)]
mod tests;
