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
use ponder_core::chat::{Origin, Part, Replay, StopReason, ThinkingBlock, ThoughtSource, Usage};
use ponder_core::reasoning::{Choice, ReasoningSettings};
use ponder_core::store::{MessageStatus, NewConversation, SearchScope, Store, TurnRecord};

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

/// Only in answers (visible text), every `TEXT_RARE_EVERY`th turn of the search history.
const TEXT_RARE: &str = "quetzalcoatlus";
const TEXT_RARE_EVERY: usize = 9_973;
/// Only in thoughts, every `THOUGHT_RARE_EVERY`th turn.
const THOUGHT_RARE: &str = "zymurgical";
const THOUGHT_RARE_EVERY: usize = 7_919;
/// A word in well over half of the assistant messages.
const COMMON: &str = "model";
/// Two letters, the start of many words.
const SHORT_PREFIX: &str = "re";
/// The start of a common word, longer than the index's word starts and not a word itself.
const LONG_PREFIX: &str = "respon";

const PROVIDER: &str = "anthropic";
const MODEL: &str = "claude-sonnet-4-5";

/// SplitMix64: small, fast and the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn between(&mut self, low: usize, high: usize) -> usize {
        low + self.below(high - low + 1)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Most frequent first: function words, then words of conversations about software and life.
#[rustfmt::skip]
const WORDS: &[&str] = &[
    "the", "to", "of", "and", "a", "in", "is", "that", "it", "for", "you", "this", "be",
    "with", "as", "on", "not", "are", "can", "or", "if", "but", "we", "have", "so", "at",
    "from", "by", "an", "which", "would", "will", "do", "there", "should", "about", "they",
    "more", "one", "what", "when", "all", "their", "then", "also", "some", "need", "just",
    "like", "each", "model", "user", "file", "data", "code", "function", "time", "value",
    "way", "question", "let", "me", "think", "check", "answer", "error", "case", "first",
    "because", "how", "use", "example", "type", "string", "list", "point", "result", "test",
    "new", "make", "here", "actually", "probably", "wait", "maybe", "right", "good", "other",
    "same", "different", "number", "problem", "output", "input", "request", "response",
    "server", "client", "table", "query", "index", "memory", "cache", "thread", "process",
    "system", "version", "library", "package", "build", "compile", "run", "call", "return",
    "loop", "array", "map", "key", "field", "struct", "class", "method", "object", "pointer",
    "reference", "lifetime", "borrow", "trait", "generic", "async", "await", "future",
    "stream", "buffer", "byte", "chunk", "line", "token", "parse", "format", "json", "schema",
    "column", "row", "insert", "update", "delete", "select", "join", "transaction", "lock",
    "mutex", "channel", "queue", "event", "handler", "callback", "state", "config", "option",
    "setting", "default", "path", "folder", "network", "socket", "timeout", "retry", "limit",
    "size", "length", "count", "sum", "average", "minimum", "maximum", "sort", "search",
    "filter", "match", "pattern", "regex", "unicode", "character", "word", "sentence",
    "paragraph", "document", "page", "image", "color", "layout", "window", "button", "click",
    "scroll", "render", "browser", "script", "style", "component", "prop", "hook", "effect",
    "signal", "route", "login", "password", "secret", "account", "permission", "access",
    "security", "encrypt", "hash", "signature", "certificate", "release", "deploy",
    "container", "pixel", "cluster", "node", "service", "log", "metric", "trace", "debug",
    "panic", "crash", "recover", "backup", "restore", "migrate", "upgrade", "install",
    "dependency", "feature", "flag", "branch", "commit", "merge", "review", "issue", "bug",
    "fix", "patch", "change", "diff", "history", "conversation", "message", "reply", "prompt",
    "reasoning", "thought", "budget", "effort", "level", "provider", "api", "endpoint",
    "header", "body", "status", "success", "failure", "warning", "recipe", "garden", "travel",
    "weather", "music", "guitar", "piano", "novel", "chapter", "poem", "empire", "river",
    "mountain", "city", "train", "flight", "hotel", "savings", "invoice", "tax", "salary",
    "interest", "loan", "mortgage", "rent", "health", "sleep", "exercise", "diet", "protein",
    "vitamin", "coffee", "tea", "bread", "flour", "yeast", "oven", "temperature", "minute",
    "hour", "day", "week", "month", "year", "morning", "evening", "child", "school", "teacher",
    "student", "exam", "grade", "essay", "argument", "evidence", "claim", "source", "quote",
    "author", "probability", "statistics", "variance", "matrix", "vector", "integral",
    "derivative", "proof", "theorem", "lemma", "equation", "solve", "assume", "therefore",
    "hence", "however", "although", "instead", "otherwise", "overall", "finally", "careful",
    "simple", "complex", "fast", "slow", "large", "small", "correct", "wrong", "likely",
    "unlikely", "important",
];

