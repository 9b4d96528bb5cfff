//! Dropping old thoughts (Settings → History, `ponder-cli purge-thoughts`): the answers stay.

use rusqlite::params;

use super::messages::texts;
use super::{Result, Store};
use crate::chat::Part;

impl Store {
    /// Drops the thoughts (text, signatures and provider data, and the replay that carries
    /// them) of assistant messages last changed before `before_ms`. Returns the number of
    /// messages changed and the bytes of stored data freed.
    pub fn purge_thoughts(&self, before_ms: i64) -> Result<(usize, u64)> {
        self.write(|tx| {
            let mut stmt = tx.prepare(
                "SELECT id, parts, replay FROM messages
                  WHERE role = 'assistant' AND updated_at < ?1 AND (thoughts != '' OR parts LIKE '%\"thinking\"%')",
            )?;
            let rows: Vec<(String, String, Option<String>)> = stmt
                .query_map([before_ms], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect::<rusqlite::Result<_>>()?;
            drop(stmt);
            let mut changed = 0;
            let mut freed = 0u64;
            for (id, parts_json, replay) in rows {
                let parts: Vec<Part> = serde_json::from_str(&parts_json)?;
                let kept: Vec<Part> = parts.into_iter().filter(|p| !matches!(p, Part::Thinking(_))).collect();
                let new_json = serde_json::to_string(&kept)?;
                let (text, _) = texts(&kept);
                let before = parts_json.len() + replay.as_ref().map_or(0, String::len);
                freed += (before.saturating_sub(new_json.len())) as u64;
                tx.execute(
                    "UPDATE messages SET parts = ?2, text = ?3, thoughts = '', replay = NULL, thinking_ms = NULL WHERE id = ?1",
                    params![id, new_json, text],
                )?;
                changed += 1;
            }
            Ok((changed, freed))
        })
    }
}
