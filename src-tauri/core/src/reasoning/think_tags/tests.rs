use std::path::{Path, PathBuf};

use super::*;

/// What a stream split into: all reasoning, all content, and how it ended.
#[derive(Debug, PartialEq, Eq)]
struct Split {
    reasoning: String,
    content: String,
    unclosed: bool,
}

/// Feeds `deltas` and checks the output shape on the way: no empty segments, and no two
/// adjacent segments of one kind from the same call.
fn split(mut splitter: ThinkSplitter, deltas: &[&str]) -> Split {
    let mut segments = Vec::new();
    for delta in deltas {
        let mut out = Vec::new();
        splitter.push(delta, &mut out);
        assert_compact(&out);
        segments.extend(out);
    }
    let mut out = Vec::new();
    let end = splitter.finish(&mut out);
    assert_compact(&out);
    segments.extend(out);
    let mut result = Split {
        reasoning: String::new(),
        content: String::new(),
        unclosed: end.unclosed,
    };
    for segment in segments {
        match segment {
            Segment::Reasoning(text) => result.reasoning.push_str(&text),
            Segment::Content(text) => result.content.push_str(&text),
        }
    }
    result
}

fn assert_compact(out: &[Segment]) {
    for segment in out {
        let (Segment::Reasoning(text) | Segment::Content(text)) = segment;
        assert!(!text.is_empty(), "empty segment in {out:?}");
    }
    for pair in out.windows(2) {
        let same = matches!(
            pair,
            [Segment::Reasoning(_), Segment::Reasoning(_)]
                | [Segment::Content(_), Segment::Content(_)]
        );
        assert!(!same, "unmerged segments in {out:?}");
    }
}

/// Checks `text` split whole, a character at a time, and cut in two at every character
/// boundary.
fn assert_any_chunking_splits_to(make: impl Fn() -> ThinkSplitter, text: &str, want: &Split) {
    assert_eq!(split(make(), &[text]), *want, "whole: {text:?}");
    let chars: Vec<String> = text.chars().map(String::from).collect();
    let chars: Vec<&str> = chars.iter().map(String::as_str).collect();
    assert_eq!(split(make(), &chars), *want, "char by char: {text:?}");
    for (cut, _) in text.char_indices().skip(1) {
        let (head, tail) = text.split_at(cut);
        assert_eq!(
            split(make(), &[head, tail]),
            *want,
            "cut at {cut}: {text:?}"
        );
    }
}

/// The whole-text meaning of the rules, written without streaming, as an oracle.
fn split_whole(text: &str, open: &str, close: &str, prefilled: bool) -> Split {
    fn drop_one_newline(text: &str) -> &str {
        text.strip_prefix('\n')
            .or_else(|| text.strip_prefix("\r\n"))
            .unwrap_or(text)
    }
    let after_space = text.trim_start();
    let reasoning = if let Some(inside) = after_space.strip_prefix(open) {
        drop_one_newline(inside)
    } else if prefilled {
        text
    } else {
        return Split {
            reasoning: String::new(),
            content: text.to_owned(),
            unclosed: false,
        };
    };
    match reasoning.split_once(close) {
        Some((reasoning, content)) => Split {
            reasoning: reasoning.to_owned(),
            content: drop_one_newline(content).to_owned(),
            unclosed: false,
        },
        None => Split {
            reasoning: reasoning.to_owned(),
            content: String::new(),
            unclosed: true,
        },
    }
}

struct Case {
    name: &'static str,
    prefilled: bool,
    input: &'static str,
    reasoning: &'static str,
    content: &'static str,
    unclosed: bool,
}

const fn case(
    name: &'static str,
    prefilled: bool,
    input: &'static str,
    reasoning: &'static str,
    content: &'static str,
    unclosed: bool,
) -> Case {
    Case {
        name,
        prefilled,
        input,
        reasoning,
        content,
        unclosed,
    }
}

