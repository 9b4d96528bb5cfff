//! History store figures, on real SQLite files in a temporary folder: how big a history with
//! thoughts gets on disk, how long a long conversation takes to load (every part decoded), and
//! how long a full-text search takes over a large history.
//!
//! Run with `cargo bench -p ponder-core --bench store`. Text comes from a deterministic
//! generator (a few hundred words with a Zipf-like frequency, plus a long tail of numbers,
//! identifiers and invented words), so every run builds the same databases. The figures are
//! printed as `store/…` lines; nothing is asserted.
//!
//! Every message goes in through the public `Store` API, one transaction per call as the app
//! makes them. The size and load histories are flushed while "streaming" as the app flushes;
//! the 100,000-message search history is not (three transactions a turn, about 35 s to build
//! instead of minutes). The write-ahead log is checkpointed, and match counts taken, on a
//! second plain rusqlite connection, so the store needs no extra API for the bench.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use ponder_core::store::{SearchScope, Store};

#[path = "support/history.rs"]
mod history;

use history::{TEXT_RARE, THOUGHT_RARE, build};

/// The size figure: 100 conversations of 50 turns, 10,000 messages.
const SIZE_CONVERSATIONS: usize = 100;
const SIZE_TURNS: usize = 50;
/// The load figure: one conversation of 1,000 turns, 2,000 messages.
const LOAD_TURNS: usize = 1_000;
/// The search figure: 1,000 conversations of 50 turns, 100,000 messages; more (or fewer) with
/// `PONDER_BENCH_SEARCH_CONVERSATIONS` (10,000 for the million messages of the performance
/// targets; `./.ci/bench` sets it).
const SEARCH_CONVERSATIONS: usize = 1_000;
const SEARCH_TURNS: usize = 50;

/// Flushes of a streaming answer before it finishes. The app flushes every 500 ms while a
/// stream runs; a ~2,300-character answer with its thoughts streams in about 8 s.
const STREAM_FLUSHES: usize = 15;

/// A word in well over half of the assistant messages.
const COMMON: &str = "model";
/// Two letters, the start of many words.
const SHORT_PREFIX: &str = "re";
/// The start of a common word, longer than the index's word starts and not a word itself.
const LONG_PREFIX: &str = "respon";

/// Folds the write-ahead log into the main file (on a second connection, as any SQLite client
/// may) and returns the bytes of the main file plus what is left of the log.
fn bytes_on_disk(path: &Path) -> u64 {
    let conn = rusqlite::Connection::open(path).unwrap();
    let (busy, _, _): (i64, i64, i64) = conn
        .query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .unwrap();
    if busy != 0 {
        println!("store/size: warning: the checkpoint could not finish");
    }
    drop(conn);
    let wal = path.with_extension("sqlite3-wal");
    std::fs::metadata(path).unwrap().len() + std::fs::metadata(&wal).map_or(0, |m| m.len())
}

/// Where the bytes are, by table and index, if this SQLite has the `dbstat` table.
fn breakdown(path: &Path) -> Option<String> {
    let conn = rusqlite::Connection::open(path).ok()?;
    let mut stmt = conn
        .prepare(
            "SELECT name, sum(pgsize) AS bytes FROM dbstat GROUP BY name ORDER BY bytes DESC LIMIT 6",
        )
        .ok()?;
    let rows: Vec<(String, i64)> = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .ok()?
        .collect::<rusqlite::Result<_>>()
        .ok()?;
    let free: i64 = conn
        .query_row("PRAGMA freelist_count", [], |r| r.get(0))
        .ok()?;
    let page: i64 = conn.query_row("PRAGMA page_size", [], |r| r.get(0)).ok()?;
    let mut parts: Vec<String> = rows
        .iter()
        .map(|(name, bytes)| format!("{name} {}", mib(*bytes as u64)))
        .collect();
    parts.push(format!("free pages {}", mib((free * page) as u64)));
    Some(parts.join(", "))
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1024.0 * 1024.0))
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

/// The median of a few hand-timed runs, printed next to criterion's estimate.
fn median_of<T>(runs: usize, mut f: impl FnMut() -> T) -> (Duration, T) {
    let mut times = Vec::with_capacity(runs);
    let mut last = None;
    for _ in 0..runs {
        let started = Instant::now();
        last = Some(black_box(f()));
        times.push(started.elapsed());
    }
    times.sort();
    (times[runs / 2], last.unwrap())
}

fn bench_size(_c: &mut Criterion) {
    if search_only() {
        return;
    }
    let messages = SIZE_CONVERSATIONS * SIZE_TURNS * 2;
    // As the app writes it, then the same turns with no flush, to show what flushing costs.
    for flushes in [STREAM_FLUSHES, 0] {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("history.sqlite3");
        let built = build(&path, SIZE_CONVERSATIONS, SIZE_TURNS, flushes, 1, false);
        let bytes = bytes_on_disk(&path);
        let how = if flushes == 0 {
            " (written without flushes)"
        } else {
            ""
        };
        println!(
            "store/size: {messages} messages with thoughts{how} = {} ({:.1} KiB per message)",
            mib(bytes),
            bytes as f64 / 1024.0 / messages as f64
        );
        if flushes > 0 {
            println!(
                "store/size: content (question, thoughts, signature, answer) {} = {:.1} KiB per message",
                mib(built.content_bytes as u64),
                built.content_bytes as f64 / 1024.0 / messages as f64,
            );
        }
        println!(
            "store/size: written turn by turn, {flushes} flushes each, in {:.1} s ({:.2} ms per turn)",
            built.seconds,
            built.seconds * 1e3 / (SIZE_CONVERSATIONS * SIZE_TURNS) as f64
        );
        if let Some(breakdown) = breakdown(&path) {
            println!("store/size: by table: {breakdown}");
        }
    }
}

