//! A broken disk under the history: full in the middle of an answer (a small tmpfs), mounted
//! read-only, or held by another process's lock. The answer in memory is never lost, the
//! file is never damaged, and a history that cannot be opened says what is in the way.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use ponder_core::chat::Part;
use ponder_core::providers::http;
use ponder_core::run::{Outcome, Question, RecordError, RecordOptions, Runner, run_recorded};
use ponder_core::store::{MessageStatus, OpenRemedy, Store};
use ponder_mock_provider::{MockProvider, Reply};
use tokio_util::sync::CancellationToken;

use crate::support::{
    Defaults, THINKING_STREAM, config, model, new_conversation, request, slow_stream,
};

/// A small tmpfs of its own, unmounted when dropped.
struct SmallDisk {
    dir: tempfile::TempDir,
}

impl SmallDisk {
    fn mount(size: &str) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let status = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir.path())
            .status()
            .expect("mount runs");
        assert!(
            status.success(),
            "mounting a tmpfs needs root (the test scripts run as root)"
        );
        Self { dir }
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Fills what is left, and returns the file that holds it.
    fn fill(&self) -> PathBuf {
        use std::io::Write;
        let filler = self.path().join("filler");
        let mut file = std::fs::File::create(&filler).unwrap();
        let block = vec![0u8; 4096];
        while file.write_all(&block).and_then(|()| file.flush()).is_ok() {}
        let _ = file.sync_all();
        filler
    }

    fn remount(&self, options: &str) {
        let status = Command::new("mount")
            .args(["-o", &format!("remount,{options}")])
            .arg(self.path())
            .status()
            .unwrap();
        assert!(status.success());
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.dir.path()).status();
    }
}

