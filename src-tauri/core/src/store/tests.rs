//! The store against a real SQLite file and in memory.

use super::*;
use crate::chat::{Origin, Part, Replay, StopReason, ThinkingBlock, ThoughtSource, Usage};
use crate::reasoning::choice::Choice;
use crate::reasoning::settings::ReasoningSettings;
use rusqlite::params;

fn origin() -> Origin {
    Origin {
        provider: "anthropic".into(),
        model: "claude-sonnet-4-5".into(),
    }
}

fn thought(text: &str) -> Part {
    Part::Thinking(ThinkingBlock {
        text: text.into(),
        source: Some(ThoughtSource::Thinking),
        signature: Some("sig-abc".into()),
        duration_ms: Some(1200),
        token_estimate: Some(3),
        ..ThinkingBlock::default()
    })
}

fn answer(text: &str) -> Part {
    Part::Text { text: text.into() }
}

fn conversation(store: &Store, title: &str) -> Conversation {
    store
        .create_conversation(NewConversation {
            title: title.into(),
            provider: Some("anthropic".into()),
            model: Some("claude-sonnet-4-5".into()),
            settings: ReasoningSettings {
                choice: Choice::MEDIUM,
                ..ReasoningSettings::default()
            },
        })
        .unwrap()
}

fn complete_turn(
    store: &Store,
    conversation: &str,
    question: &str,
    thinking: &str,
    reply: &str,
) -> String {
    let asked = store.append_user(conversation, question).unwrap();
    let id = store
        .start_assistant(conversation, &asked.id, &origin(), Choice::MEDIUM)
        .unwrap();
    store
        .finish_assistant(
            &id,
            &TurnRecord {
                status: MessageStatus::Complete,
                parts: vec![thought(thinking), answer(reply)],
                replay: Some(Replay {
                    provider: "anthropic".into(),
                    model: "claude-sonnet-4-5".into(),
                    content: serde_json::json!({"role": "assistant", "content": [{"type": "thinking", "thinking": thinking, "signature": "sig-abc"}]}),
                }),
                usage: Usage {
                    input: Some(10),
                    output: Some(50),
                    reasoning: Some(30),
                    cached: None,
                },
                stop: Some(StopReason::End),
                error_code: None,
                error_message: None,
            },
        )
        .unwrap();
    id
}

#[test]
fn a_turn_round_trips_with_every_field() {
    let store = Store::open_in_memory().unwrap();
    let c = conversation(&store, "Crossing streets");
    let id = complete_turn(&store, &c.id, "How?", "Let me think", "Look both ways.");
    let messages = store.messages(&c.id).unwrap();
    assert_eq!(messages.len(), 2);
    assert_eq!(messages[0].message.text(), "How?");
    let m = &messages[1];
    assert_eq!(m.id, id);
    assert_eq!(m.status, MessageStatus::Complete);
    assert_eq!(
        m.message.parts,
        vec![thought("Let me think"), answer("Look both ways.")]
    );
    assert_eq!(m.message.origin, Some(origin()));
    assert!(m.message.replay.is_some());
    assert_eq!(m.choice, Some(Choice::MEDIUM));
    assert_eq!(m.usage.reasoning, Some(30));
    assert_eq!(m.thinking_ms, Some(1200));
    assert_eq!(m.stop, Some(StopReason::End));
    let back = store.conversation(&c.id).unwrap();
    assert_eq!(back.settings.choice, Choice::MEDIUM);
    assert!(back.updated_at >= c.updated_at);
}

#[test]
fn the_list_is_pinned_first_then_newest() {
    let store = Store::open_in_memory().unwrap();
    let a = conversation(&store, "a");
    let b = conversation(&store, "b");
    let c = conversation(&store, "c");
    store.set_pinned(&a.id, true).unwrap();
    store.set_archived(&b.id, true).unwrap();
    let titles: Vec<String> = store
        .list_conversations(false)
        .unwrap()
        .into_iter()
        .map(|s| s.title)
        .collect();
    assert_eq!(titles, ["a", "c"]);
    let all: Vec<String> = store
        .list_conversations(true)
        .unwrap()
        .into_iter()
        .map(|s| s.title)
        .collect();
    assert_eq!(all, ["a", "c", "b"]);
    let first = |count| -> Vec<String> {
        let list = store.first_conversations(true, Some(count)).unwrap();
        list.into_iter().map(|s| s.title).collect()
    };
    assert_eq!(first(2), ["a", "c"]);
    assert_eq!(first(0), Vec::<String>::new());
    assert_eq!(first(10), ["a", "c", "b"]);
    store.rename_conversation(&c.id, "  renamed  ").unwrap();
    assert_eq!(store.conversation(&c.id).unwrap().title, "renamed");
}