fn bench_load(c: &mut Criterion) {
    if search_only() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.sqlite3");
    let built = build(&path, 1, LOAD_TURNS, STREAM_FLUSHES, 2, false);
    let store = &built.store;
    let id = &built.conversations[0];

    let mut group = c.benchmark_group("store");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("load", |b| {
        b.iter(|| store.messages(black_box(id)).unwrap())
    });
    group.finish();

    let (time, loaded) = median_of(5, || store.messages(id).unwrap());
    println!(
        "store/load: {} messages in {} (median of 5; file {})",
        loaded.len(),
        ms(time),
        mib(bytes_on_disk(&path))
    );
}

/// `PONDER_BENCH_SEARCH_ONLY`: only the search figure (the others take minutes to build).
fn search_only() -> bool {
    std::env::var_os("PONDER_BENCH_SEARCH_ONLY").is_some()
}

fn search_conversations() -> usize {
    std::env::var("PONDER_BENCH_SEARCH_CONVERSATIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(SEARCH_CONVERSATIONS)
}

/// `PONDER_BENCH_SEARCH_DB`: where to keep the search history, to measure it again without
/// building it again (a million messages take minutes). It is built there when missing.
fn search_db() -> Option<PathBuf> {
    std::env::var_os("PONDER_BENCH_SEARCH_DB").map(PathBuf::from)
}

fn bench_search(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let kept = search_db();
    let path = kept
        .clone()
        .unwrap_or_else(|| dir.path().join("history.sqlite3"));
    let conversations = search_conversations();
    let messages = conversations * SEARCH_TURNS * 2;
    let store = if kept.is_some() && path.exists() {
        let started = Instant::now();
        let store = Store::open(&path).unwrap();
        println!(
            "store/search: opened the kept history ({messages} messages) in {:.1} s, file {}",
            started.elapsed().as_secs_f64(),
            mib(bytes_on_disk(&path))
        );
        store
    } else {
        let b = build(&path, conversations, SEARCH_TURNS, 0, 3, true);
        println!(
            "store/search: built {messages} messages (no flushes) in {:.1} s, file {}",
            b.seconds,
            mib(bytes_on_disk(&path))
        );
        b.store
    };
    // The answers were written as a turn writes them, so they wait for the index; the app
    // indexes each when its turn ends. Done here, timed on its own, so that the first search
    // measured is not the one that indexes half a million answers.
    let started = Instant::now();
    let indexed = store.index_pending().unwrap();
    println!(
        "store/search: indexed {indexed} finished answers in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let store = &store;
    if let Some(breakdown) = breakdown(&path) {
        println!("store/search: by table: {breakdown}");
    }

    let queries = [
        ("rare-text", TEXT_RARE, SearchScope::Text),
        ("rare-thought", THOUGHT_RARE, SearchScope::TextAndThoughts),
        ("rare-thought-text-only", THOUGHT_RARE, SearchScope::Text),
        ("common-text", COMMON, SearchScope::Text),
        ("common-all", COMMON, SearchScope::TextAndThoughts),
        // What search-as-you-type sends after two letters: a prefix of many words.
        ("prefix-all", SHORT_PREFIX, SearchScope::TextAndThoughts),
        ("long-prefix-all", LONG_PREFIX, SearchScope::TextAndThoughts),
    ];
    let mut group = c.benchmark_group("store/search");
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    for (name, query, scope) in queries {
        group.bench_function(name, |b| {
            b.iter(|| store.search(black_box(query), scope, 50).unwrap())
        });
    }
    group.finish();

    let conn = rusqlite::Connection::open(&path).unwrap();
    for (_, query, scope) in queries {
        let (time, hits) = median_of(5, || store.search(query, scope, 50).unwrap());
        let filter = match scope {
            SearchScope::Text => format!("text : \"{query}\"*"),
            SearchScope::TextAndThoughts => format!("{{text thoughts}} : \"{query}\"*"),
        };
        let matching: i64 = conn
            .query_row(
                "SELECT count(*) FROM message_search WHERE message_search MATCH ?1",
                [filter],
                |r| r.get(0),
            )
            .unwrap();
        let in_thoughts = hits.iter().filter(|h| h.in_thoughts).count();
        println!(
            "store/search: {messages} messages, \"{query}\" ({scope:?}) in {} ({} hits, {in_thoughts} in thoughts; {matching} messages match)",
            ms(time),
            hits.len(),
        );
    }

    // The figure of the performance targets: every query 20 times, the 95th percentile.
    let mut times: Vec<Duration> = Vec::new();
    for _ in 0..20 {
        for (_, query, scope) in queries {
            let started = Instant::now();
            black_box(store.search(query, scope, 50).unwrap());
            times.push(started.elapsed());
        }
    }
    times.sort();
    let p95 = times[(times.len() * 95).div_ceil(100) - 1];
    println!("bench: search_messages {messages}");
    println!("bench: search_p95_ms {:.1} ms", p95.as_secs_f64() * 1000.0);
}

criterion_group!(benches, bench_size, bench_load, bench_search);
criterion_main!(benches);
