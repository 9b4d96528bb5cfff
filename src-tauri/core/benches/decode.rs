//! Decoding and mapping throughput: one real recording per protocol, its delta events repeated
//! until the body is about 50 MB, fed in network-sized chunks through the framing, the
//! protocol's event mapper and the draft, the whole path a real stream takes.
//!
//! Run with `cargo bench -p ponder-core --bench decode`. Criterion reports bytes per second;
//! after each protocol one more line gives MB/s (decimal) and wire events per second from a
//! single timed pass, so CI logs show both.

use std::hint::black_box;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode, Throughput, criterion_group, criterion_main};
use ponder_core::chat::{ChatEvent, Origin};
use ponder_core::draft::{Draft, Turn};
use ponder_core::providers::stream::{Mapper, StreamDecoder, join_deltas};
use ponder_core::providers::{anthropic, gemini, ollama, openai_chat, openai_responses};

/// The size a stream is grown to.
const TARGET_BYTES: usize = 50_000_000;
/// What one network read typically hands over.
const CHUNK_BYTES: usize = 16 * 1024;

const PROVIDER: &str = "bench";
const MODEL: &str = "recorded";

#[derive(Debug, Clone, Copy)]
enum Protocol {
    Anthropic,
    Chat,
    Responses,
    Gemini,
    Ollama,
}

impl Protocol {
    const ALL: [Self; 5] = [
        Self::Anthropic,
        Self::Chat,
        Self::Responses,
        Self::Gemini,
        Self::Ollama,
    ];

    fn name(self) -> &'static str {
        match self {
            Self::Anthropic => "anthropic",
            Self::Chat => "openai_chat",
            Self::Responses => "openai_responses",
            Self::Gemini => "gemini",
            Self::Ollama => "ollama",
        }
    }

    fn fixture(self) -> &'static str {
        match self {
            Self::Anthropic => "anthropic/pydantic-sonnet4-thinking-stream.sse",
            Self::Chat => "deepseek/pydantic-deepseek-reasoner-stream.sse",
            Self::Responses => "openai/pydantic-responses-o3-mini-reasoning-summary-stream.sse",
            Self::Gemini => "google/pydantic-gemini25-pro-thought-parts-stream.sse",
            Self::Ollama => "ollama/attogram-ollama-generate-gpt-oss-120b-thinking-stream.ndjson",
        }
    }

    /// Built as `providers::mapper_for` builds it.
    fn mapper(self) -> Mapper {
        match self {
            Self::Anthropic => Mapper::Anthropic(anthropic::EventMapper::new(PROVIDER, MODEL)),
            Self::Chat => Mapper::OpenaiChat(openai_chat::EventMapper::new(
                PROVIDER,
                MODEL,
                openai_chat::InlineThoughts::Tagged,
            )),
            Self::Responses => {
                Mapper::OpenaiResponses(openai_responses::EventMapper::new(PROVIDER, MODEL))
            }
            Self::Gemini => Mapper::Gemini(gemini::EventMapper::new(PROVIDER, MODEL)),
            Self::Ollama => Mapper::Ollama(ollama::EventMapper::new(PROVIDER, MODEL)),
        }
    }

    /// Which run of repeatable events a wire event belongs to, or `None` for one that must
    /// appear exactly once (starts, stops, signatures, usage, the end of the stream).
    /// Repeating each run in place keeps one long thinking block followed by one long answer,
    /// as a long real response has, instead of alternating between them.
    fn run_of(self, event: &str) -> Option<&'static str> {
        match self {
            Self::Anthropic => {
                if event.contains("\"thinking_delta\"") {
                    Some("thinking")
                } else if event.contains("\"text_delta\"") {
                    Some("text")
                } else {
                    None
                }
            }
            Self::Chat => {
                if event.contains("\"role\"") || !event.contains("\"finish_reason\":null") {
                    None
                } else if event.contains("\"reasoning_content\":\"") {
                    Some("reasoning")
                } else if event.contains("\"content\":\"") {
                    Some("content")
                } else {
                    None
                }
            }
            Self::Responses => {
                if event.contains("\"type\":\"response.reasoning_summary_text.delta\"") {
                    Some("summary")
                } else if event.contains("\"type\":\"response.output_text.delta\"") {
                    Some("text")
                } else {
                    None
                }
            }
            Self::Gemini => {
                if event.contains("thoughtSignature") || event.contains("finishReason") {
                    None
                } else if event.contains("\"thought\": true") {
                    Some("thought")
                } else {
                    Some("text")
                }
            }
            Self::Ollama => {
                if event.contains("\"done\":true") {
                    None
                } else if event.contains("\"thinking\":\"") {
                    Some("thinking")
                } else if event.contains("\"response\":\"\"") {
                    None
                } else {
                    Some("response")
                }
            }
        }
    }
}

/// A recording grown to about `TARGET_BYTES`.
struct Body {
    bytes: Vec<u8>,
    /// SSE events or NDJSON lines in it.
    wire_events: usize,
}

/// Splits a recording into whole wire events, each with its own terminator.
fn split_events(protocol: Protocol, text: &str) -> Vec<&str> {
    let separator = match protocol {
        Protocol::Ollama => "\n",
        _ if text.contains("\r\n\r\n") => "\r\n\r\n",
        _ => "\n\n",
    };
    let mut events = Vec::new();
    let mut rest = text;
    while let Some(end) = rest.find(separator) {
        let (event, after) = rest.split_at(end + separator.len());
        if !event.trim().is_empty() {
            events.push(event);
        }
        rest = after;
    }
    assert!(
        rest.trim().is_empty(),
        "{}: unterminated last event",
        protocol.fixture()
    );
    events
}

