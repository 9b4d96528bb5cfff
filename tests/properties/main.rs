//! Properties of everything that reads bytes from a provider, over generated input: every
//! event mapper fed arbitrary JSON, garbage bytes and real recordings with parts replaced by
//! hostile values; the retry-hint parser fed arbitrary headers; error bodies of any shape.
//! None may panic, and none may allocate more than its input justifies; and a request with a
//! large file holds its base64 once.
//!
//! The allocator of this binary is capped around each case, so the allocation bound is
//! checked rather than hoped for: a case that asks for more aborts the run with "memory
//! allocation of N bytes failed". The cap is global, so the tests here run one at a time.
//!
//! `PONDER_PROPTEST_CASES` sets the cases per property (10,000 by default).

use std::alloc::System;
use std::sync::{Mutex, MutexGuard};
use std::time::SystemTime;

use cap::Cap;
use ponder_core::chat::ChatEvent;
use ponder_core::providers::error::{
    ErrorKind, MAX_RETRY_HINT, from_status, from_stream_error, parse_retry_after,
};
use ponder_core::providers::stream::StreamDecoder;
use ponder_core::sync::Locked;
use ponder_tests::recordings::{
    Protocol, all_fixtures, frame, is_stream, mapper, payloads, protocol_of, real_dir, wire_bytes,
};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use serde_json::Value;

#[global_allocator]
static ALLOCATOR: Cap<System> = Cap::new(System, usize::MAX);

/// One test at a time: the cap applies to every thread.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL.locked()
}

/// Runs `f` with at most a fixed allowance plus a multiple of the input's size on top of
/// what is allocated now. The multiple is generous (events, the draft, the replay copy
/// the text several times over); what it rules out is growth the input does not pay for.
fn within_budget<T>(input_len: usize, f: impl FnOnce() -> T) -> T {
    const FIXED: usize = 16 << 20;
    within_exactly(FIXED + input_len.saturating_mul(64), f)
}

fn cases() -> u32 {
    std::env::var("PONDER_PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

fn runner() -> TestRunner {
    TestRunner::new(Config {
        cases: cases(),
        failure_persistence: None,
        ..Config::default()
    })
}

const PROTOCOLS: [Protocol; 5] = [
    Protocol::Anthropic,
    Protocol::Chat,
    Protocol::Responses,
    Protocol::Gemini,
    Protocol::Ollama,
];

/// Feeds `bytes` to a fresh decoder of `protocol` and finishes it, within the budget.
fn decode(protocol: Protocol, bytes: &[u8]) -> Vec<ChatEvent> {
    within_budget(bytes.len(), || {
        let mut decoder = StreamDecoder::new(mapper(protocol));
        let mut events = Vec::new();
        decoder.feed(bytes, &mut events);
        decoder.finish(&mut events);
        events
    })
}

/// Any JSON value, with numbers and strings at their extremes.
fn any_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        prop_oneof![Just(1e20), Just(-1e308), Just(f64::MAX), any::<f64>()]
            .prop_filter("JSON has no NaN or infinity", |f| f.is_finite())
            .prop_map(Value::from),
        Just(Value::from(1_000_000_000u64)),
        ".{0,24}".prop_map(Value::String),
        prop_oneof![
            Just("thinking"),
            Just("text"),
            Just("tool_use"),
            Just("message_stop"),
            Just("response.completed"),
            Just("reasoning.encrypted"),
            Just("content_block_delta"),
        ]
        .prop_map(|s| Value::String(s.to_owned())),
    ];
    leaf.prop_recursive(4, 48, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
            prop::collection::vec((".{0,12}", inner.clone()), 0..8)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
            prop::collection::vec(
                (
                    prop_oneof![
                        Just("type"),
                        Just("index"),
                        Just("delta"),
                        Just("choices"),
                        Just("candidates"),
                        Just("tool_calls"),
                        Just("content"),
                        Just("text"),
                        Just("usage"),
                        Just("error"),
                        Just("retryDelay"),
                    ],
                    inner
                ),
                0..6
            )
            .prop_map(|pairs| Value::Object(
                pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect()
            )),
        ]
    })
}

