//! Newline-delimited JSON framing, the shape of Ollama's native streaming API.
//!
//! Only framing happens here: each line comes out as text for the caller's JSON parser. Like
//! the SSE decoder it works on bytes and decodes only complete lines, so a UTF-8 character
//! split across network chunks comes out whole.

/// Incremental decoder: bytes in, one `String` per non-blank line out, whatever the chunking.
#[derive(Debug, Default)]
pub struct NdjsonDecoder {
    /// Bytes of a line whose `\n` has not arrived yet.
    partial: Vec<u8>,
}

impl NdjsonDecoder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds bytes; completed lines are appended to `out`, trimmed, blank ones skipped.
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<String>) {
        let mut rest = chunk;
        while let Some(end) = memchr::memchr(b'\n', rest) {
            if self.partial.is_empty() {
                push_line(&rest[..end], out);
            } else {
                self.partial.extend_from_slice(&rest[..end]);
                push_line(&self.partial, out);
                self.partial.clear();
            }
            rest = &rest[end + 1..];
        }
        self.partial.extend_from_slice(rest);
    }

    /// Bytes held for a line whose `\n` has not arrived.
    pub fn held_bytes(&self) -> usize {
        self.partial.len()
    }

    /// End of stream: emits a last line that had no `\n`. The decoder can then be reused.
    pub fn finish(&mut self, out: &mut Vec<String>) {
        push_line(&self.partial, out);
        self.partial.clear();
    }
}