#[rustfmt::skip]
const SYLLABLES: &[&str] = &[
    "ba", "be", "bi", "bo", "da", "de", "di", "do", "fa", "fe", "ga", "go", "ka", "ke", "ki",
    "ko", "la", "le", "li", "lo", "lu", "ma", "me", "mi", "mo", "na", "ne", "ni", "no", "pa",
    "pe", "pi", "po", "ra", "re", "ri", "ro", "ru", "sa", "se", "si", "so", "ta", "te", "ti",
    "to", "va", "ve", "vi", "vo",
];

const BASE64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Realistic-looking prose: sentences of Zipf-distributed words, a long tail of rare tokens.
struct Prose {
    /// Cumulative weights of `WORDS`, the last one 1.0.
    cumulative: Vec<f64>,
}

impl Prose {
    fn new() -> Self {
        let weights: Vec<f64> = (0..WORDS.len())
            .map(|rank| 1.0 / (rank as f64 + 2.0).powf(1.05))
            .collect();
        let total: f64 = weights.iter().sum();
        let mut running = 0.0;
        let cumulative = weights
            .iter()
            .map(|w| {
                running += w / total;
                running
            })
            .collect();
        Self { cumulative }
    }

    fn vocabulary_word(&self, rng: &mut Rng) -> &'static str {
        let u = rng.unit();
        let index = self.cumulative.partition_point(|&c| c < u);
        WORDS[index.min(WORDS.len() - 1)]
    }

    fn push_word(&self, rng: &mut Rng, out: &mut String) {
        if rng.unit() >= 0.04 {
            out.push_str(self.vocabulary_word(rng));
            return;
        }
        // The long tail real text has: numbers, identifiers, names no list holds.
        match rng.below(4) {
            0 => out.push_str(&rng.below(100_000).to_string()),
            1 => {
                out.push_str(WORDS[rng.between(50, WORDS.len() - 1)]);
                out.push('_');
                out.push_str(WORDS[rng.between(50, WORDS.len() - 1)]);
            }
            2 => {
                out.push_str(WORDS[rng.between(50, WORDS.len() - 1)]);
                out.push_str(&format!("{}", rng.below(64)));
            }
            _ => {
                for _ in 0..rng.between(2, 4) {
                    out.push_str(SYLLABLES[rng.below(SYLLABLES.len())]);
                }
            }
        }
    }

    /// At least `chars` characters of sentences, in paragraphs.
    fn text(&self, rng: &mut Rng, chars: usize) -> String {
        let mut out = String::with_capacity(chars + 200);
        let mut sentences_in_paragraph = 0;
        while out.len() < chars {
            if !out.is_empty() {
                if sentences_in_paragraph >= rng.between(3, 6) {
                    out.push_str("\n\n");
                    sentences_in_paragraph = 0;
                } else {
                    out.push(' ');
                }
            }
            let start = out.len();
            let words = rng.between(6, 22);
            for i in 0..words {
                if i > 0 {
                    out.push_str(if rng.below(9) == 0 { ", " } else { " " });
                }
                self.push_word(rng, &mut out);
            }
            if let Some(first) = out[start..].chars().next() {
                let upper = first.to_ascii_uppercase().to_string();
                out.replace_range(start..start + first.len_utf8(), &upper);
            }
            out.push(match rng.below(10) {
                0 => '?',
                1 => ':',
                _ => '.',
            });
            sentences_in_paragraph += 1;
        }
        out
    }
}

fn signature(rng: &mut Rng) -> String {
    (0..rng.between(280, 320))
        .map(|_| char::from(BASE64[rng.below(BASE64.len())]))
        .collect()
}

/// One generated exchange.
struct Turn {
    question: String,
    thinking: String,
    signature: String,
    answer: String,
    /// Of the conversation, from 0; the input tokens grow with it.
    index: usize,
}

impl Turn {
    fn generate(prose: &Prose, rng: &mut Rng, index: usize) -> Self {
        let target = rng.between(120, 280);
        let question = prose.text(rng, target);
        let target = rng.between(1_000, 2_000);
        let thinking = prose.text(rng, target);
        let target = rng.between(500, 1_100);
        let answer = prose.text(rng, target);
        Self {
            question,
            thinking,
            signature: signature(rng),
            answer,
            index,
        }
    }

    fn thought(&self, streamed: Option<usize>) -> ThinkingBlock {
        let done = streamed.is_none();
        ThinkingBlock {
            text: streamed.map_or(self.thinking.clone(), |n| self.thinking[..n].to_owned()),
            source: Some(ThoughtSource::Thinking),
            signature: done.then(|| self.signature.clone()),
            duration_ms: done.then_some(self.thinking.len() as u64 * 3),
            token_estimate: Some((streamed.unwrap_or(self.thinking.len()) / 4) as u32),
            ..ThinkingBlock::default()
        }
    }

