//! Full-text search over visible text, with or without thoughts.

use rusqlite::params;
use serde::Serialize;

use super::{Result, Store};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SearchScope {
    /// Only what was said.
    Text,
    /// What was said and what was thought.
    TextAndThoughts,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SearchHit {
    pub conversation_id: String,
    pub conversation_title: String,
    pub message_id: String,
    /// A short excerpt with the matches between `[` and `]`.
    pub snippet: String,
    /// The match was in the thoughts, not the visible text.
    pub in_thoughts: bool,
}

impl Store {
    /// Searches for all the words of `query` (each as a prefix), best matches first.
    pub fn search(&self, query: &str, scope: SearchScope, limit: usize) -> Result<Vec<SearchHit>> {
        let Some(expr) = fts_query(query) else {
            return Ok(Vec::new());
        };
        let column_filter = match scope {
            SearchScope::Text => format!("text : ({expr})"),
            SearchScope::TextAndThoughts => format!("{{text thoughts}} : ({expr})"),
        };
        self.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT m.conversation_id, c.title, m.id,
                        snippet(message_search, 0, '[', ']', '…', 12) AS text_snippet,
                        snippet(message_search, 1, '[', ']', '…', 12) AS thought_snippet
                   FROM message_search
                   JOIN messages m ON m.rowid = message_search.rowid
                   JOIN conversations c ON c.id = m.conversation_id
                  WHERE message_search MATCH ?1 AND m.deleted_at IS NULL
                  ORDER BY rank
                  LIMIT ?2",
            )?;
            let rows = stmt.query_map(
                params![column_filter, i64::try_from(limit).unwrap_or(i64::MAX)],
                |row| {
                    let text: String = row.get("text_snippet")?;
                    let thought: String = row.get("thought_snippet")?;
                    let in_text = text.contains('[');
                    Ok(SearchHit {
                        conversation_id: row.get(0)?,
                        conversation_title: row.get(1)?,
                        message_id: row.get(2)?,
                        in_thoughts: !in_text && scope == SearchScope::TextAndThoughts,
                        snippet: if in_text || scope == SearchScope::Text {
                            text
                        } else {
                            thought
                        },
                    })
                },
            )?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
    }
}

/// Turns what a user types into an FTS5 expression: every word must appear (as a prefix);
/// quotes and operators in the input are taken literally, never as syntax.
fn fts_query(input: &str) -> Option<String> {
    let words: Vec<String> = input
        .split(|c: char| !c.is_alphanumeric() && c != '_' && c != '\'')
        .filter(|w| !w.is_empty())
        .map(|w| format!("\"{}\"*", w.replace('"', "")))
        .collect();
    (!words.is_empty()).then(|| words.join(" AND "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_input_never_becomes_fts_syntax() {
        assert_eq!(
            fts_query("hello world").unwrap(),
            "\"hello\"* AND \"world\"*"
        );
        assert_eq!(
            fts_query("NEAR(a b) OR \"x").unwrap(),
            "\"NEAR\"* AND \"a\"* AND \"b\"* AND \"OR\"* AND \"x\"*"
        );
        assert_eq!(fts_query("  ***  "), None);
    }
}
