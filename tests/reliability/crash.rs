//! The crash loop: `ponder-cli chat` is killed with SIGKILL at random moments of a streaming
//! answer. After every kill the history must pass `PRAGMA integrity_check`, the answer must
//! be marked `interrupted`, and no more than half a second of what had arrived may be lost.
//!
//! `PONDER_CRASH_TRIALS` sets the number of kills (10 by default, 100 for the full run that
//! `./.ci/test --long` makes); `PONDER_CRASH_SEED` replays a run. The figures are printed.

use std::time::{Duration, Instant};

use ponder_core::chat::{Origin, Part};
use ponder_core::draft::Draft;
use ponder_core::providers::stream::StreamDecoder;
use ponder_core::store::{MessageStatus, Store};
use ponder_mock_provider::{MockProvider, Reply};
use ponder_tests::recordings::{Protocol, mapper};

use crate::support::{THINKING_STREAM, spawn_chat};

const CHUNK: usize = 64;
const EVERY: Duration = Duration::from_millis(10);
/// The history promises at most this much lost (its flush interval).
const PROMISED: Duration = Duration::from_millis(500);

/// How much content (thought and answer text, in bytes) the stream holds after each chunk.
fn content_after_each_chunk(body: &[u8]) -> Vec<usize> {
    let mut decoder = StreamDecoder::new(mapper(Protocol::Anthropic));
    let origin = Origin {
        provider: "anthropic".into(),
        model: "claude-sonnet-4-5".into(),
    };
    let mut draft = Draft::new(origin, decoder.mapper().default_source());
    let mut raw = Vec::new();
    body.chunks(CHUNK)
        .map(|chunk| {
            decoder.feed(chunk, &mut raw);
            for event in raw.drain(..) {
                draft.apply(event, 0, &mut Vec::new());
            }
            content_len(draft.parts())
        })
        .collect()
}

fn content_len(parts: &[Part]) -> usize {
    parts
        .iter()
        .map(|p| match p {
            Part::Thinking(block) => block.text.len(),
            Part::Text { text } => text.len(),
            _ => 0,
        })
        .sum()
}

/// A small deterministic generator, so a failing run can be replayed from its seed.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n.max(1)
    }
}

fn median(sorted: &[u128]) -> u128 {
    sorted.get(sorted.len() / 2).copied().unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread")]
async fn killing_a_chat_at_random_moments_loses_at_most_half_a_second() {
    let trials: usize = std::env::var("PONDER_CRASH_TRIALS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10);
    let seed: u64 = std::env::var("PONDER_CRASH_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_secs())
        });
    let mut random = Lcg(seed);
    let reply = Reply::fixture(THINKING_STREAM)
        .unwrap()
        .chunk_size(CHUNK)
        .delay(EVERY);
    let progress = content_after_each_chunk(&reply.served_body());
    let streaming_for = EVERY * u32::try_from(progress.len()).unwrap();
    let mut lost_ms = Vec::new();
    let mut integrity_failures = 0;
    let dir = tempfile::tempdir().unwrap();
    for trial in 0..trials {
        let db = dir.path().join(format!("trial-{trial}.sqlite3"));
        let mock = MockProvider::start().await.unwrap();
        mock.push(reply.clone());
        let asked = std::sync::Arc::new(std::sync::Mutex::new(None::<Instant>));
        let seen = asked.clone();
        mock.on_request(move |_| {
            *seen.lock().unwrap() = Some(Instant::now());
        });
        let mut chat = spawn_chat(&db, &mock.url());
        // A moment inside the stream, never in its first or last 100 ms.
        let span = u64::try_from(streaming_for.as_millis()).unwrap() - 200;
        let kill_after = Duration::from_millis(100 + random.below(span));
        let started = loop {
            if let Some(at) = *asked.lock().unwrap() {
                break at;
            }
            tokio::time::sleep(Duration::from_millis(2)).await;
        };
        tokio::time::sleep_until((started + kill_after).into()).await;
        chat.start_kill().unwrap();
        let killed = Instant::now();
        chat.wait().await.unwrap();
        let pieces = mock.pieces_sent();
        mock.shutdown().await;

        let store = Store::open(&db).unwrap();
        if store.integrity_check().unwrap() != "ok" {
            integrity_failures += 1;
        }
        let conversation = &store.list_conversations(true).unwrap()[0];
        let answer = store.messages(&conversation.id).unwrap().pop().unwrap();
        assert_eq!(
            answer.status,
            MessageStatus::Interrupted,
            "trial {trial} (seed {seed})"
        );
        // What arrived from the first piece whose content is not on disk until the kill is
        // what was lost (nothing, when every piece sent is on disk).
        let stored = content_len(&answer.message.parts);
        let first_missing = progress
            .iter()
            .position(|&c| c > stored)
            .unwrap_or(progress.len());
        let lost = pieces
            .get(first_missing)
            .map_or(Duration::ZERO, |(_, sent)| {
                killed.saturating_duration_since(*sent)
            });
        lost_ms.push(lost.as_millis());
    }
    lost_ms.sort_unstable();
    let max = lost_ms.last().copied().unwrap_or(0);
    println!(
        "crash loop: {trials} kills (seed {seed}); lost ms: median {}, max {max}; integrity failures: {integrity_failures}",
        median(&lost_ms)
    );
    assert_eq!(integrity_failures, 0);
    // Half a second of flush interval, plus a little for the last chunk's own time on the wire.
    assert!(
        max <= PROMISED.as_millis() + 100,
        "lost up to {max} ms (seed {seed}): {lost_ms:?}"
    );
}