#[test]
fn deleting_a_conversation_deletes_its_messages() {
    let store = Store::open_in_memory().unwrap();
    let c = conversation(&store, "gone");
    let id = complete_turn(&store, &c.id, "q", "t", "r");
    store.delete_conversation(&c.id).unwrap();
    assert!(matches!(
        store.message(&id),
        Err(StoreError::NotFound { .. })
    ));
    assert!(matches!(
        store.delete_conversation(&c.id),
        Err(StoreError::NotFound { .. })
    ));
    assert!(
        store
            .search("q", SearchScope::TextAndThoughts, 10)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn messages_of_an_unknown_conversation_are_an_error() {
    let store = Store::open_in_memory().unwrap();
    assert!(matches!(
        store.append_user("nope", "hi"),
        Err(StoreError::NotFound { .. })
    ));
    assert!(matches!(
        store.messages("nope"),
        Err(StoreError::NotFound { .. })
    ));
}

/// One number the store's connection answers `sql` with.
fn number(store: &Store, sql: &str) -> i64 {
    store
        .read(|c| Ok(c.query_row(sql, [], |r| r.get(0))?))
        .unwrap()
}

fn page_size(store: &Store) -> i64 {
    number(store, "PRAGMA page_size")
}

#[test]
fn a_new_history_has_large_pages_and_an_existing_one_keeps_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let new = dir.path().join("new.sqlite3");
    let store = Store::open(&new).unwrap();
    assert_eq!(page_size(&store), NEW_PAGE_SIZE);
    drop(store);
    assert_eq!(page_size(&Store::open(&new).unwrap()), NEW_PAGE_SIZE);

    // A history made with SQLite's default pages, as every earlier version made them.
    let old = dir.path().join("old.sqlite3");
    {
        let conn = rusqlite::Connection::open(&old).unwrap();
        conn.pragma_update(None, "page_size", 4096).unwrap();
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
        conn.execute_batch("CREATE TABLE kept (x); INSERT INTO kept VALUES (1);")
            .unwrap();
    }
    let store = Store::open(&old).unwrap();
    assert_eq!(page_size(&store), 4096);
    let c = conversation(&store, "old pages");
    store.append_user(&c.id, "still works").unwrap();
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[test]
fn a_history_whose_cache_was_given_back_reads_and_writes_as_before() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("history.sqlite3")).unwrap();
    let c = conversation(&store, "cached");
    let first = complete_turn(&store, &c.id, "q1", &"t".repeat(100_000), "a1");
    assert_eq!(store.messages(&c.id).unwrap().len(), 2);
    store.index_pending().unwrap();

    store.release_memory().unwrap();
    let read = store.messages(&c.id).unwrap();
    assert_eq!(read.len(), 2);
    assert_eq!(read[1].id, first);
    complete_turn(&store, &c.id, "q2", "t2", "a2");
    store.release_memory().unwrap();
    assert_eq!(store.messages(&c.id).unwrap().len(), 4);
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[test]
fn a_checkpoint_folds_the_log_in_and_never_waits_for_another_reader() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.sqlite3");
    let wal = dir.path().join("history.sqlite3-wal");
    let store = Store::open(&path).unwrap();
    let c = conversation(&store, "folded");
    complete_turn(&store, &c.id, "q1", &"t".repeat(200_000), "a1");
    assert!(std::fs::metadata(&wal).unwrap().len() > 200_000);
    assert!(store.checkpoint().unwrap());
    assert_eq!(
        std::fs::metadata(&wal).unwrap().len(),
        0,
        "the log is emptied"
    );

    // Another process in the middle of a read: the checkpoint leaves it be at once, where
    // the busy handler would have waited five seconds.
    complete_turn(&store, &c.id, "q2", &"u".repeat(200_000), "a2");
    let reader = rusqlite::Connection::open(&path).unwrap();
    reader
        .execute_batch("BEGIN; SELECT count(*) FROM messages;")
        .unwrap();
    let started = std::time::Instant::now();
    assert!(!store.checkpoint().unwrap());
    assert!(started.elapsed() < std::time::Duration::from_secs(2));
    reader.execute_batch("COMMIT").unwrap();
    drop(reader);
    // What was written is all there, and the next checkpoint folds it in.
    assert_eq!(store.messages(&c.id).unwrap().len(), 4);
    assert!(store.checkpoint().unwrap());
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[test]
fn a_crash_leaves_an_interrupted_message_with_what_was_flushed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.sqlite3");
    let (conversation_id, message_id) = {
        let store = Store::open(&path).unwrap();
        let c = conversation(&store, "crash");
        let asked = store.append_user(&c.id, "go").unwrap();
        let id = store
            .start_assistant(&c.id, &asked.id, &origin(), Choice::HIGH)
            .unwrap();
        store
            .flush_assistant(&id, &[thought("half a tho"), answer("half an ans")])
            .unwrap();
        (c.id, id)
        // dropped without finishing: the process "died"
    };
    let store = Store::open(&path).unwrap();
    assert_eq!(store.integrity_check().unwrap(), "ok");
    let m = store.message(&message_id).unwrap();
    assert_eq!(m.status, MessageStatus::Interrupted);
    assert_eq!(m.message.text(), "half an ans");
    assert_eq!(m.message.thinking().next().unwrap().text, "half a tho");
    assert_eq!(
        store.history(&conversation_id).unwrap().len(),
        2,
        "the partial answer goes back as history"
    );
}