#[rustfmt::skip]
const CASES: &[Case] = &[
    case("no tag is all content", false, "Hello", "", "Hello", false),
    case("empty stream", false, "", "", "", false),
    case("think block then answer", false,
        "<think>\nplan\n</think>\n\nanswer", "plan\n", "\nanswer", false),
    case("crlf after both tags is dropped", false,
        "<think>\r\nplan</think>\r\nanswer", "plan", "answer", false),
    case("only one newline is dropped", false,
        "<think>\n\nplan</think>\n\nanswer", "\nplan", "\nanswer", false),
    case("a lone cr after a tag is text", false,
        "<think>\ra</think>\rb", "\ra", "\rb", false),
    case("cr at the very end is flushed as text", false,
        "<think>a</think>\r", "a", "\r", false),
    case("cr right after the open tag at the end", false, "<think>\r", "\r", "", true),
    case("leading whitespace before the tag is dropped", false,
        " \n\t<think>r</think>c", "r", "c", false),
    case("leading whitespace without a tag is content", false,
        "  \nHello <think>", "", "  \nHello <think>", false),
    case("whitespace only is content", false, "  \n", "", "  \n", false),
    case("table cell is not a tag", false, "<th>cell</th>", "", "<th>cell</th>", false),
    case("thead is not a tag", false, "<thead>", "", "<thead>", false),
    case("think-tank is not a tag", false,
        "<think-tank> is a word", "", "<think-tank> is a word", false),
    case("less-than is not a tag", false, "a < b", "", "a < b", false),
    case("a lone less-than is flushed at the end", false, "<", "", "<", false),
    case("a partial open tag is flushed as content", false, "  <thin", "", "  <thin", false),
    case("a late think tag stays text", false,
        "Answer: <think>x</think>", "", "Answer: <think>x</think>", false),
    case("a second think block stays text", false,
        "<think>a</think>b<think>c</think>", "a", "b<think>c</think>", false),
    case("close-tag lookalikes stay reasoning", false,
        "<think>a </th> b </thinking> c <</think>d", "a </th> b </thinking> c <", "d", false),
    case("a think tag inside reasoning is reasoning", false,
        "<think>a<think>b</think>c", "a<think>b", "c", false),
    case("unclosed reasoning", false, "<think>still thinking", "still thinking", "", true),
    case("a partial close tag is flushed as reasoning", false,
        "<think>abc</thi", "abc</thi", "", true),
    case("open tag alone", false, "<think>\n", "", "", true),
    case("empty think block", false, "<think></think>answer", "", "answer", false),
    case("blank think block", false,
        "<think>\n\n</think>\n\nanswer", "\n", "\nanswer", false),
    case("spaces around tags are kept", false,
        " <think> why </think> because", " why ", " because", false),
    case("multibyte text on both sides", false,
        "<think>🤔 hmm</think>答え", "🤔 hmm", "答え", false),
    case("prefilled: close switches to content", true,
        "plan\n</think>\n\nanswer", "plan\n", "\nanswer", false),
    case("prefilled: an opening tag at the start is dropped", true,
        "<think>\nplan</think>answer", "plan", "answer", false),
    case("prefilled: whitespace and opening tag are dropped", true,
        "\n<think>\nplan</think>answer", "plan", "answer", false),
    case("prefilled: leading whitespace without tag is reasoning", true,
        "  plan</think>x", "  plan", "x", false),
    case("prefilled: a later opening tag is reasoning", true,
        "a <think> b</think>c", "a <think> b", "c", false),
    case("prefilled: close at the very start", true, "</think>answer", "", "answer", false),
    case("prefilled: never closed", true, "plan", "plan", "", true),
    case("prefilled: empty stream is unclosed", true, "", "", "", true),
    case("prefilled: partial open tag is reasoning", true, "<thi", "<thi", "", true),
    case("prefilled: close lookalike", true, "</thinking></think>", "</thinking>", "", false),
];

#[test]
fn every_case_splits_the_same_however_it_is_chunked() {
    for case in CASES {
        let want = Split {
            reasoning: case.reasoning.to_owned(),
            content: case.content.to_owned(),
            unclosed: case.unclosed,
        };
        let oracle = split_whole(case.input, "<think>", "</think>", case.prefilled);
        assert_eq!(oracle, want, "oracle disagrees on {:?}", case.name);
        assert_any_chunking_splits_to(
            || ThinkSplitter::new("<think>", "</think>", case.prefilled),
            case.input,
            &want,
        );
    }
}

#[test]
fn think_is_the_unprefilled_think_tag() {
    let want = split_whole("<think>a</think>b", "<think>", "</think>", false);
    assert_eq!(split(ThinkSplitter::think(), &["<think>a</think>b"]), want);
    assert_eq!(split(ThinkSplitter::think(), &["a"]).content, "a");
}

#[test]
fn other_tag_names_work_and_think_is_then_ordinary_text() {
    let make = || ThinkSplitter::new("<thinking>", "</thinking>", false);
    let want = Split {
        reasoning: "x".to_owned(),
        content: "y</think>".to_owned(),
        unclosed: false,
    };
    assert_any_chunking_splits_to(make, "<thinking>\nx</thinking>\ny</think>", &want);
    let want = Split {
        reasoning: String::new(),
        content: "<think>x".to_owned(),
        unclosed: false,
    };
    assert_any_chunking_splits_to(make, "<think>x", &want);
}

