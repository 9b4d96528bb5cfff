//! Full-text search over visible text, with or without thoughts.

use rusqlite::{OptionalExtension, params};
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

/// The next message waiting for the index. The pending rows lead: SQLite's own choice was to
/// walk every message and look each up among the pending, and as the pending are indexed
/// from the oldest that walk got longer each time — after 20,000 of half a million pending
/// answers (a purge of old thoughts changes that many) each next one took a second.
pub(super) const NEXT_PENDING: &str = "SELECT p.message_rowid FROM search_pending p
   CROSS JOIN messages m ON m.rowid = p.message_rowid
  WHERE m.status <> 'streaming'
  LIMIT 1";

impl Store {
    /// Searches for all the words of `query`, each as a word or the start of one: messages
    /// with the words themselves first, then those with only longer words that start with
    /// them; within each, the most recently stored first.
    ///
    /// Not ranked by relevance: ranking scores every match before it can return one, which
    /// over a long history takes hundreds of milliseconds for a common word, while reading
    /// the index from its newest end stops at `limit`. A word typed whole is still the better
    /// match, hence the two passes; the second runs only when the first did not fill `limit`.
    pub fn search(&self, query: &str, scope: SearchScope, limit: usize) -> Result<Vec<SearchHit>> {
        let Some(words) = SearchWords::parse(query) else {
            return Ok(Vec::new());
        };
        self.index_pending()?;
        let mut hits = self.search_expr(&words.exact(), scope, limit, &[])?;
        if hits.len() < limit
            && let Some(prefixes) = words.prefixes()
            && self.every_word_starts_a_term(&words)?
        {
            let found: Vec<String> = hits.iter().map(|h| h.message_id.clone()).collect();
            let more = self.search_expr(&prefixes, scope, limit - hits.len(), &found)?;
            hits.extend(more);
        }
        Ok(hits)
    }

    /// Whether the index has, for every word, some word starting with its first characters.
    /// Where one word starts nothing (a typo, a word no message has), no message has them
    /// all: the word-start pass is skipped, and with it FTS5 gathering every word that starts
    /// with each of the others — for a common word longer than the prefix index keeps, all
    /// their entries at once ("memory leak", no message with "leak": 41–49 ms over two million
    /// messages, nearly all of it that gathering; 0.6 ms now). Each look-up is one entry of
    /// the prefix index.
    fn every_word_starts_a_term(&self, words: &SearchWords) -> Result<bool> {
        self.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT 1 FROM message_search WHERE message_search MATCH ?1 LIMIT 1",
            )?;
            for start in words.indexed_starts() {
                if !stmt.exists([start])? {
                    return Ok(false);
                }
            }
            Ok(true)
        })
    }

    /// Adds the messages that changed since they were indexed, and are no longer streaming,
    /// to the search index; returns how many. Each is its own transaction, so a long thought
    /// holds the history for its own indexing only. Searching does this first; the app also
    /// does it in the background when a turn ends, so the search after it finds nothing to do.
    pub fn index_pending(&self) -> Result<usize> {
        let mut indexed = 0;
        loop {
            let done = self.write(|tx| {
                let next: Option<i64> = tx.query_row(NEXT_PENDING, [], |r| r.get(0)).optional()?;
                let Some(rowid) = next else {
                    return Ok(true);
                };
                tx.execute(
                    "INSERT INTO message_search (rowid, text, thoughts)
                     SELECT rowid, text, thoughts FROM messages WHERE rowid = ?1",
                    [rowid],
                )?;
                tx.execute(
                    "DELETE FROM search_pending WHERE message_rowid = ?1",
                    [rowid],
                )?;
                Ok(false)
            })?;
            if done {
                return Ok(indexed);
            }
            indexed += 1;
        }
    }

    /// The newest `limit` messages matching the FTS5 expression `expr`, leaving out `skip`.
    fn search_expr(
        &self,
        expr: &str,
        scope: SearchScope,
        limit: usize,
        skip: &[String],
    ) -> Result<Vec<SearchHit>> {
        let column_filter = match scope {
            SearchScope::Text => format!("text : ({expr})"),
            // Text and thoughts are every column of the index, so no filter. With one, FTS5
            // filters each match's positions by column: for a word start longer than the
            // prefix index keeps, that is every position of every matching word (over a
            // million messages, "respon" took 28.6 ms with the filter and 16.2 without).
            SearchScope::TextAndThoughts => expr.to_owned(),
        };
        // The skipped ones are at most `limit`, and they come first in the index's order too:
        // asking for that many more keeps the query one walk from the newest end.
        let wanted = limit + skip.len();
        self.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT m.conversation_id, c.title, m.id,
                        snippet(message_search, 0, '[', ']', '…', 12) AS text_snippet,
                        snippet(message_search, 1, '[', ']', '…', 12) AS thought_snippet
                   FROM message_search
                   JOIN messages m ON m.rowid = message_search.rowid
                   JOIN conversations c ON c.id = m.conversation_id
                  WHERE message_search MATCH ?1 AND m.deleted_at IS NULL
                  ORDER BY message_search.rowid DESC
                  LIMIT ?2",
            )?;
            let rows = stmt.query_map(
                params![column_filter, i64::try_from(wanted).unwrap_or(i64::MAX)],
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
            let mut hits = Vec::with_capacity(limit);
            for hit in rows {
                let hit = hit?;
                if !skip.contains(&hit.message_id) {
                    hits.push(hit);
                }
                if hits.len() == limit {
                    break;
                }
            }
            Ok(hits)
        })
    }
}

