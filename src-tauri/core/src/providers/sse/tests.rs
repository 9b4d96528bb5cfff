use std::path::{Path, PathBuf};

use super::*;

fn decode_chunks(chunks: &[&[u8]]) -> Vec<SseEvent> {
    let mut decoder = SseDecoder::new();
    let mut out = Vec::new();
    for chunk in chunks {
        decoder.feed(chunk, &mut out);
    }
    decoder.finish(&mut out);
    out
}

fn decode_whole(bytes: &[u8]) -> Vec<SseEvent> {
    decode_chunks(&[bytes])
}

fn data(text: &str) -> SseEvent {
    SseEvent {
        data: text.to_owned(),
        ..SseEvent::default()
    }
}

fn named(event: &str, text: &str) -> SseEvent {
    SseEvent {
        event: Some(event.to_owned()),
        ..data(text)
    }
}

fn with_id(id: &str, text: &str) -> SseEvent {
    SseEvent {
        id: Some(id.to_owned()),
        ..data(text)
    }
}

/// Inputs up to this size are split literally; see `assert_every_split_decodes_to`.
const LITERAL_SPLIT_LIMIT: usize = 8 * 1024;

/// Checks that `bytes` decodes to `expected` fed whole, a byte at a time, and cut in two
/// at every offset.
fn assert_any_chunking_decodes_to(bytes: &[u8], expected: &[SseEvent]) {
    assert_eq!(decode_whole(bytes), expected, "fed whole");
    let one_by_one: Vec<&[u8]> = bytes.chunks(1).collect();
    assert_eq!(decode_chunks(&one_by_one), expected, "fed a byte at a time");
    assert_every_split_decodes_to(bytes, expected);
}

/// Cuts `bytes` in two at every offset. Decoding the whole input once per offset is
/// quadratic: for the 190 KB fixture that is minutes in a debug build. So larger inputs are
/// cut inside a window of whole events around each offset — the event before, the one
/// holding the cut, the one after — which is a real slice of the stream beginning and
/// ending on event boundaries, checked against the events of the whole-stream decode.
/// This is exact as long as no `id:` field carries state from before the window.
fn assert_every_split_decodes_to(bytes: &[u8], expected: &[SseEvent]) {
    if bytes.len() <= LITERAL_SPLIT_LIMIT {
        assert_splits_of_window(bytes, 0..bytes.len() + 1, expected);
        return;
    }
    assert!(
        expected.iter().all(|e| e.id.is_none()),
        "windows would lose ids"
    );
    let starts = block_starts(bytes);
    for block in 0..starts.len() - 1 {
        let first = block.saturating_sub(1);
        let last = (block + 2).min(starts.len() - 1);
        let window = starts[first]..starts[last];
        let events = &expected[first.min(expected.len())..last.min(expected.len())];
        let cuts = starts[block] - window.start..starts[block + 1] - window.start;
        assert_splits_of_window(&bytes[window], cuts, events);
    }
}

fn assert_splits_of_window(bytes: &[u8], cuts: std::ops::Range<usize>, expected: &[SseEvent]) {
    let mut out = Vec::with_capacity(expected.len());
    for cut in cuts {
        let (head, tail) = bytes.split_at(cut);
        let mut decoder = SseDecoder::new();
        out.clear();
        decoder.feed(head, &mut out);
        decoder.feed(tail, &mut out);
        decoder.finish(&mut out);
        assert_eq!(out, expected, "cut at byte {cut}");
    }
}

/// Where each event's text begins: 0, then just past every blank line that dispatched an
/// event (including the `\n` of a CRLF), then the end of the input. Event k is dispatched
/// inside block k.
fn block_starts(bytes: &[u8]) -> Vec<usize> {
    let mut decoder = SseDecoder::new();
    let mut out = Vec::new();
    let mut starts = vec![0];
    for (i, byte) in bytes.iter().enumerate() {
        let before = out.len();
        decoder.feed(std::slice::from_ref(byte), &mut out);
        if out.len() > before {
            let crlf = *byte == b'\r' && bytes.get(i + 1) == Some(&b'\n');
            starts.push(i + 1 + usize::from(crlf));
        }
    }
    if starts.last() != Some(&bytes.len()) {
        starts.push(bytes.len());
    }
    starts
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/real")
}

fn files_ending_in(dir: &Path, suffix: &str, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            files_ending_in(&path, suffix, found);
        } else if path.to_string_lossy().ends_with(suffix) {
            found.push(path);
        }
    }
}

fn sse_fixtures() -> Vec<(PathBuf, Vec<u8>)> {
    let mut paths = Vec::new();
    files_ending_in(&fixtures_dir(), ".sse", &mut paths);
    assert!(paths.len() >= 20, "expected the recorded .sse fixtures");
    paths
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).expect("fixture");
            (path, bytes)
        })
        .collect()
}