#[test]
fn search_finds_text_and_optionally_thoughts() {
    let store = Store::open_in_memory().unwrap();
    let c = conversation(&store, "Pelicans");
    complete_turn(
        &store,
        &c.id,
        "Tell me about pelicans",
        "considering the gular pouch",
        "They fish.",
    );
    let text = store.search("pelican", SearchScope::Text, 10).unwrap();
    assert_eq!(text.len(), 1);
    assert_eq!(text[0].conversation_title, "Pelicans");
    assert!(
        text[0].snippet.contains("[pelicans]"),
        "{}",
        text[0].snippet
    );
    assert!(
        store
            .search("gular", SearchScope::Text, 10)
            .unwrap()
            .is_empty(),
        "thoughts are apart"
    );
    let thoughts = store
        .search("gular", SearchScope::TextAndThoughts, 10)
        .unwrap();
    assert_eq!(thoughts.len(), 1);
    assert!(thoughts[0].in_thoughts);
    assert!(
        store
            .search("\"unbalanced OR (", SearchScope::Text, 10)
            .is_ok(),
        "no syntax errors from input"
    );
    // Text and thoughts are searched without a column filter: they must be all there is.
    let columns: Vec<String> = store
        .read(|c| {
            let mut stmt = c.prepare("SELECT name FROM pragma_table_info('message_search')")?;
            let names = stmt.query_map([], |r| r.get(0))?;
            Ok(names.collect::<rusqlite::Result<_>>()?)
        })
        .unwrap();
    assert_eq!(columns, ["text", "thoughts"]);
}

#[test]
fn search_gives_whole_words_first_then_word_starts_newest_first_and_not_deleted_ones() {
    let store = Store::open_in_memory().unwrap();
    let c = conversation(&store, "Models");
    let older = complete_turn(&store, &c.id, "q1", "t", "The model answered.");
    let starts = complete_turn(&store, &c.id, "q2", "t", "Models differ.");
    let newer = complete_turn(&store, &c.id, "q3", "t", "A model again.");
    let ids = |hits: Vec<SearchHit>| hits.into_iter().map(|h| h.message_id).collect::<Vec<_>>();
    assert_eq!(
        ids(store.search("model", SearchScope::Text, 10).unwrap()),
        [newer.clone(), older.clone(), starts.clone()]
    );
    // The limit is met by the whole words alone: no second pass.
    assert_eq!(
        ids(store.search("model", SearchScope::Text, 2).unwrap()),
        [newer.clone(), older.clone()]
    );
    // Two letters are a word start too (the index has them); one letter is only itself.
    assert_eq!(
        ids(store.search("mo", SearchScope::Text, 10).unwrap()),
        [newer.clone(), starts.clone(), older.clone()]
    );
    assert!(store.search("m", SearchScope::Text, 10).unwrap().is_empty());
    // Several words, each a start longer than the prefix index keeps: still found.
    assert_eq!(
        ids(store.search("model diff", SearchScope::Text, 10).unwrap()),
        vec![starts.clone()]
    );
    assert_eq!(
        ids(store.search("answ mode", SearchScope::Text, 10).unwrap()),
        vec![older.clone()]
    );
    // A word that starts nothing: no message has them all, whole or as starts.
    assert!(
        store
            .search("model zzyzx", SearchScope::Text, 10)
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        ids(store.search("a", SearchScope::Text, 10).unwrap()),
        vec![newer.clone()]
    );
    store.delete_branch(&newer).unwrap();
    assert_eq!(
        ids(store.search("model", SearchScope::Text, 10).unwrap()),
        [older, starts]
    );
}