/// Replaces the `n`-th node (in a depth-first walk, modulo their number) of `value`.
fn replace_node(value: &mut Value, n: usize, with: Value) {
    fn count(v: &Value) -> usize {
        1 + match v {
            Value::Array(items) => items.iter().map(count).sum(),
            Value::Object(map) => map.values().map(count).sum(),
            _ => 0,
        }
    }
    fn walk(v: &mut Value, n: &mut usize, with: &mut Option<Value>) {
        if *n == 0 {
            if let Some(with) = with.take() {
                *v = with;
            }
            return;
        }
        *n -= 1;
        match v {
            Value::Array(items) => items.iter_mut().for_each(|i| walk(i, n, with)),
            Value::Object(map) => map.values_mut().for_each(|i| walk(i, n, with)),
            _ => {}
        }
    }
    let mut n = n % count(value);
    walk(value, &mut n, &mut Some(with));
}

/// Numbers a hostile or broken provider might send where a small count is expected.
const HOSTILE_NUMBERS: [i128; 8] = [
    1_000_000_000,
    4_294_967_296,
    9_007_199_254_740_993,
    18_446_744_073_709_551_615,
    -1,
    -9_223_372_036_854_775_808,
    0,
    65_536,
];

/// Replaces about half the numbers in `value` with one of [`HOSTILE_NUMBERS`], chosen by
/// `seed`. Not all of them: a value out of its field's range makes the whole event unreadable,
/// and the interesting cases are events that are read with one hostile count inside.
fn hostile_numbers(value: &mut Value, seed: &mut u64) {
    match value {
        Value::Number(_) => {
            *seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let pick = (*seed >> 33) as usize % (2 * HOSTILE_NUMBERS.len());
            if let Some(n) = HOSTILE_NUMBERS.get(pick) {
                *value = serde_json::from_str(&n.to_string()).unwrap_or(Value::Null);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| hostile_numbers(v, seed)),
        Value::Object(map) => map.values_mut().for_each(|v| hostile_numbers(v, seed)),
        _ => {}
    }
}

struct Recording {
    name: String,
    protocol: Protocol,
    payloads: Vec<String>,
}

fn recordings() -> Vec<Recording> {
    all_fixtures()
        .into_iter()
        .filter(|f| is_stream(f))
        .filter_map(|name| {
            let protocol = protocol_of(&name)?;
            let bytes = wire_bytes(&real_dir().join(&name));
            let payloads = payloads(protocol, &bytes);
            (!payloads.is_empty()).then_some(Recording {
                name,
                protocol,
                payloads,
            })
        })
        .collect()
}

#[test]
fn every_mapper_reads_arbitrary_json_without_panicking_or_overallocating() {
    let _one = serial();
    runner()
        .run(
            &(0..PROTOCOLS.len(), prop::collection::vec(any_json(), 1..6)),
            |(p, values)| {
                let protocol = PROTOCOLS[p];
                let payloads: Vec<String> = values.iter().map(Value::to_string).collect();
                decode(protocol, &frame(protocol, &payloads));
                Ok(())
            },
        )
        .unwrap();
}

#[test]
fn real_recordings_with_hostile_values_in_them_never_panic_or_overallocate() {
    let _one = serial();
    let recordings = recordings();
    assert!(recordings.len() >= 40, "{} recordings", recordings.len());
    let mutation = (any::<prop::sample::Index>(), any::<usize>(), any_json());
    runner()
        .run(
            &(
                any::<prop::sample::Index>(),
                prop::collection::vec(mutation, 1..4),
            ),
            |(which, mutations)| {
                let recording = which.get(&recordings);
                let mut payloads = recording.payloads.clone();
                for (event, node, with) in mutations {
                    let at = event.index(payloads.len());
                    let Ok(mut value) = serde_json::from_str::<Value>(&payloads[at]) else {
                        continue;
                    };
                    replace_node(&mut value, node, with);
                    payloads[at] = value.to_string();
                }
                let events = decode(recording.protocol, &frame(recording.protocol, &payloads));
                // Whatever the values, errors that come out are typed.
                for event in &events {
                    if let ChatEvent::Error(error) = event {
                        prop_assert!(!error.message.is_empty(), "{}", recording.name);
                    }
                }
                Ok(())
            },
        )
        .unwrap();
}

#[test]
fn real_recordings_with_hostile_numbers_never_overallocate() {
    let _one = serial();
    let recordings = recordings();
    runner()
        .run(
            &(any::<prop::sample::Index>(), any::<u64>()),
            |(which, seed)| {
                let recording = which.get(&recordings);
                let mut seed = seed;
                let payloads: Vec<String> = recording
                    .payloads
                    .iter()
                    .map(|p| match serde_json::from_str::<Value>(p) {
                        Ok(mut value) => {
                            hostile_numbers(&mut value, &mut seed);
                            value.to_string()
                        }
                        Err(_) => p.clone(),
                    })
                    .collect();
                let events = decode(recording.protocol, &frame(recording.protocol, &payloads));
                for event in &events {
                    if let ChatEvent::Error(error) = event {
                        prop_assert!(!error.message.is_empty(), "{}", recording.name);
                    }
                }
                Ok(())
            },
        )
        .unwrap();
}

/// Event shapes of each protocol with holes: `"#n"` takes a number, `"#s"` a string. Filled
/// with hostile values they reach the fields that size or index things (content block and
/// tool-call indexes, output and summary indexes, token counts), which random JSON and the
/// recordings (none streams a tool call) rarely do.
const SHAPES: &[(Protocol, &str)] = &[
    (
        Protocol::Chat,
        r##"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":"#n","id":"#s","type":"function","function":{"name":"#s","arguments":"#s"}}]},"finish_reason":null}]}"##,
    ),
    (
        Protocol::Chat,
        r##"{"choices":[{"index":0,"delta":{"reasoning_content":"#s","reasoning_details":[{"type":"reasoning.text","index":"#n","text":"#s"}]}}],"usage":{"prompt_tokens":"#n","completion_tokens":"#n","completion_tokens_details":{"reasoning_tokens":"#n"}}}"##,
    ),
    (
        Protocol::Anthropic,
        r##"{"type":"content_block_start","index":"#n","content_block":{"type":"thinking","thinking":"#s"}}"##,
    ),
    (
        Protocol::Anthropic,
        r##"{"type":"content_block_delta","index":"#n","delta":{"type":"input_json_delta","partial_json":"#s"}}"##,
    ),
    (
        Protocol::Anthropic,
        r##"{"type":"message_delta","delta":{"stop_reason":"#s"},"usage":{"output_tokens":"#n","input_tokens":"#n"}}"##,
    ),
    (
        Protocol::Responses,
        r##"{"type":"response.reasoning_summary_part.added","output_index":"#n","summary_index":"#n","item_id":"#s"}"##,
    ),
    (
        Protocol::Responses,
        r##"{"type":"response.output_item.added","output_index":"#n","item":{"type":"function_call","id":"#s","call_id":"#s","name":"#s","arguments":"#s"}}"##,
    ),
    (
        Protocol::Responses,
        r##"{"type":"response.function_call_arguments.delta","output_index":"#n","item_id":"#s","delta":"#s"}"##,
    ),
    (
        Protocol::Gemini,
        r##"{"candidates":[{"index":"#n","content":{"role":"model","parts":[{"text":"#s","thought":true,"thoughtSignature":"#s"},{"functionCall":{"name":"#s","args":{}}}]}}],"usageMetadata":{"promptTokenCount":"#n","thoughtsTokenCount":"#n"}}"##,
    ),
    (
        Protocol::Ollama,
        r##"{"model":"#s","message":{"role":"assistant","content":"#s","thinking":"#s","tool_calls":[{"function":{"index":"#n","name":"#s","arguments":{}}}]},"done":false,"eval_count":"#n"}"##,
    ),
];

/// Fills the holes of a shape with values taken in turn from `numbers` and `strings`.
fn fill(shape: &Value, numbers: &[i128], strings: &[String], at: &mut usize) -> Value {
    match shape {
        Value::String(hole) if hole == "#n" || hole == "#s" => {
            *at += 1;
            if hole == "#n" {
                let n = numbers[*at % numbers.len()];
                serde_json::from_str(&n.to_string()).unwrap_or(Value::Null)
            } else {
                Value::String(strings[*at % strings.len()].clone())
            }
        }
        Value::Array(items) => Value::Array(
            items
                .iter()
                .map(|v| fill(v, numbers, strings, at))
                .collect(),
        ),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), fill(v, numbers, strings, at)))
                .collect(),
        ),
        other => other.clone(),
    }
}