/// An independent reading of the fixtures, which have exactly one `data:` line per event:
/// each `data: ` line is an event, named by the `event:` line before it.
fn naive_events(text: &str) -> Vec<SseEvent> {
    let mut events = Vec::new();
    let mut name = None;
    for line in text.lines() {
        if let Some(value) = line.strip_prefix("event: ") {
            name = Some(value.to_owned());
        } else if let Some(value) = line.strip_prefix("data: ") {
            events.push(SseEvent {
                event: name.take(),
                ..data(value)
            });
        }
    }
    events
}

#[test]
fn every_sse_fixture_decodes_the_same_however_it_is_chunked() {
    for (path, bytes) in sse_fixtures() {
        let expected = decode_whole(&bytes);
        assert!(!expected.is_empty(), "{}", path.display());
        assert_any_chunking_decodes_to(&bytes, &expected);
    }
}

#[test]
fn every_sse_fixture_yields_each_data_line_verbatim_as_one_event() {
    for (path, bytes) in sse_fixtures() {
        let text = std::str::from_utf8(&bytes).expect("fixtures are UTF-8");
        assert_eq!(
            decode_whole(&bytes),
            naive_events(text),
            "{}",
            path.display()
        );
    }
}

#[test]
fn every_sse_fixture_event_is_json_or_done_and_named_after_its_type() {
    for (path, bytes) in sse_fixtures() {
        for event in decode_whole(&bytes) {
            assert!(!event.data.contains('\r'), "{}", path.display());
            if event.is_done() {
                continue;
            }
            let json: serde_json::Value = serde_json::from_str(&event.data)
                .unwrap_or_else(|e| panic!("{}: {e}: {}", path.display(), event.data));
            if let Some(name) = &event.event {
                assert_eq!(json["type"], name.as_str(), "{}", path.display());
            }
        }
    }
}