/// Trimming also removes the `\r` of a CRLF line end, since `\r` is whitespace.
fn push_line(line: &[u8], out: &mut Vec<String>) {
    let text = String::from_utf8_lossy(line);
    let trimmed = text.trim();
    if !trimmed.is_empty() {
        out.push(trimmed.to_owned());
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn decode_chunks(chunks: &[&[u8]]) -> Vec<String> {
        let mut decoder = NdjsonDecoder::new();
        let mut out = Vec::new();
        for chunk in chunks {
            decoder.feed(chunk, &mut out);
        }
        decoder.finish(&mut out);
        out
    }

    /// Checks that `bytes` decodes to `expected` fed whole, a byte at a time, and cut in two
    /// at every offset.
    fn assert_any_chunking_decodes_to(bytes: &[u8], expected: &[&str]) {
        assert_eq!(decode_chunks(&[bytes]), expected, "fed whole");
        let one_by_one: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(decode_chunks(&one_by_one), expected, "fed a byte at a time");
        for cut in 0..=bytes.len() {
            let (head, tail) = bytes.split_at(cut);
            assert_eq!(decode_chunks(&[head, tail]), expected, "cut at byte {cut}");
        }
    }

    fn ollama_fixtures() -> Vec<(String, Vec<u8>)> {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/real/ollama");
        let mut fixtures: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("directory entry").path())
            .filter(|path| path.extension().is_some_and(|ext| ext == "ndjson"))
            .map(|path| {
                let bytes = std::fs::read(&path).expect("fixture");
                (path.display().to_string(), bytes)
            })
            .collect();
        fixtures.sort();
        assert!(!fixtures.is_empty(), "expected Ollama .ndjson fixtures");
        fixtures
    }

    #[test]
    fn every_ollama_fixture_decodes_the_same_however_it_is_chunked() {
        for (name, bytes) in ollama_fixtures() {
            let text = std::str::from_utf8(&bytes).expect("fixtures are UTF-8");
            let expected: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
            assert!(expected.len() > 1, "{name}");
            assert_any_chunking_decodes_to(&bytes, &expected);
        }
    }

    #[test]
    fn every_ollama_fixture_line_is_one_json_object_and_only_the_last_is_done() {
        for (name, bytes) in ollama_fixtures() {
            let lines = decode_chunks(&[&bytes]);
            let done: Vec<bool> = lines
                .iter()
                .map(|line| {
                    let json: serde_json::Value = serde_json::from_str(line)
                        .unwrap_or_else(|e| panic!("{name}: {e}: {line}"));
                    json["done"] == true
                })
                .collect();
            assert_eq!(done.iter().filter(|d| **d).count(), 1, "{name}");
            assert_eq!(done.last(), Some(&true), "{name}");
        }
    }

    #[test]
    fn crlf_line_ends_and_surrounding_whitespace_are_removed() {
        assert_any_chunking_decodes_to(
            b"{\"a\":1}\r\n  {\"b\":2}\t \n{\"c\": \" x \"}\r\n",
            &["{\"a\":1}", "{\"b\":2}", "{\"c\": \" x \"}"],
        );
    }

    #[test]
    fn blank_and_whitespace_only_lines_are_skipped() {
        assert_any_chunking_decodes_to(b"\n\r\n  \n{}\n\n\t\r\n{}\n", &["{}", "{}"]);
        assert_any_chunking_decodes_to(b"   ", &[]);
        assert_any_chunking_decodes_to(b"", &[]);
    }

    #[test]
    fn a_lone_carriage_return_does_not_end_a_line() {
        assert_any_chunking_decodes_to(b"{\"a\":1}\r{\"b\":2}\n", &["{\"a\":1}\r{\"b\":2}"]);
    }

    #[test]
    fn finish_emits_a_last_line_without_newline() {
        assert_any_chunking_decodes_to(
            b"{\"a\":1}\n{\"done\":true}",
            &["{\"a\":1}", "{\"done\":true}"],
        );
        assert_any_chunking_decodes_to(b"{\"done\":true}\r", &["{\"done\":true}"]);
    }

    #[test]
    fn nothing_is_emitted_before_the_newline_arrives() {
        let mut decoder = NdjsonDecoder::new();
        let mut out = Vec::new();
        decoder.feed(b"{\"a\":", &mut out);
        decoder.feed(b"1}", &mut out);
        assert!(out.is_empty());
        decoder.feed(b"\n{", &mut out);
        assert_eq!(out, ["{\"a\":1}"]);
    }

    #[test]
    fn decoder_starts_over_after_finish() {
        let mut decoder = NdjsonDecoder::new();
        let mut out = Vec::new();
        decoder.feed(b"{\"a\":1", &mut out);
        decoder.finish(&mut out);
        decoder.feed(b"}\n", &mut out);
        decoder.finish(&mut out);
        assert_eq!(out, ["{\"a\":1", "}"]);
    }

    #[test]
    fn a_four_byte_character_split_at_any_offset_comes_out_whole() {
        let input = "{\"thinking\":\"🤔\"}\n".as_bytes();
        let emoji_at = 13;
        for first in emoji_at..=emoji_at + 4 {
            for second in first..=emoji_at + 4 {
                let chunks = [&input[..first], &input[first..second], &input[second..]];
                assert_eq!(
                    decode_chunks(&chunks),
                    ["{\"thinking\":\"🤔\"}"],
                    "{first} {second}"
                );
            }
        }
        assert_any_chunking_decodes_to(input, &["{\"thinking\":\"🤔\"}"]);
    }

    #[test]
    fn invalid_utf8_becomes_replacement_characters() {
        assert_any_chunking_decodes_to(
            b"{\"a\":\"\xFF\"}\n{\"b\":\"\xF0\x9F\"}",
            &["{\"a\":\"\u{FFFD}\"}", "{\"b\":\"\u{FFFD}\"}"],
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
        const PIECES: [&[u8]; 10] = [
            b"{}",
            b"\n",
            b"\r",
            b" ",
            b"\t",
            b"x",
            b"\xFF",
            b"\xF0\x9F",
            b"\xA4\x94",
            b"\0",
        ];
        let mut state = 0x2545_F491_4F6C_DD1D;
        for _ in 0..300 {
            let mut input = Vec::new();
            for _ in 0..next_random(&mut state) % 24 {
                input.extend_from_slice(PIECES[(next_random(&mut state) % 10) as usize]);
            }
            let expected = decode_chunks(&[&input]);
            let expected: Vec<&str> = expected.iter().map(String::as_str).collect();
            assert_any_chunking_decodes_to(&input, &expected);
        }
    }
}
