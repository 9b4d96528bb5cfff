//! Dropping old thoughts (Settings → History, `ponder-cli purge-thoughts`): the answers stay.

use rusqlite::params;

use super::parts_codec;
use super::{Result, Store};
use crate::chat::Part;

impl Store {
    /// Drops the thoughts (text, signatures and provider data, and the replay that carries
    /// them) of assistant messages last changed before `before_ms`. Returns the number of
    /// messages changed and the bytes of stored data freed. A part of the history at a time,
    /// each its own transaction (`PASS_ROWS`).
    pub fn purge_thoughts(&self, before_ms: i64) -> Result<(usize, u64)> {
        let (mut changed, mut freed) = (0, 0u64);
        for rows in self.pass_ranges()? {
            let (n, bytes) = self.write(|tx| purge_thoughts_in(tx, before_ms, &rows))?;
            changed += n;
            freed += bytes;
        }
        Ok((changed, freed))
    }
}

/// `purge_thoughts` for the messages of one range of rowids.
fn purge_thoughts_in(
    tx: &rusqlite::Transaction<'_>,
    before_ms: i64,
    rows: &std::ops::Range<i64>,
) -> Result<(usize, u64)> {
    let mut stmt = tx.prepare_cached(
        "SELECT id, parts, text, thoughts, replay FROM messages
          WHERE rowid >= ?2 AND rowid < ?3
            AND role = 'assistant' AND updated_at < ?1 AND (thoughts != '' OR parts LIKE '%\"thinking\"%')",
    )?;
    let found: Vec<(String, String, String, String, Option<String>)> = stmt
        .query_map(params![before_ms, rows.start, rows.end], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
        })?
        .collect::<rusqlite::Result<_>>()?;
    drop(stmt);
    let mut changed = 0;
    let mut freed = 0u64;
    for (id, parts_json, text, thoughts, replay) in found {
        let parts = parts_codec::decode(&parts_json, &text, &thoughts)?;
        let kept: Vec<Part> = parts
            .into_iter()
            .filter(|p| !matches!(p, Part::Thinking(_)))
            .collect();
        let columns = parts_codec::encode(&kept)?;
        let before = parts_json.len() + thoughts.len() + replay.as_ref().map_or(0, String::len);
        freed += (before.saturating_sub(columns.parts.len())) as u64;
        tx.execute(
            "UPDATE messages SET parts = ?2, text = ?3, thoughts = '', replay = NULL, thinking_ms = NULL WHERE id = ?1",
            params![id, columns.parts, columns.text],
        )?;
        changed += 1;
    }
    Ok((changed, freed))
}

impl Store {
    /// The hashes of every file a message still refers to, a part of the history at a time
    /// (`PASS_ROWS`), as far as it went when the pass began: a file referred to again
    /// meanwhile was stored again, which makes it new (`AttachmentStore::put`), and a file
    /// is collected only once it is older than its grace.
    pub fn referenced_attachments(&self) -> Result<std::collections::HashSet<String>> {
        let mut hashes = std::collections::HashSet::new();
        for rows in self.pass_ranges()? {
            self.read(|c| {
                let mut stmt = c.prepare_cached(
                    "SELECT parts FROM messages
                      WHERE rowid >= ?1 AND rowid < ?2
                        AND role = 'user' AND parts LIKE '%\"attachment\"%'",
                )?;
                for parts in stmt.query_map([rows.start, rows.end], |r| r.get::<_, String>(0))? {
                    collect_hashes(&serde_json::from_str(&parts?)?, &mut hashes);
                }
                Ok(())
            })?;
        }
        Ok(hashes)
    }

    /// Removes the stored files no message refers to any more (older than `grace`); how many.
    pub fn collect_attachments(&self, grace: std::time::Duration) -> Result<usize> {
        // No file was ever attached: nothing to read the history for.
        let Some(files) = self.attachments().filter(|f| f.exists()) else {
            return Ok(0);
        };
        let referenced = self.referenced_attachments()?;
        // An upload the window never finished is nobody's file either.
        let _ = files.remove_unfinished(grace);
        files
            .remove_unreferenced(&referenced, grace)
            .map_err(|source| super::StoreError::Folder {
                path: "attachments".into(),
                source,
            })
    }
}

/// The `sha256` of every attachment part in a row's parts, whichever way they were written
/// (a plain array, or the object that keeps the text apart).
fn collect_hashes(parts: &serde_json::Value, into: &mut std::collections::HashSet<String>) {
    let list = parts.get("parts").unwrap_or(parts);
    for part in list.as_array().into_iter().flatten() {
        if part.get("type").and_then(serde_json::Value::as_str) == Some("attachment")
            && let Some(sha) = part.get("sha256").and_then(serde_json::Value::as_str)
        {
            into.insert(sha.to_owned());
        }
    }
}