    /// What a flush writes once `streamed` characters of thoughts and answer have arrived.
    /// Generated text is ASCII, so any byte offset is a character boundary.
    fn partial(&self, streamed: usize) -> Vec<Part> {
        if streamed <= self.thinking.len() {
            return vec![Part::Thinking(self.thought(Some(streamed)))];
        }
        vec![
            Part::Thinking(self.thought(None)),
            Part::Text {
                text: self.answer[..streamed - self.thinking.len()].to_owned(),
            },
        ]
    }

    /// The outcome as Anthropic's mapper leaves it: parts, and the native turn for replay.
    fn record(&self) -> TurnRecord {
        let content = serde_json::json!({
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": self.thinking, "signature": self.signature},
                {"type": "text", "text": self.answer},
            ],
        });
        let output = ((self.thinking.len() + self.answer.len()) / 4) as u32;
        let input = (40 + self.index * 650) as u32;
        TurnRecord {
            status: MessageStatus::Complete,
            parts: vec![
                Part::Thinking(self.thought(None)),
                Part::Text {
                    text: self.answer.clone(),
                },
            ],
            replay: Some(Replay {
                provider: PROVIDER.into(),
                model: MODEL.into(),
                content,
            }),
            usage: Usage {
                input: Some(input),
                output: Some(output),
                reasoning: Some((self.thinking.len() / 4) as u32),
                cached: Some(input.saturating_sub(700)),
            },
            stop: Some(StopReason::End),
            error_code: None,
            error_message: None,
        }
    }
}

fn origin() -> Origin {
    Origin {
        provider: PROVIDER.into(),
        model: MODEL.into(),
    }
}

/// A turn written as the app writes it: the user's message, the assistant row as the stream
/// starts, `flushes` flushes while it streams, the outcome; each its own transaction.
fn write_turn(store: &Store, conversation: &str, turn: &Turn, flushes: usize) {
    let asked = store.append_user(conversation, &turn.question).unwrap();
    let id = store
        .start_assistant(conversation, &asked.id, &origin(), Choice::HIGH)
        .unwrap();
    let total = turn.thinking.len() + turn.answer.len();
    for k in 1..=flushes {
        store
            .flush_assistant(&id, &turn.partial(total * k / (flushes + 1)))
            .unwrap();
    }
    store.finish_assistant(&id, &turn.record()).unwrap();
}

fn new_conversation(store: &Store, n: usize) -> String {
    store
        .create_conversation(NewConversation {
            title: format!("Conversation {n}"),
            provider: Some(PROVIDER.into()),
            model: Some(MODEL.into()),
            settings: ReasoningSettings {
                choice: Choice::HIGH,
                ..ReasoningSettings::default()
            },
        })
        .unwrap()
        .id
}

struct Built {
    store: Store,
    conversations: Vec<String>,
    /// Bytes of text, thoughts and signatures the history holds (what the user would call
    /// its content), for comparison with the file.
    content_bytes: usize,
    seconds: f64,
}

/// `conversations` × `turns` turns through the public API. `rare` plants the rare words.
fn build(
    path: &Path,
    conversations: usize,
    turns: usize,
    flushes: usize,
    seed: u64,
    rare: bool,
) -> Built {
    let started = Instant::now();
    let store = Store::open(path).unwrap();
    let prose = Prose::new();
    let mut rng = Rng(seed);
    let mut ids = Vec::with_capacity(conversations);
    let mut content_bytes = 0;
    let mut global_turn = 0;
    for c in 0..conversations {
        let id = new_conversation(&store, c);
        for t in 0..turns {
            let mut turn = Turn::generate(&prose, &mut rng, t);
            if rare && global_turn % TEXT_RARE_EVERY == TEXT_RARE_EVERY / 2 {
                turn.answer
                    .push_str(&format!(" The {TEXT_RARE} is the answer."));
            }
            if rare && global_turn % THOUGHT_RARE_EVERY == THOUGHT_RARE_EVERY / 2 {
                turn.thinking
                    .push_str(&format!(" Maybe something {THOUGHT_RARE} here."));
            }
            content_bytes += turn.question.len()
                + turn.thinking.len()
                + turn.signature.len()
                + turn.answer.len();
            write_turn(&store, &id, &turn, flushes);
            global_turn += 1;
        }
        ids.push(id);
    }
    Built {
        store,
        conversations: ids,
        content_bytes,
        seconds: started.elapsed().as_secs_f64(),
    }
}

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