/// Text built from tag pieces, whitespace and multi-byte characters, cut anywhere (on
/// character boundaries) into any number of pieces: the streamed split always equals the
/// whole-text oracle.
#[test]
fn every_split_of_any_text_gives_the_oracle_result() {
    use proptest::prelude::*;
    let fragment = prop::sample::select(vec![
        "<think>",
        "</think>",
        "<",
        "</",
        "<th",
        "think>",
        ">",
        "</thi",
        "nk>",
        "a",
        "é",
        "🧠",
        " ",
        "\n",
        "\r\n",
        "x y",
        "<thinking>",
    ]);
    let text = prop::collection::vec(fragment, 0..24).prop_map(|f| f.concat());
    let cuts = prop::collection::vec(any::<prop::sample::Index>(), 0..6);
    let config = ProptestConfig {
        cases: 10_000,
        failure_persistence: None,
        ..ProptestConfig::default()
    };
    proptest!(config, |(text in text, cuts in cuts, prefilled in any::<bool>())| {
        let boundaries: Vec<usize> = text.char_indices().map(|(i, _)| i).skip(1).collect();
        let mut at: Vec<usize> = if boundaries.is_empty() {
            Vec::new()
        } else {
            cuts.iter().map(|c| boundaries[c.index(boundaries.len())]).collect()
        };
        at.sort_unstable();
        at.dedup();
        let mut pieces = Vec::new();
        let mut from = 0;
        for cut in at {
            pieces.push(&text[from..cut]);
            from = cut;
        }
        pieces.push(&text[from..]);
        let want = split_whole(&text, "<think>", "</think>", prefilled);
        prop_assert_eq!(
            split(ThinkSplitter::new("<think>", "</think>", prefilled), &pieces),
            want
        );
    });
}

fn pushes(splitter: &mut ThinkSplitter, deltas: &[&str]) -> Vec<Vec<Segment>> {
    deltas
        .iter()
        .map(|delta| {
            let mut out = Vec::new();
            splitter.push(delta, &mut out);
            out
        })
        .collect()
}

fn reasoning(text: &str) -> Segment {
    Segment::Reasoning(text.to_owned())
}

fn content(text: &str) -> Segment {
    Segment::Content(text.to_owned())
}

#[test]
fn only_a_possible_tag_is_held_and_released_once_ruled_out() {
    let mut splitter = ThinkSplitter::think();
    assert_eq!(
        pushes(&mut splitter, &["<th", "e"]),
        [vec![], vec![content("<the")]]
    );
    let mut splitter = ThinkSplitter::think();
    assert_eq!(
        pushes(&mut splitter, &["<think>a <", "/", "b", "x</thin", "k>y"]),
        [
            vec![reasoning("a ")],
            vec![],
            vec![reasoning("</b")],
            vec![reasoning("x")],
            vec![content("y")],
        ]
    );
}

#[test]
fn whitespace_waits_at_the_start_until_the_tag_is_ruled_in_or_out() {
    let mut splitter = ThinkSplitter::think();
    assert_eq!(
        pushes(&mut splitter, &["\n", " ", "<", "x"]),
        [vec![], vec![], vec![], vec![content("\n <x")]]
    );
    let mut splitter = ThinkSplitter::think();
    assert_eq!(
        pushes(&mut splitter, &["\n ", "<think>", "\n", "r"]),
        [vec![], vec![], vec![], vec![reasoning("r")]]
    );
}

#[test]
fn one_push_merges_its_segments_but_never_touches_earlier_ones() {
    let mut splitter = ThinkSplitter::think();
    assert_eq!(
        pushes(&mut splitter, &["<think>a", "b</thi", "nk>c", "d"]),
        [
            vec![reasoning("a")],
            vec![reasoning("b")],
            vec![content("c")],
            vec![content("d")],
        ]
    );
    let mut out = vec![reasoning("from before")];
    ThinkSplitter::new("<think>", "</think>", true).push("more</think>answer", &mut out);
    assert_eq!(
        out,
        [
            reasoning("from before"),
            reasoning("more"),
            content("answer")
        ]
    );
}

#[test]
fn finish_flushes_held_text_and_starts_over() {
    let mut splitter = ThinkSplitter::think();
    let mut out = Vec::new();
    splitter.push("<think>a</th", &mut out);
    assert_eq!(splitter.finish(&mut out), SplitEnd { unclosed: true });
    assert_eq!(out, [reasoning("a"), reasoning("</th")]);
    out.clear();
    splitter.push("<think>b</think>c", &mut out);
    assert_eq!(splitter.finish(&mut out), SplitEnd { unclosed: false });
    assert_eq!(out, [reasoning("b"), content("c")]);
}