/// FTS5's own check that the index holds exactly what the messages hold.
fn index_matches_messages(store: &Store) -> bool {
    store
        .read(|c| {
            Ok(c.execute(
                "INSERT INTO message_search (message_search, rank) VALUES ('integrity-check', 1)",
                [],
            ))
        })
        .unwrap()
        .is_ok()
}

fn pending(store: &Store) -> i64 {
    number(store, "SELECT count(*) FROM search_pending")
}

/// How SQLite would run `sql` on the history as it is now (its statistics gathered first):
/// each step of its plan.
fn query_plan(store: &Store, sql: &str, params: impl rusqlite::Params) -> Vec<String> {
    store.read(|c| Ok(c.execute_batch("ANALYZE")?)).unwrap();
    store
        .read(|c| {
            let mut stmt = c.prepare(&format!("EXPLAIN QUERY PLAN {sql}"))?;
            let rows = stmt.query_map(params, |r| r.get::<_, String>(3))?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
        .unwrap()
}

#[test]
fn the_next_message_to_index_is_found_from_the_pending_not_by_walking_every_message() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("history.sqlite3")).unwrap();
    let c = conversation(&store, "Plan");
    for n in 0..50 {
        complete_turn(&store, &c.id, &format!("q{n}"), "t", "a");
    }
    store.index_pending().unwrap();
    let plan = query_plan(&store, super::search::NEXT_PENDING, []);
    assert!(plan[0].starts_with("SCAN p"), "{plan:?}");
    assert!(
        plan.iter().all(|step| !step.starts_with("SCAN m")),
        "{plan:?}"
    );
}

#[test]
fn the_start_finds_deleted_branches_without_reading_every_message() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("history.sqlite3")).unwrap();
    let c = conversation(&store, "Plan");
    for n in 0..50 {
        complete_turn(&store, &c.id, &format!("q{n}"), "t", "a");
    }
    let plan = query_plan(&store, super::tree::PURGE_DELETED, [0]);
    assert!(
        plan.iter().any(|step| step.contains("messages_deleted")),
        "{plan:?}"
    );
    assert!(
        plan.iter().all(|step| !step.starts_with("SCAN")),
        "{plan:?}"
    );
}