fn grow(protocol: Protocol) -> Body {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/fixtures/real")
        .join(protocol.fixture());
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let events = split_events(protocol, &text);

    // Runs of consecutive events of the same kind, and the events kept once.
    let mut pieces: Vec<(Option<&str>, Vec<&str>)> = Vec::new();
    for event in events {
        let run = protocol.run_of(event);
        match pieces.last_mut() {
            Some((last, members)) if run.is_some() && *last == run => members.push(event),
            _ => pieces.push((run, vec![event])),
        }
    }
    let size = |members: &[&str]| members.iter().map(|e| e.len()).sum::<usize>();
    let fixed: usize = pieces
        .iter()
        .filter(|(run, _)| run.is_none())
        .map(|(_, m)| size(m))
        .sum();
    let repeatable: usize = pieces
        .iter()
        .filter(|(run, _)| run.is_some())
        .map(|(_, m)| size(m))
        .sum();
    assert!(repeatable > 0, "{}: nothing to repeat", protocol.fixture());
    let times = TARGET_BYTES.saturating_sub(fixed).div_ceil(repeatable);

    let mut bytes = Vec::with_capacity(fixed + repeatable * times);
    let mut wire_events = 0;
    for (run, members) in &pieces {
        let copies = if run.is_some() { times } else { 1 };
        for _ in 0..copies {
            for event in members {
                bytes.extend_from_slice(event.as_bytes());
            }
        }
        wire_events += members.len() * copies;
    }
    Body { bytes, wire_events }
}

/// What one pass produced, to check the stream decoded cleanly.
struct Pass {
    turn: Turn,
    chat_events: usize,
    errors: usize,
    completed: bool,
}

/// The stream as `run::run_turn` handles it: chunks fed to the decoder, the deltas of each
/// joined, its events through the draft, the normalised events handed on.
fn decode(protocol: Protocol, body: &[u8]) -> Pass {
    let mut decoder = StreamDecoder::new(protocol.mapper());
    let origin = Origin {
        provider: PROVIDER.into(),
        model: MODEL.into(),
    };
    let mut draft = Draft::new(origin, decoder.mapper().default_source());
    let mut raw = Vec::new();
    let mut normalised = Vec::new();
    let mut chat_events = 0;
    let mut errors = 0;
    let mut forward = |draft: &mut Draft, raw: &mut Vec<ChatEvent>, elapsed_ms: u64| {
        errors += raw
            .iter()
            .filter(|e| matches!(e, ChatEvent::Error(_)))
            .count();
        for event in raw.drain(..) {
            draft.apply(event, elapsed_ms, &mut normalised);
        }
        chat_events += normalised.len();
        for event in normalised.drain(..) {
            black_box(event);
        }
    };
    let mut elapsed_ms = 0;
    for chunk in body.chunks(CHUNK_BYTES) {
        decoder.feed(chunk, &mut raw);
        join_deltas(&mut raw);
        forward(&mut draft, &mut raw, elapsed_ms);
        elapsed_ms += 1;
    }
    let replay = decoder.finish(&mut raw);
    forward(&mut draft, &mut raw, elapsed_ms);
    let completed = decoder.completed();
    let (turn, tail) = draft.finish(elapsed_ms, replay);
    Pass {
        turn,
        chat_events: chat_events + tail.len(),
        errors,
        completed,
    }
}

/// One pass, checking that the grown stream decodes without an error and ends as a complete
/// answer with both thoughts and text; returns how many events the draft handed on.
fn check(protocol: Protocol, body: &Body) -> usize {
    let name = protocol.name();
    let pass = decode(protocol, &body.bytes);
    assert_eq!(pass.errors, 0, "{name}: the mapper reported errors");
    assert!(pass.completed, "{name}: the stream did not complete");
    assert!(pass.turn.error.is_none(), "{name}: {:?}", pass.turn.error);
    assert!(pass.turn.stop.is_some(), "{name}: no stop reason");
    assert!(
        !pass.turn.message.text().is_empty(),
        "{name}: no answer text"
    );
    assert!(
        pass.turn.message.thinking().next().is_some(),
        "{name}: no thinking"
    );
    pass.chat_events
}

fn bench_decode(c: &mut Criterion) {
    let mut group = c.benchmark_group("decode");
    // A pass takes a fraction of a second: few samples of a few passes each.
    group
        .sampling_mode(SamplingMode::Flat)
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(5));
    for protocol in Protocol::ALL {
        let body = grow(protocol);
        let name = protocol.name();

        group.throughput(Throughput::Bytes(body.bytes.len() as u64));
        // Criterion calls the routine only when the benchmark is selected, so the check runs
        // (once) for a selected one only.
        let mut chat_events = None;
        group.bench_function(name, |b| {
            if chat_events.is_none() {
                chat_events = Some(check(protocol, &body));
            }
            b.iter(|| decode(protocol, black_box(&body.bytes)));
        });
        let Some(chat_events) = chat_events else {
            continue;
        };

        // Criterion gives one throughput; one more pass, timed by hand, gives both.
        let started = Instant::now();
        black_box(decode(protocol, black_box(&body.bytes)));
        let seconds = started.elapsed().as_secs_f64();
        let megabytes = body.bytes.len() as f64 / 1e6;
        println!(
            "decode/{name}: {:.1} MB/s, {:.2} M events/s ({megabytes:.1} MB, {} events, {chat_events} chat events, {:.0} ms)",
            megabytes / seconds,
            body.wire_events as f64 / seconds / 1e6,
            body.wire_events,
            seconds * 1e3,
        );
    }
    group.finish();
}

criterion_group!(benches, bench_decode);
criterion_main!(benches);