#[test]
fn empty_tags_do_not_hang_or_panic() {
    for (open, close, prefilled) in [("", "", false), ("", "</x>", true), ("<x>", "", false)] {
        let text = "  <x>a</x>b";
        assert_eq!(
            split(ThinkSplitter::new(open, close, prefilled), &[text]),
            split_whole(text, open, close, prefilled),
            "{open:?} {close:?}"
        );
    }
}

/// xorshift: reproducible noise without a dependency.
fn next_random(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn random_text_never_panics_and_matches_the_whole_text_rules() {
    const PIECES: [&str; 16] = [
        "<think>", "</think>", "<", "</", "<th", "think", ">", "\n", "\r", "\r\n", " ", "x", "🤔",
        "</thi", "<thin", "\t",
    ];
    let mut state = 0x853C_49E6_748F_EA9B;
    for round in 0..600 {
        let mut text = String::new();
        for _ in 0..next_random(&mut state) % 12 {
            text.push_str(PIECES[(next_random(&mut state) % 16) as usize]);
        }
        let prefilled = round % 2 == 1;
        let want = split_whole(&text, "<think>", "</think>", prefilled);
        assert_any_chunking_splits_to(
            || ThinkSplitter::new("<think>", "</think>", prefilled),
            &text,
            &want,
        );
    }
}

fn inline_think_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/real/inline-think")
}

fn message_content(file: &str) -> String {
    let bytes = std::fs::read(inline_think_dir().join(file)).expect("fixture");
    let json: serde_json::Value = serde_json::from_slice(&bytes).expect("fixture JSON");
    json["choices"][0]["message"]["content"]
        .as_str()
        .expect("choices[0].message.content")
        .to_owned()
}

#[test]
fn deepseek_r1_fixtures_open_with_think_and_split_at_the_close_tag() {
    for file in [
        "pydantic-groq-r1-distill-inline-think.json",
        "pydantic-hf-together-deepseek-r1-inline-think.json",
    ] {
        let text = message_content(file);
        // Both providers send the opening tag, so the stream is not prefilled.
        let inside = text.strip_prefix("<think>\n").expect(file);
        let (thought, answer) = inside.split_once("</think>\n").expect(file);
        let want = Split {
            reasoning: thought.to_owned(),
            content: answer.to_owned(),
            unclosed: false,
        };
        assert!(want.reasoning.starts_with("Okay"), "{file}");
        assert!(!want.content.contains("think>"), "{file}");
        assert_any_chunking_splits_to(ThinkSplitter::think, &text, &want);
        // Told it was prefilled, the splitter still drops the leading tag.
        let prefilled = || ThinkSplitter::new("<think>", "</think>", true);
        assert_eq!(split(prefilled(), &[&text]), want, "{file}");
    }
}

fn kimi_text_deltas() -> Vec<String> {
    let path =
        inline_think_dir().join("vercel-bedrock-kimi-k2-thinking-inline-think-tag-stream.jsonl");
    let text = std::fs::read_to_string(path).expect("fixture");
    text.lines()
        .filter_map(|line| {
            let json: serde_json::Value = serde_json::from_str(line).expect("JSON line");
            // Bedrock ConverseStream events, not OpenAI chunks: text is in contentBlockDelta.
            Some(
                json["contentBlockDelta"]["delta"]["text"]
                    .as_str()?
                    .to_owned(),
            )
        })
        .collect()
}

#[test]
fn kimi_bedrock_stream_splits_at_spaced_tags() {
    let deltas = kimi_text_deltas();
    assert_eq!(deltas.len(), 9);
    let deltas: Vec<&str> = deltas.iter().map(String::as_str).collect();
    let got = split(ThinkSplitter::think(), &deltas);
    assert!(
        got.reasoning.starts_with(" The user wants me to check"),
        "{got:?}"
    );
    assert!(
        got.reasoning.ends_with("FOUND ISSUE_11409_CONTENT "),
        "{got:?}"
    );
    assert_eq!(got.content, " FOUND ISSUE_11409_CONTENT");
    assert!(!got.unclosed);
    assert_any_chunking_splits_to(ThinkSplitter::think, &deltas.concat(), &got);

    let mut splitter = ThinkSplitter::think();
    let last = pushes(&mut splitter, &deltas).pop().expect("deltas");
    assert_eq!(
        last,
        [
            reasoning("_11409_CONTENT "),
            content(" FOUND ISSUE_11409_CONTENT")
        ]
    );
}