/// The longest word start the index keeps as a term of its own (migration 7's `prefix`).
const PREFIX_INDEX_CHARS: usize = 4;

/// The words of what the user typed, each quoted so that quotes and operators in the input
/// are taken literally, never as FTS5 syntax.
struct SearchWords(Vec<String>);

impl SearchWords {
    fn parse(input: &str) -> Option<Self> {
        let words: Vec<String> = input
            .split(|c: char| !c.is_alphanumeric() && c != '_' && c != '\'')
            .filter(|w| !w.is_empty())
            .map(|w| w.replace('"', ""))
            .collect();
        (!words.is_empty()).then_some(Self(words))
    }

    /// Every word, as a word.
    fn exact(&self) -> String {
        self.join(|_| false)
    }

    /// Every word as the start of a word — but a single character only as itself: every
    /// message has words starting with most letters, so that would find everything, slowly.
    /// `None` when that is the same as [`Self::exact`].
    fn prefixes(&self) -> Option<String> {
        self.0
            .iter()
            .any(|w| starts_words(w))
            .then(|| self.join(starts_words))
    }

    /// Each word's start as long as the prefix index keeps (`prefix = '2 3 4'`), as an FTS5
    /// expression that one entry of that index answers; a single character as itself. Not
    /// for a word with an apostrophe: the tokenizer splits it, and cut short it could be
    /// nothing but the apostrophe.
    fn indexed_starts(&self) -> impl Iterator<Item = String> + '_ {
        self.0.iter().filter(|w| !w.contains('\'')).map(|w| {
            let start = match w.char_indices().nth(PREFIX_INDEX_CHARS) {
                Some((end, _)) => &w[..end],
                None => w,
            };
            term(start, starts_words(start))
        })
    }

    fn join(&self, as_prefix: impl Fn(&str) -> bool) -> String {
        self.0
            .iter()
            .map(|w| term(w, as_prefix(w)))
            .collect::<Vec<_>>()
            .join(" AND ")
    }
}

/// Whether `word` is looked up as the start of words too: not a single character.
fn starts_words(word: &str) -> bool {
    word.chars().nth(1).is_some()
}

/// `word` quoted for FTS5, as itself or as the start of words.
fn term(word: &str, as_prefix: bool) -> String {
    if as_prefix {
        format!("\"{word}\"*")
    } else {
        format!("\"{word}\"")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_input_never_becomes_fts_syntax() {
        let words = SearchWords::parse("hello world").unwrap();
        assert_eq!(words.exact(), "\"hello\" AND \"world\"");
        assert_eq!(words.prefixes().unwrap(), "\"hello\"* AND \"world\"*");
        let words = SearchWords::parse("NEAR(a b) OR \"x").unwrap();
        assert_eq!(
            words.prefixes().unwrap(),
            "\"NEAR\"* AND \"a\" AND \"b\" AND \"OR\"* AND \"x\""
        );
        assert!(SearchWords::parse("  ***  ").is_none());
    }

    #[test]
    fn word_starts_are_looked_up_as_long_as_the_index_keeps_them() {
        let words = SearchWords::parse("memory le a don't über-straße").unwrap();
        assert_eq!(
            words.indexed_starts().collect::<Vec<_>>(),
            ["\"memo\"*", "\"le\"*", "\"a\"", "\"über\"*", "\"stra\"*"]
        );
    }

    #[test]
    fn single_characters_are_only_themselves() {
        let words = SearchWords::parse("a b").unwrap();
        assert_eq!(words.exact(), "\"a\" AND \"b\"");
        assert_eq!(words.prefixes(), None);
    }
}
