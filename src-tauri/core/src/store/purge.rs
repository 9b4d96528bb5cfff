//! Dropping old thoughts (Settings → History, `ponder-cli purge-thoughts`): the answers stay.

use rusqlite::params;

use super::parts_codec;
use super::{Result, Store};
use crate::chat::Part;

impl Store {
    /// Drops the thoughts (text, signatures and provider data, and the replay that carries
    /// them) of assistant messages last changed before `before_ms`. Returns the number of
    /// messages changed and the bytes of stored data freed.
    pub fn purge_thoughts(&self, before_ms: i64) -> Result<(usize, u64)> {
        self.write(|tx| {
            let mut stmt = tx.prepare(
                "SELECT id, parts, text, thoughts, replay FROM messages
                  WHERE role = 'assistant' AND updated_at < ?1 AND (thoughts != '' OR parts LIKE '%\"thinking\"%')",
            )?;
            let rows: Vec<(String, String, String, String, Option<String>)> = stmt
                .query_map([before_ms], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))?
                .collect::<rusqlite::Result<_>>()?;
            drop(stmt);
            let mut changed = 0;
            let mut freed = 0u64;
            for (id, parts_json, text, thoughts, replay) in rows {
                let parts = parts_codec::decode(&parts_json, &text, &thoughts)?;
                let kept: Vec<Part> = parts.into_iter().filter(|p| !matches!(p, Part::Thinking(_))).collect();
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
        })
    }
}
