//! Every schema version Ponder has shipped keeps a database fixture made by that version;
//! opening it with today's code must upgrade it with nothing lost.
//!
//! When a migration is added: run this test once with `PONDER_BLESS=1` to write the fixture
//! of the new version (`tests/fixtures/db/vN.sqlite3`), and commit it next to the older ones.

use std::path::PathBuf;

use ponder_core::chat::{Origin, Part, Replay, StopReason, ThinkingBlock, ThoughtSource, Usage};
use ponder_core::reasoning::{Choice, ReasoningSettings};
use ponder_core::store::{
    LATEST_VERSION, MessageStatus, NewConversation, SearchScope, Store, TurnRecord,
};

fn fixture(version: i64) -> PathBuf {
    ponder_tests::workspace_root().join(format!("tests/fixtures/db/v{version}.sqlite3"))
}

/// The content every fixture holds, whatever its version.
fn fill(store: &Store) {
    let c = store
        .create_conversation(NewConversation {
            title: "Fixture: thinking about bridges".into(),
            provider: Some("anthropic".into()),
            model: Some("claude-sonnet-4-5".into()),
            settings: ReasoningSettings {
                choice: Choice::HIGH,
                include_in_context: true,
                ..ReasoningSettings::default()
            },
        })
        .unwrap();
    store.set_pinned(&c.id, true).unwrap();
    let asked = store
        .append_user(&c.id, "Why do suspension bridges sway?")
        .unwrap();
    let origin = Origin {
        provider: "anthropic".into(),
        model: "claude-sonnet-4-5".into(),
    };
    let id = store
        .start_assistant(&c.id, &asked.id, &origin, Choice::HIGH)
        .unwrap();
    store
        .finish_assistant(
            &id,
            &TurnRecord {
                status: MessageStatus::Complete,
                parts: vec![
                    Part::Thinking(ThinkingBlock {
                        text: "Wind, resonance, and the deck's flexibility.".into(),
                        source: Some(ThoughtSource::Thinking),
                        signature: Some("EqQBCgIYAhIM-fixture-signature".into()),
                        duration_ms: Some(2400),
                        token_estimate: Some(11),
                        ..ThinkingBlock::default()
                    }),
                    Part::Thinking(ThinkingBlock {
                        source: Some(ThoughtSource::Thinking),
                        redacted: Some("EmwKAhgB-redacted-fixture".into()),
                        ..ThinkingBlock::default()
                    }),
                    Part::Text { text: "They sway because wind forces the deck to move.".into() },
                ],
                replay: Some(Replay {
                    provider: "anthropic".into(),
                    model: "claude-sonnet-4-5".into(),
                    content: serde_json::json!({"role": "assistant", "content": [
                        {"type": "thinking", "thinking": "Wind, resonance, and the deck's flexibility.", "signature": "EqQBCgIYAhIM-fixture-signature"},
                        {"type": "redacted_thinking", "data": "EmwKAhgB-redacted-fixture"},
                        {"type": "text", "text": "They sway because wind forces the deck to move."}]}),
                }),
                usage: Usage { input: Some(12), output: Some(340), reasoning: Some(290), cached: Some(0) },
                stop: Some(StopReason::End),
                error_code: None,
                error_message: None,
            },
        )
        .unwrap();
    let asked = store.append_user(&c.id, "And cables?").unwrap();
    let failed = store
        .start_assistant(&c.id, &asked.id, &origin, Choice::HIGH)
        .unwrap();
    store
        .finish_assistant(
            &failed,
            &TurnRecord {
                status: MessageStatus::Error,
                parts: vec![Part::Text {
                    text: "Cables carry".into(),
                }],
                replay: None,
                usage: Usage::default(),
                stop: None,
                error_code: Some("overloaded".into()),
                error_message: Some("Overloaded".into()),
            },
        )
        .unwrap();
}

fn check(store: &Store) {
    let list = store.list_conversations(true).unwrap();
    assert_eq!(list.len(), 1);
    assert!(list[0].pinned);
    let c = store.conversation(&list[0].id).unwrap();
    assert_eq!(c.title, "Fixture: thinking about bridges");
    assert_eq!(c.settings.choice, Choice::HIGH);
    assert!(c.settings.include_in_context);
    let messages = store.messages(&c.id).unwrap();
    assert_eq!(messages.len(), 4);
    // A history from before messages formed a tree is one branch, shown to its end.
    assert_eq!(messages[0].parent_id, None);
    for pair in messages.windows(2) {
        assert_eq!(pair[1].parent_id.as_deref(), Some(pair[0].id.as_str()));
    }
    assert_eq!(c.leaf_id.as_deref(), Some(messages[3].id.as_str()));
    assert_eq!(store.all_messages(&c.id).unwrap(), messages);
    assert!(store.versions(&c.id).unwrap().is_empty());
    let answer = &messages[1];
    let blocks: Vec<_> = answer.message.thinking().collect();
    assert_eq!(
        blocks[0].signature.as_deref(),
        Some("EqQBCgIYAhIM-fixture-signature")
    );
    assert_eq!(blocks[0].duration_ms, Some(2400));
    assert_eq!(
        blocks[1].redacted.as_deref(),
        Some("EmwKAhgB-redacted-fixture")
    );
    assert_eq!(answer.usage.reasoning, Some(290));
    assert_eq!(
        answer.message.replay.as_ref().unwrap().content["content"][0]["signature"],
        "EqQBCgIYAhIM-fixture-signature"
    );
    assert_eq!(messages[3].status, MessageStatus::Error);
    assert_eq!(messages[3].error_code.as_deref(), Some("overloaded"));
    assert_eq!(
        store
            .search("resonance", SearchScope::TextAndThoughts, 5)
            .unwrap()
            .len(),
        1
    );
    // The search index was made again with its word starts (v7): found by its start too.
    assert_eq!(
        store
            .search("reso", SearchScope::TextAndThoughts, 5)
            .unwrap()
            .len(),
        1
    );
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[test]
fn every_earlier_schema_upgrades_with_nothing_lost() {
    let latest = fixture(LATEST_VERSION);
    if std::env::var_os("PONDER_BLESS").is_some() && !latest.exists() {
        let store = Store::open(&latest).unwrap();
        fill(&store);
        drop(store);
        // One self-contained file: fold the write-ahead log in.
        assert!(
            wal_folded_in(&latest),
            "the fixture is one self-contained file"
        );
    }
    for version in 1..=LATEST_VERSION {
        let path = fixture(version);
        assert!(
            path.exists(),
            "no fixture for schema version {version}: run with PONDER_BLESS=1 once and commit it"
        );
        let dir = tempfile::tempdir().unwrap();
        let copy = dir.path().join("history.sqlite3");
        std::fs::copy(&path, &copy).unwrap();
        let store = Store::open(&copy).unwrap();
        assert_eq!(
            store.schema_version().unwrap(),
            LATEST_VERSION,
            "v{version} upgrades to the latest"
        );
        check(&store);
    }
}

/// Removes the `-wal` and `-shm` files beside a closed database, after SQLite has folded
/// them in on close (it does when the last connection closes cleanly).
fn wal_folded_in(path: &std::path::Path) -> bool {
    for suffix in ["-wal", "-shm"] {
        let side = PathBuf::from(format!("{}{suffix}", path.display()));
        if side.exists() && std::fs::metadata(&side).map(|m| m.len()).unwrap_or(0) > 0 {
            return false;
        }
        let _ = std::fs::remove_file(side);
    }
    true
}