#[test]
fn an_answer_is_indexed_once_it_is_finished_and_search_never_misses_it() {
    let store = Store::open_in_memory().unwrap();
    let c = conversation(&store, "Index");
    let asked = store.append_user(&c.id, "what of herons").unwrap();
    let id = store
        .start_assistant(&c.id, &asked.id, &origin(), Choice::HIGH)
        .unwrap();
    assert!(
        index_matches_messages(&store),
        "new rows are indexed at once"
    );
    store
        .flush_assistant(&id, &[thought("wading egrets"), answer("Herons")])
        .unwrap();
    store
        .flush_assistant(
            &id,
            &[
                thought("wading egrets and bitterns"),
                answer("Herons wait."),
            ],
        )
        .unwrap();
    // Streaming: left out of the index until it ends, however often it is written.
    assert_eq!(pending(&store), 1);
    assert_eq!(store.index_pending().unwrap(), 0);
    assert!(
        store
            .search("bitterns", SearchScope::TextAndThoughts, 10)
            .unwrap()
            .is_empty()
    );
    store
        .finish_assistant(
            &id,
            &TurnRecord {
                status: MessageStatus::Complete,
                parts: vec![
                    thought("wading egrets and bitterns, patiently"),
                    answer("Herons wait still."),
                ],
                replay: None,
                usage: Usage::default(),
                stop: None,
                error_code: None,
                error_message: None,
            },
        )
        .unwrap();
    assert_eq!(pending(&store), 1, "finishing does not index");
    assert!(!index_matches_messages(&store));
    // A search indexes what is waiting first.
    let hits = store
        .search("patiently", SearchScope::TextAndThoughts, 10)
        .unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(pending(&store), 0);
    assert!(index_matches_messages(&store));
    assert!(store.search("still", SearchScope::Text, 10).unwrap().len() == 1);

    // An indexed row that changes leaves the index with what it held, and comes back.
    let (changed, _) = store.purge_thoughts(now_ms() + 1000).unwrap();
    assert_eq!(changed, 1);
    assert_eq!(pending(&store), 1);
    assert_eq!(store.index_pending().unwrap(), 1);
    assert!(index_matches_messages(&store));
    assert!(
        store
            .search("patiently", SearchScope::TextAndThoughts, 10)
            .unwrap()
            .is_empty()
    );

    // Rows deleted while waiting, and rows deleted once indexed, both leave no trace.
    complete_turn(&store, &c.id, "q2", "cormorants dive", "Deep.");
    assert_eq!(pending(&store), 1);
    complete_turn(&store, &c.id, "q3", "gannets plunge", "Fast.");
    assert_eq!(store.index_pending().unwrap(), 2);
    complete_turn(&store, &c.id, "q4", "shags", "Also.");
    assert_eq!(pending(&store), 1);
    store.delete_conversation(&c.id).unwrap();
    assert_eq!(pending(&store), 0);
    assert!(index_matches_messages(&store));
    assert!(
        store
            .search("gannets", SearchScope::TextAndThoughts, 10)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn a_row_written_before_thoughts_were_kept_once_reads_and_changes_whole() {
    let store = Store::open_in_memory().unwrap();
    let c = conversation(&store, "Old");
    let id = complete_turn(&store, &c.id, "q", "an old thought", "answer");
    // As earlier versions wrote it: the thought inside the parts as well.
    let parts = vec![thought(""), thought("an old thought"), answer("answer")];
    store
        .read(|conn| {
            Ok(conn.execute(
                "UPDATE messages SET parts = ?2, thoughts = 'an old thought' WHERE id = ?1",
                params![id, serde_json::to_string(&parts).unwrap()],
            )?)
        })
        .unwrap();
    assert_eq!(store.message(&id).unwrap().message.parts, parts);
    let hidden = store.set_thought_hidden(&id, 1, true).unwrap();
    let read = store.message(&id).unwrap();
    assert_eq!(read.message.parts, hidden.message.parts);
    assert_eq!(
        read.message.thinking().nth(1).unwrap().text,
        "an old thought"
    );
    assert!(read.message.thinking().nth(1).unwrap().hidden);
    store.index_pending().unwrap();
    assert!(index_matches_messages(&store));
}

#[test]
fn purging_old_thoughts_drops_text_signatures_and_replay() {
    let store = Store::open_in_memory().unwrap();
    let c = conversation(&store, "old");
    let id = complete_turn(&store, &c.id, "q", "a long thought to forget", "answer");
    // Nothing is older than a day yet.
    assert_eq!(store.purge_thoughts(now_ms() - 86_400_000).unwrap().0, 0);
    let (changed, freed) = store.purge_thoughts(now_ms() + 1000).unwrap();
    assert_eq!(changed, 1);
    assert!(freed > 20, "freed {freed} bytes");
    let m = store.message(&id).unwrap();
    assert!(m.message.thinking().next().is_none());
    assert!(m.message.replay.is_none(), "signatures go with the text");
    assert_eq!(m.message.text(), "answer");
    assert!(
        store
            .search("forget", SearchScope::TextAndThoughts, 10)
            .unwrap()
            .is_empty()
    );
}

/// A pass through the whole history (a purge, the files still referred to) goes a part at a
/// time (`PASS_ROWS` messages under each hold of the lock) and still reaches every message,
/// on both sides of a part's edge and in the last, short part.
#[test]
fn a_pass_through_the_history_reaches_every_part_of_it() {
    let store = Store::open_in_memory().unwrap();
    let c = conversation(&store, "long");
    let turns = usize::try_from(super::PASS_ROWS).unwrap() + 300;
    for i in 0..turns {
        complete_turn(&store, &c.id, "q", &format!("thought {i}"), "answer");
    }
    let parts = store.pass_ranges().unwrap().count();
    assert!(parts >= 2, "{parts} parts");
    let (changed, _) = store.purge_thoughts(now_ms() + 1000).unwrap();
    assert_eq!(changed, turns);
    assert!(
        store
            .messages(&c.id)
            .unwrap()
            .iter()
            .all(|m| m.message.thinking().next().is_none())
    );
}

#[test]
fn the_schema_is_at_the_latest_version_and_valid() {
    let store = Store::open_in_memory().unwrap();
    assert_eq!(store.schema_version().unwrap(), LATEST_VERSION);
}

#[test]
fn a_thought_is_read_whole_by_its_index() {
    let store = Store::open_in_memory().unwrap();
    let conv = conversation(&store, "whole");
    let long = "a line of thought\n".repeat(2_000);
    let id = complete_turn(&store, &conv.id, "q", &long, "the answer");
    assert_eq!(store.thought_text(&id, 0).unwrap(), long);
    assert!(matches!(
        store.thought_text(&id, 1),
        Err(StoreError::NotFound {
            what: "thought",
            ..
        })
    ));
    assert!(store.thought_text("no-such-message", 0).is_err());
}

#[test]
fn a_hidden_thought_is_kept_with_its_signature_and_can_be_shown_again() {
    let store = Store::open_in_memory().unwrap();
    let conv = conversation(&store, "hide");
    let id = complete_turn(&store, &conv.id, "q", "private musing", "the answer");
    let hidden = store.set_thought_hidden(&id, 0, true).unwrap();
    let reread = store.message(&id).unwrap();
    assert_eq!(hidden, reread);
    let block = reread.message.thinking().next().unwrap();
    assert!(block.hidden);
    assert_eq!(block.text, "private musing");
    assert_eq!(block.signature.as_deref(), Some("sig-abc"));
    assert!(
        store.set_thought_hidden(&id, 1, true).is_err(),
        "there is one thought"
    );
    store.set_thought_hidden(&id, 0, false).unwrap();
    assert!(
        !store
            .message(&id)
            .unwrap()
            .message
            .thinking()
            .next()
            .unwrap()
            .hidden
    );
}

#[test]
fn a_file_stays_while_a_question_refers_to_it_and_goes_with_the_last_one() {
    use std::time::Duration;
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("ponder.sqlite3")).unwrap();
    let files = store.attachments().unwrap();
    assert_eq!(
        store.collect_attachments(Duration::ZERO).unwrap(),
        0,
        "none yet"
    );
    let fixtures =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/attachments");
    let put = |name: &str| {
        files
            .put_file(&fixtures.join(name), name)
            .unwrap()
            .attachment(name)
    };
    let (pdf, photo) = (put("boiling-points.pdf"), put("photo.jpg"));
    let shared = conversation(&store, "Both");
    let alone = conversation(&store, "Only the PDF");
    store
        .ask_with(
            &shared.id,
            "What are these?",
            &[pdf.clone(), photo.clone()],
            None,
        )
        .unwrap();
    let asked = store
        .ask_with(&alone.id, "And this?", std::slice::from_ref(&pdf), None)
        .unwrap();
    assert!(
        matches!(&asked.message.parts[0], Part::Attachment(a) if a.sha256 == pdf.sha256 && a.data.is_none())
    );
    assert_eq!(asked.message.text(), "And this?");
    let referenced = store.referenced_attachments().unwrap();
    assert_eq!(
        referenced,
        [pdf.sha256.clone(), photo.sha256.clone()].into()
    );

    store.delete_conversation(&shared.id).unwrap();
    assert!(
        files.path(&photo.sha256).unwrap().exists(),
        "kept an hour, for a question not yet written"
    );
    assert_eq!(store.collect_attachments(Duration::ZERO).unwrap(), 1);
    assert!(!files.path(&photo.sha256).unwrap().exists());
    assert!(
        files.path(&pdf.sha256).unwrap().exists(),
        "the other conversation still has it"
    );
    store.delete_conversation(&alone.id).unwrap();
    assert_eq!(store.collect_attachments(Duration::ZERO).unwrap(), 1);
    assert!(!files.path(&pdf.sha256).unwrap().exists());
}

/// A file stored again (attached to a new question) counts as new: a collection reading the
/// history meanwhile, which has not reached the new question, keeps it for its grace.
#[test]
fn a_file_stored_again_is_new_again() {
    use std::time::{Duration, SystemTime};
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("ponder.sqlite3")).unwrap();
    let files = store.attachments().unwrap();
    let fixtures =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/attachments");
    let photo = files
        .put_file(&fixtures.join("photo.jpg"), "photo.jpg")
        .unwrap();
    let path = files.path(&photo.sha256).unwrap();
    let day_ago = SystemTime::now() - Duration::from_secs(86_400);
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(day_ago)
        .unwrap();
    files
        .put_file(&fixtures.join("photo.jpg"), "again.jpg")
        .unwrap();
    let age = std::fs::metadata(&path)
        .unwrap()
        .modified()
        .unwrap()
        .elapsed()
        .unwrap();
    assert!(age < Duration::from_secs(60), "{age:?}");
    assert_eq!(
        store
            .collect_attachments(Duration::from_secs(3600))
            .unwrap(),
        0,
        "kept for its grace"
    );
    assert!(path.exists());
}