#[test]
fn event_shapes_with_hostile_counts_and_indexes_never_overallocate() {
    let _one = serial();
    let shapes: Vec<(Protocol, Value)> = SHAPES
        .iter()
        .map(|(p, json)| (*p, serde_json::from_str(json).expect("a valid shape")))
        .collect();
    let number = prop_oneof![
        prop::sample::select(HOSTILE_NUMBERS.to_vec()),
        any::<u32>().prop_map(i128::from),
        any::<u64>().prop_map(i128::from),
    ];
    runner()
        .run(
            &(
                prop::collection::vec(any::<prop::sample::Index>(), 1..6),
                prop::collection::vec(number, 1..8),
                prop::collection::vec(".{0,16}", 1..4),
            ),
            |(picks, numbers, strings)| {
                // Several events of one protocol, as a stream would bring them.
                let protocol = picks[0].get(&shapes).0;
                let of_protocol: Vec<&Value> = shapes
                    .iter()
                    .filter(|(p, _)| *p == protocol)
                    .map(|(_, v)| v)
                    .collect();
                let mut at = 0;
                let payloads: Vec<String> = picks
                    .iter()
                    .map(|pick| {
                        fill(
                            of_protocol[pick.index(of_protocol.len())],
                            &numbers,
                            &strings,
                            &mut at,
                        )
                        .to_string()
                    })
                    .collect();
                decode(protocol, &frame(protocol, &payloads));
                Ok(())
            },
        )
        .unwrap();
}

