//! Several processes on one history file: a stream is recovered only when no live process
//! owns it, and a file Ponder cannot use safely is refused, never changed.

use std::time::{Duration, Instant};

use ponder_core::store::{LATEST_VERSION, MessageStatus, Store, StoreError};
use ponder_mock_provider::{MockProvider, Reply};

use crate::support::{THINKING_STREAM, spawn_chat};

fn streaming_row(db: &std::path::Path) -> Option<(MessageStatus, usize)> {
    let store = Store::open(db)
        .map_err(|e| eprintln!("opening the history failed: {e}"))
        .ok()?;
    let conversation = store.list_conversations(true).ok()?.into_iter().next()?;
    let answer = store.messages(&conversation.id).ok()?.into_iter().nth(1)?;
    let stored: usize = answer
        .message
        .thinking()
        .map(|b| b.text.len())
        .sum::<usize>()
        + answer.message.text().len();
    Some((answer.status, stored))
}

#[tokio::test(flavor = "multi_thread")]
async fn opening_the_history_in_a_second_process_leaves_a_live_stream_alone() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ponder.sqlite3");
    let mock = MockProvider::start().await.unwrap();
    mock.push(
        Reply::fixture(THINKING_STREAM)
            .unwrap()
            .chunk_size(200)
            .delay(Duration::from_millis(60)),
    );
    let mut chat = spawn_chat(&db, &mock.url());
    // Wait until the answer is on disk and streaming; every look opens the file afresh, as a
    // second process would.
    let started = Instant::now();
    let first = loop {
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the stream never started"
        );
        if let Some((MessageStatus::Streaming, stored)) = streaming_row(&db)
            && stored > 0
        {
            break stored;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let (status, later) = streaming_row(&db).unwrap();
    assert_eq!(
        status,
        MessageStatus::Streaming,
        "still the live process's stream"
    );
    assert!(
        later > first,
        "its flushes still land ({first} → {later} bytes)"
    );
    let exit = tokio::time::timeout(Duration::from_secs(60), chat.wait())
        .await
        .unwrap()
        .unwrap();
    assert!(exit.success());
    let (status, _) = streaming_row(&db).unwrap();
    assert_eq!(status, MessageStatus::Complete);
    mock.shutdown().await;
}

#[test]
fn a_history_from_a_newer_ponder_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ponder.sqlite3");
    drop(Store::open(&db).unwrap());
    rusqlite::Connection::open(&db)
        .unwrap()
        .pragma_update(None, "user_version", 99)
        .unwrap();
    let before = std::fs::read(&db).unwrap();
    let err = Store::open(&db).unwrap_err();
    assert!(
        matches!(err, StoreError::NewerSchema { found: 99, known } if known == LATEST_VERSION),
        "{err}"
    );
    assert!(err.to_string().contains("newer Ponder"), "{err}");
    assert_eq!(std::fs::read(&db).unwrap(), before, "nothing was written");
}

#[test]
fn an_upgrade_keeps_a_copy_of_the_history_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ponder.sqlite3");
    std::fs::copy(
        ponder_tests::workspace_root().join("tests/fixtures/db/v1.sqlite3"),
        &db,
    )
    .unwrap();
    let store = Store::open(&db).unwrap();
    assert_eq!(store.schema_version().unwrap(), LATEST_VERSION);
    drop(store);
    let copy = rusqlite::Connection::open_with_flags(
        dir.path().join("ponder.sqlite3.v1.bak"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )
    .unwrap();
    let read = |sql: &str| -> i64 { copy.query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(
        read("PRAGMA user_version"),
        1,
        "the copy is the history as it was"
    );
    assert_eq!(read("SELECT count(*) FROM conversations"), 1);
    assert_eq!(read("SELECT count(*) FROM messages"), 4);
    let ok: String = copy
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(ok, "ok");
}

#[test]
fn processes_that_create_the_same_history_at_once_all_open_it() {
    for round in 0..10 {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("ponder.sqlite3");
        let children: Vec<_> = (0..12)
            .map(|_| {
                std::process::Command::new(ponder_tests::workspace_bin("ponder-cli"))
                    .arg("--db")
                    .arg(&db)
                    .arg("conversations")
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "round {round}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}