fn text_of(parts: &[Part]) -> String {
    parts
        .iter()
        .filter_map(|p| match p {
            Part::Text { text } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

/// Runs one recorded turn against `mock`: `streaming` runs once the answer's first bytes are
/// sent (its row exists by then), `then` a moment after the last.
async fn recorded_turn(
    store: &Store,
    conversation: &str,
    mock: &MockProvider,
    streaming: impl FnOnce(),
    then: impl FnOnce(),
) -> Result<(String, Outcome), RecordError> {
    let anthropic = model("anthropic", "claude-sonnet-4-5");
    let defaults = Defaults::default();
    let url = mock.url();
    let request = request(&anthropic, &defaults, &[], &url);
    let config = config();
    let client = http::client(&config).unwrap();
    let body_len = Reply::fixture(THINKING_STREAM).unwrap().served_body().len();
    let mut then = Some(then);
    let mut streaming = Some(streaming);
    let mut sent_all: Option<Instant> = None;
    let result = run_recorded(
        Runner {
            client: &client,
            http: &config,
            store,
        },
        conversation,
        Question::new("Cross?"),
        request,
        RecordOptions {
            flush_every: Duration::from_millis(50),
            ..RecordOptions::default()
        },
        CancellationToken::new(),
        |_| {},
    );
    tokio::pin!(result);
    loop {
        tokio::select! {
            out = &mut result => return out,
            () = tokio::time::sleep(Duration::from_millis(20)) => {
                let sent_bytes = mock.pieces_sent().last().map_or(0, |(n, _)| *n);
                if sent_bytes > 0 && let Some(streaming) = streaming.take() {
                    streaming();
                }
                if sent_bytes >= body_len {
                    // Give the client a moment to read the end and try its final write.
                    let ended = *sent_all.get_or_insert_with(Instant::now);
                    if ended.elapsed() >= Duration::from_millis(400) && let Some(then) = then.take() {
                        then();
                    }
                }
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_disk_that_fills_mid_answer_keeps_it_in_memory_and_saves_it_once_there_is_room() {
    let disk = SmallDisk::mount("2m");
    let db = disk.path().join("ponder.sqlite3");
    let store = Store::open(&db).unwrap();
    let conversation = new_conversation(&store);
    let mock = MockProvider::start().await.unwrap();
    mock.push(slow_stream(256, Duration::from_millis(5)));
    // Full once the answer starts: every write of it fails until room is made.
    let filler = std::sync::Mutex::new(None);
    let (id, outcome) = recorded_turn(
        &store,
        &conversation,
        &mock,
        || *filler.lock().unwrap() = Some(disk.fill()),
        || std::fs::remove_file(filler.lock().unwrap().as_ref().unwrap()).unwrap(),
    )
    .await
    .expect("the final write lands once there is room");
    assert!(matches!(outcome, Outcome::Done(_)), "{outcome:?}");
    let stored = store.message(&id).unwrap();
    assert_eq!(stored.status, MessageStatus::Complete);
    assert_eq!(
        text_of(&stored.message.parts),
        text_of(&outcome.turn().message.parts)
    );
    assert!(text_of(&stored.message.parts).contains("crossing"));
    assert_eq!(store.integrity_check().unwrap(), "ok");
    mock.shutdown().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_disk_that_stays_full_returns_the_answer_unsaved_and_the_file_stays_sound() {
    let disk = SmallDisk::mount("2m");
    let db = disk.path().join("ponder.sqlite3");
    let store = Store::open(&db).unwrap();
    let conversation = new_conversation(&store);
    let mock = MockProvider::start().await.unwrap();
    mock.push(slow_stream(256, Duration::from_millis(5)));
    let started = Instant::now();
    let filler = std::sync::Mutex::new(None);
    let result = recorded_turn(
        &store,
        &conversation,
        &mock,
        || *filler.lock().unwrap() = Some(disk.fill()),
        || {},
    )
    .await;
    let Err(RecordError::Unsaved {
        message_id,
        outcome,
        source,
    }) = result
    else {
        panic!("the answer is returned unsaved: {result:?}");
    };
    assert!(
        source.to_string().contains("full"),
        "says the disk is full: {source}"
    );
    assert!(
        text_of(&outcome.turn().message.parts).contains("crossing"),
        "the whole answer is in memory"
    );
    assert!(started.elapsed() >= Duration::from_secs(7), "it retried");
    drop(store);
    // While the disk is full the history cannot even be opened: a clear error, try again.
    let full = Store::open(&db).unwrap_err();
    assert_eq!(full.remedy(), OpenRemedy::Retry, "{full}");
    std::fs::remove_file(filler.lock().unwrap().as_ref().unwrap()).unwrap();
    let reopened = Store::open(&db).unwrap();
    assert_eq!(reopened.integrity_check().unwrap(), "ok");
    assert_eq!(
        reopened.message(&message_id).unwrap().status,
        MessageStatus::Interrupted
    );
    mock.shutdown().await;
}

#[test]
fn a_history_on_a_read_only_disk_says_so_and_offers_to_try_again() {
    let disk = SmallDisk::mount("4m");
    let db = disk.path().join("ponder.sqlite3");
    drop(Store::open(&db).unwrap());
    disk.remount("ro");
    let err = Store::open(&db).unwrap_err();
    assert_eq!(err.remedy(), OpenRemedy::Retry, "{err}");
    assert!(
        err.to_string().to_lowercase().contains("read"),
        "names the cause: {err}"
    );
    disk.remount("rw");
    Store::open(&db).expect("opens once it is writable again");
}

#[test]
fn a_history_locked_by_another_process_says_so_and_offers_to_try_again() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("ponder.sqlite3");
    drop(Store::open(&db).unwrap());
    let holder = rusqlite::Connection::open(&db).unwrap();
    holder
        .execute_batch("PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE;")
        .unwrap();
    let started = Instant::now();
    let err = Store::open(&db).unwrap_err();
    assert!(started.elapsed() < Duration::from_secs(15));
    assert_eq!(err.remedy(), OpenRemedy::Retry, "{err}");
    assert!(err.to_string().contains("locked"), "{err}");
    holder.execute_batch("COMMIT;").unwrap();
    drop(holder);
    Store::open(&db).expect("opens once the other process lets go");
}