#[test]
fn anthropic_whitespace_padding_inside_data_is_kept() {
    let path = fixtures_dir().join("anthropic/pydantic-sonnet45-redacted-thinking-stream.sse");
    let events = decode_whole(&std::fs::read(path).expect("fixture"));
    assert!(events[0].data.ends_with("}}    }"), "{}", events[0].data);
    assert!(events.iter().any(|e| e.data.ends_with(r#""index":0  }"#)));
}

#[test]
fn gemini_crlf_fixture_splits_into_its_events_without_stray_carriage_returns() {
    let path = fixtures_dir().join("google/genai-gemini25-flash-thought-parts-stream.sse");
    let events = decode_whole(&std::fs::read(path).expect("fixture"));
    assert_eq!(events.len(), 6);
    assert!(
        events
            .iter()
            .all(|e| e.event.is_none() && !e.data.contains('\r'))
    );
}

#[test]
fn openrouter_comment_lines_produce_no_events_and_done_passes_through() {
    let path = fixtures_dir()
        .join("openrouter/pydantic-openrouter-minimax-m2-reasoning-midstream-error-stream.sse");
    let events = decode_whole(&std::fs::read(path).expect("fixture"));
    assert_eq!(events.len(), 5);
    assert!(
        events
            .iter()
            .all(|e| !e.data.contains("OPENROUTER PROCESSING"))
    );
    assert!(events.last().is_some_and(SseEvent::is_done));
    assert_eq!(events.iter().filter(|e| e.is_done()).count(), 1);
}

#[test]
fn lf_crlf_and_lone_cr_line_ends_mix_freely() {
    assert_any_chunking_decodes_to(
        b"data: a\r\n\r\ndata: b\n\ndata: c\r\rdata: d\r\ndata: e\n\r\n",
        &[data("a"), data("b"), data("c"), data("d\ne")],
    );
}

#[test]
fn cr_ending_one_chunk_and_lf_starting_the_next_are_one_line_end() {
    // Read as two line ends, the CR LF pairs would be blank lines that dispatch early.
    let chunks: [&[u8]; 5] = [b"data: a\r", b"\ndata: b\r", b"", b"\n\r", b"\n"];
    assert_eq!(decode_chunks(&chunks), [data("a\nb")]);
}

#[test]
fn cr_ending_a_chunk_followed_by_text_is_a_line_end_on_its_own() {
    let chunks: [&[u8]; 3] = [b"data: a\r", b"data: b\r", b"\r"];
    assert_eq!(decode_chunks(&chunks), [data("a\nb")]);
}

#[test]
fn data_lines_are_joined_with_newlines() {
    assert_any_chunking_decodes_to(
        b"data: {\ndata:   \"a\": 1\ndata: }\n\n",
        &[data("{\n  \"a\": 1\n}")],
    );
}

#[test]
fn only_one_space_after_the_colon_is_removed_and_trailing_space_is_kept() {
    assert_any_chunking_decodes_to(
        b"data:  two\n\ndata:none\n\ndata: {\"type\": \"ping\"}          \n\n",
        &[
            data(" two"),
            data("none"),
            data("{\"type\": \"ping\"}          "),
        ],
    );
}

#[test]
fn colons_after_the_first_belong_to_the_value() {
    assert_any_chunking_decodes_to(b"data: a: b:c\n\n", &[data("a: b:c")]);
}

#[test]
fn comment_lines_are_ignored_even_between_data_lines() {
    assert_any_chunking_decodes_to(
        b": keep-alive\n\ndata: a\n: OPENROUTER PROCESSING\ndata: b\n:\n\n",
        &[data("a\nb")],
    );
}

#[test]
fn event_names_apply_to_one_event_only() {
    assert_any_chunking_decodes_to(
        b"event: ping\ndata: {}\n\ndata: plain\n\nevent: a\nevent: b\ndata: last wins\n\n",
        &[named("ping", "{}"), data("plain"), named("b", "last wins")],
    );
}

#[test]
fn an_event_name_without_data_is_dropped_and_does_not_leak() {
    assert_any_chunking_decodes_to(b"event: lonely\n\ndata: next\n\n", &[data("next")]);
}

#[test]
fn an_empty_event_name_means_the_default_type() {
    assert_any_chunking_decodes_to(b"event:\ndata: x\n\n", &[data("x")]);
}

#[test]
fn a_final_event_without_blank_line_is_dispatched_by_finish() {
    assert_any_chunking_decodes_to(b"data: a\n\ndata: b", &[data("a"), data("b")]);
    assert_any_chunking_decodes_to(b"data: a\ndata: b\n", &[data("a\nb")]);
    assert_any_chunking_decodes_to(b"data: a\r", &[data("a")]);
}

#[test]
fn nothing_is_dispatched_before_the_blank_line_arrives() {
    let mut decoder = SseDecoder::new();
    let mut out = Vec::new();
    decoder.feed(b"data: a\n", &mut out);
    assert!(out.is_empty());
    decoder.feed(b"\n", &mut out);
    assert_eq!(out, [data("a")]);
}

#[test]
fn finish_without_pending_input_dispatches_nothing() {
    assert_any_chunking_decodes_to(b"", &[]);
    assert_any_chunking_decodes_to(b"data: a\n\n", &[data("a")]);
    assert_any_chunking_decodes_to(b"event: x\n: only a comment", &[]);
}

#[test]
fn decoder_starts_over_after_finish() {
    let mut decoder = SseDecoder::new();
    let mut out = Vec::new();
    decoder.feed(b"id: 1\nevent: x\ndata: partial\r", &mut out);
    decoder.finish(&mut out);
    decoder.feed(b"\ndata: fresh\n\n", &mut out);
    assert_eq!(
        out,
        [
            SseEvent {
                event: Some("x".to_owned()),
                data: "partial".to_owned(),
                id: Some("1".to_owned()),
            },
            data("fresh"),
        ]
    );
}

#[test]
fn a_byte_order_mark_at_the_start_is_skipped() {
    assert_any_chunking_decodes_to(b"\xEF\xBB\xBFdata: a\n\n", &[data("a")]);
    assert_any_chunking_decodes_to(b"\xEF\xBB\xBF", &[]);
}

#[test]
fn only_the_first_byte_order_mark_is_skipped() {
    // The second one makes the field name "\u{FEFF}data", which is unknown.
    assert_any_chunking_decodes_to(b"\xEF\xBB\xBF\xEF\xBB\xBFdata: a\n\n", &[]);
    assert_any_chunking_decodes_to(b"data: \xEF\xBB\xBFa\n\n", &[data("\u{FEFF}a")]);
}

#[test]
fn bytes_that_only_begin_like_a_byte_order_mark_stay_in_the_line() {
    assert_any_chunking_decodes_to(b"\xEF\xBB\ndata: a\n\n", &[data("a")]);
    assert_any_chunking_decodes_to(b"\xEF\xBB", &[]);
    assert_any_chunking_decodes_to(b"\xEF\n\ndata: a\n\n", &[data("a")]);
}

#[test]
fn a_four_byte_character_split_at_any_offset_comes_out_whole() {
    let input = "data: 🤔 x\n\n".as_bytes();
    let emoji_at = 6;
    for first in emoji_at..=emoji_at + 4 {
        for second in first..=emoji_at + 4 {
            let chunks = [&input[..first], &input[first..second], &input[second..]];
            assert_eq!(decode_chunks(&chunks), [data("🤔 x")], "{first} {second}");
        }
    }
    assert_any_chunking_decodes_to(input, &[data("🤔 x")]);
}

#[test]
fn invalid_utf8_becomes_replacement_characters() {
    assert_any_chunking_decodes_to(
        b"data: a\xFFb\n\ndata: cut \xF0\x9F\n\nevent: \xC3\ndata: x\n\n",
        &[
            data("a\u{FFFD}b"),
            data("cut \u{FFFD}"),
            named("\u{FFFD}", "x"),
        ],
    );
}

#[test]
fn an_empty_data_line_dispatches_an_empty_event() {
    assert_any_chunking_decodes_to(b"data:\n\n", &[data("")]);
    assert_any_chunking_decodes_to(b"data: \n\n", &[data("")]);
    assert_any_chunking_decodes_to(b"data:\ndata:\n\n", &[data("\n")]);
}

#[test]
fn a_line_without_colon_is_a_field_with_empty_value() {
    assert_any_chunking_decodes_to(b"data\n\n", &[data("")]);
    assert_any_chunking_decodes_to(b"data\ndata: x\n\n", &[data("\nx")]);
    assert_any_chunking_decodes_to(b"event\ndata: x\n\n", &[data("x")]);
}

#[test]
fn field_names_are_case_sensitive_and_unknown_ones_ignored() {
    assert_any_chunking_decodes_to(
        b"Data: no\nretry: 1000\nfoo: bar\ndata : no\ndata: yes\n\n",
        &[data("yes")],
    );
    // Names that only begin like the two common ones are other names.
    assert_any_chunking_decodes_to(
        b"datum: no\ndataset: no\nevents: x\nevent:named\ndata:yes\n\n",
        &[named("named", "yes")],
    );
}

#[test]
fn ids_carry_over_until_replaced_or_cleared() {
    assert_any_chunking_decodes_to(
        b"id: 7\ndata: a\n\ndata: b\n\nid\ndata: c\n\nid: 8\n\ndata: d\n\n",
        &[
            with_id("7", "a"),
            with_id("7", "b"),
            data("c"),
            with_id("8", "d"),
        ],
    );
}

#[test]
fn an_id_containing_nul_is_ignored() {
    assert_any_chunking_decodes_to(
        b"id: 1\ndata: a\n\nid: 2\0\ndata: b\n\n",
        &[with_id("1", "a"), with_id("1", "b")],
    );
}

#[test]
fn done_is_an_ordinary_event_that_says_it_is_done() {
    let events = decode_whole(b"data: {\"v\":\"[DONE]\"}\n\ndata: [DONE]\n\n");
    assert_eq!(events, [data("{\"v\":\"[DONE]\"}"), data("[DONE]")]);
    assert_eq!(
        events.iter().map(SseEvent::is_done).collect::<Vec<_>>(),
        [false, true]
    );
}

/// xorshift: reproducible noise without a dependency.
fn next_random(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn arbitrary_bytes_never_panic_and_any_chunking_agrees() {
    const PIECES: [&[u8]; 18] = [
        b"data",
        b"event",
        b"id",
        b"retry",
        b":",
        b" ",
        b"\r",
        b"\n",
        b"\r\n",
        b"\0",
        b"\xEF\xBB\xBF",
        b"\xEF",
        b"\xFF",
        b"\xF0\x9F",
        b"\xA4\x94",
        b"x",
        b"[DONE]",
        b"",
    ];
    let mut state = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..400 {
        let mut input = Vec::new();
        for _ in 0..next_random(&mut state) % 24 {
            input.extend_from_slice(PIECES[(next_random(&mut state) % 18) as usize]);
        }
        let expected = decode_whole(&input);
        assert_any_chunking_decodes_to(&input, &expected);
        let mut decoder = SseDecoder::new();
        let mut out = Vec::new();
        let mut rest = &input[..];
        while !rest.is_empty() {
            let take = (next_random(&mut state) % 5) as usize;
            let (chunk, tail) = rest.split_at(take.min(rest.len()));
            decoder.feed(chunk, &mut out);
            rest = tail;
        }
        decoder.finish(&mut out);
        assert_eq!(out, expected, "{input:?}");
    }
}

#[test]
fn an_events_data_lines_keep_their_order_however_they_are_written() {
    // A held first line, then data lines in every form the spec allows.
    let cases: [(&[u8], &str); 5] = [
        (b"data: a\ndata\n\n", "a\n"),
        (b"data: a\ndata:\n\n", "a\n"),
        (b"data: a\ndata:b\ndata: c\n\n", "a\nb\nc"),
        (b"data: a\nid: 7\ndata: b\n\n", "a\nb"),
        (b"data\ndata: a\n\n", "\na"),
    ];
    for (bytes, expected) in cases {
        let decoded = decode_whole(bytes);
        assert_eq!(decoded.len(), 1, "{:?}", String::from_utf8_lossy(bytes));
        assert_eq!(
            decoded[0].data,
            expected,
            "{:?}",
            String::from_utf8_lossy(bytes)
        );
        assert_any_chunking_decodes_to(bytes, &decoded);
    }
}