#[test]
fn data_that_is_not_json_ends_in_a_decode_error_for_every_protocol() {
    let _one = serial();
    runner()
        .run(&(0..PROTOCOLS.len(), "[^\\n\\r]{1,80}"), |(p, text)| {
            let protocol = PROTOCOLS[p];
            prop_assume!(serde_json::from_str::<Value>(&text).is_err());
            prop_assume!(text.trim() != "[DONE]" && !text.trim().is_empty());
            let events = decode(protocol, &frame(protocol, std::slice::from_ref(&text)));
            let decode_error = events
                .iter()
                .any(|e| matches!(e, ChatEvent::Error(err) if err.kind == ErrorKind::Decode));
            prop_assert!(decode_error, "{protocol:?} {text:?}: {events:?}");
            Ok(())
        })
        .unwrap();
}

#[test]
fn garbage_bytes_never_panic_any_decoder() {
    let _one = serial();
    runner()
        .run(
            &(
                0..PROTOCOLS.len(),
                prop::collection::vec(any::<u8>(), 0..1500),
            ),
            |(p, bytes)| {
                decode(PROTOCOLS[p], &bytes);
                Ok(())
            },
        )
        .unwrap();
}

#[test]
fn retry_hints_of_any_shape_are_bounded_and_never_panic() {
    let _one = serial();
    let header = prop_oneof![
        ".{0,40}",
        any::<f64>().prop_map(|f| f.to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
        "[A-Z][a-z]{2}, [0-9]{1,20} [A-Z][a-z]{2} [0-9]{1,20} [0-9]{1,3}:[0-9]{1,3}:[0-9]{1,3} GMT",
        "[0-9]{1,30}(\\.[0-9]{1,10})?(e[0-9]{1,3})?",
    ];
    let now = SystemTime::now();
    runner()
        .run(
            &(
                prop::option::of(header.clone()),
                prop::option::of(header),
                any::<u16>(),
                any_json(),
            ),
            |(after, after_ms, status, body)| {
                let wait = within_budget(256, || {
                    parse_retry_after(after.as_deref(), after_ms.as_deref(), now)
                });
                prop_assert!(wait.is_none_or(|w| w <= MAX_RETRY_HINT));
                let bytes = body.to_string().into_bytes();
                let error =
                    within_budget(bytes.len(), || from_status("fuzz", status, wait, &bytes));
                prop_assert!(!error.message.is_empty());
                prop_assert!(error.retry_after.is_none_or(|w| w <= MAX_RETRY_HINT));
                let error = within_budget(bytes.len(), || from_stream_error("fuzz", &body));
                prop_assert!(!error.message.is_empty());
                prop_assert!(error.retry_after.is_none_or(|w| w <= MAX_RETRY_HINT));
                Ok(())
            },
        )
        .unwrap();
}

/// Any bytes, and real exports with one value replaced: reading an import never panics and
/// says why it refuses; what it accepts imports into a fresh history or is refused there
/// with a message, all or nothing.
#[test]
fn import_never_panics_on_any_file_and_says_why_it_refuses() {
    use ponder_core::import;
    use ponder_core::store::Store;
    let _one = serial();
    let valid: Value = serde_json::from_str(&ponder_tests::sample_export()).unwrap();
    runner()
        .run(
            &(
                prop::collection::vec(any::<u8>(), 0..64),
                any::<usize>(),
                any_json(),
            ),
            |(bytes, node, with)| {
                if let Err(err) = within_budget(bytes.len(), || import::parse(&bytes)) {
                    prop_assert!(!err.to_string().is_empty());
                }
                let mut value = valid.clone();
                replace_node(&mut value, node, with);
                let text = value.to_string();
                match within_budget(text.len(), || import::parse(text.as_bytes())) {
                    Err(err) => prop_assert!(!err.to_string().is_empty()),
                    Ok(_) => {
                        let store = Store::open_in_memory().unwrap();
                        if let Err(err) = import::import(&store, text.as_bytes()) {
                            prop_assert!(!err.to_string().is_empty());
                            prop_assert_eq!(store.list_conversations(true).unwrap().len(), 0);
                        }
                    }
                }
                Ok(())
            },
        )
        .unwrap();
}

/// Sending a large file makes one base64 copy of it: the one in the body. The allocator
/// leaves room for that copy and a little JSON around it, so a second copy (a string in the
/// JSON tree, a `data:` URL) would abort the run instead of passing unseen.
#[test]
fn a_large_file_is_in_base64_once_while_its_request_is_written() {
    use ponder_core::attachments::Kind;
    use ponder_core::catalog::Catalog;
    use ponder_core::chat::{Attachment, Message, Part, Payload};
    use ponder_core::reasoning::{ApiChoice, Choice, Overrides, ReasoningSettings};
    use ponder_core::run::{TurnRequest, prepare};

    let _serial = serial();
    const SIZE: usize = 20 << 20;
    let bytes: std::sync::Arc<[u8]> = (0..SIZE).map(|i| (i * 7 % 251) as u8).collect();
    let mut question = Message::user("What is in this?");
    question.parts.insert(
        0,
        Part::Attachment(Attachment {
            sha256: "ab".repeat(32),
            kind: Kind::Png,
            name: "big.png".into(),
            bytes: SIZE as u64,
            pages: None,
            pixels: Some((1000, 1000)),
            data: Some(Payload::Bytes(bytes)),
        }),
    );
    let history = [question];
    let base64 = SIZE.div_ceil(3) * 4;
    let overrides = Overrides::default();
    let settings = ReasoningSettings::default();
    for (provider, model, api) in [
        ("anthropic", "claude-sonnet-4-5", None),
        ("openai", "o3", None),
        ("openai", "o3", Some(ApiChoice::Chat)),
        ("google", "gemini-2.5-pro", None),
        ("ollama", "qwen3:8b", None),
    ] {
        let model = Catalog::builtin().resolve(Some(provider), model).unwrap();
        let request = TurnRequest {
            model: &model,
            choice: Choice::MEDIUM,
            overrides: &overrides,
            settings: &settings,
            system: None,
            history: &history,
            base_url: None,
            api,
            api_key: Some("test-key-not-real"),
            context_tokens: 0,
            tools: &[],
            renew_key: None,
        };
        let prepared = within_exactly(base64 + (2 << 20), || prepare(&request).unwrap());
        let body = &prepared.http.body;
        assert!(
            body.len() > base64 && body.len() < base64 + 4096,
            "{provider}: {} bytes",
            body.len()
        );
    }
}

/// Runs `f` with `room` bytes on top of what is allocated now.
fn within_exactly<T>(room: usize, f: impl FnOnce() -> T) -> T {
    /// Lifts the limit however `f` ends: a panic must be reported (and shrunk) with memory
    /// to spare, not abort for want of it.
    struct Lift;
    impl Drop for Lift {
        fn drop(&mut self) {
            let _ = ALLOCATOR.set_limit(usize::MAX);
        }
    }
    ALLOCATOR
        .set_limit(ALLOCATOR.allocated().saturating_add(room))
        .expect("the limit is above what is allocated");
    let _lift = Lift;
    f()
}
