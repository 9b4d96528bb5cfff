//! What the mock sends back: a status, headers, a body, and how to deliver it.

use std::borrow::Cow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// The broken SSE line inserted by [`Reply::malformed_line_after`].
pub const MALFORMED_SSE_LINE: &str = "data: {not json";
/// The broken NDJSON line inserted by [`Reply::malformed_line_after`].
pub const MALFORMED_NDJSON_LINE: &str = "{not json";

pub(crate) const SSE: &str = "text/event-stream";
pub(crate) const NDJSON: &str = "application/x-ndjson";
pub(crate) const JSON: &str = "application/json";
pub(crate) const EVENTSTREAM: &str = "application/vnd.amazon.eventstream";

/// One response the mock will give to one request.
///
/// Build it with a constructor ([`Reply::fixture`], [`Reply::sse`], [`Reply::json`],
/// [`Reply::body`], [`Reply::refuse`], …) and refine it with the builder methods.
/// All byte counts (`chunk_size`, `cut_after`, `stall_after`) are counted in the
/// *body* as served, i.e. after `.jsonl` wrapping and after the malformed line was inserted,
/// not counting the chunked-transfer framing.
#[derive(Clone, Debug)]
pub struct Reply {
    pub(crate) refuse: bool,
    pub(crate) status: u16,
    pub(crate) content_type: String,
    pub(crate) headers: Vec<(String, String)>,
    /// Shared, so that handing the same reply to every request copies nothing (a benchmark's
    /// reply is 50 MB).
    pub(crate) body: Arc<Vec<u8>>,
    pub(crate) chunked: Option<bool>,
    pub(crate) chunk_size: Option<usize>,
    pub(crate) burst: usize,
    pub(crate) delay: Duration,
    pub(crate) cut_after: Option<usize>,
    pub(crate) stall_after: Option<usize>,
    pub(crate) malformed_after: Option<usize>,
}

/// How the body ends, once the configured bytes went out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// Finish the body properly.
    Complete,
    /// Close the connection after this many body bytes.
    Cut(usize),
    /// Go silent after this many body bytes.
    Stall(usize),
}

impl Reply {
    fn new(status: u16, content_type: &str, body: Vec<u8>) -> Reply {
        Reply {
            refuse: false,
            status,
            content_type: content_type.to_owned(),
            headers: Vec::new(),
            body: Arc::new(body),
            chunked: None,
            chunk_size: None,
            burst: 0,
            delay: Duration::ZERO,
            cut_after: None,
            stall_after: None,
            malformed_after: None,
        }
    }

    /// A recorded response, status 200, content type and framing from the extension:
    ///
    /// | extension | served as |
    /// |---|---|
    /// | `.sse` | verbatim, `text/event-stream` |
    /// | `.jsonl` | each non-empty line wrapped as `data: <line>\n\n`, `text/event-stream` (nothing appended; see [`Reply::with_done`]) |
    /// | `.ndjson` | verbatim, `application/x-ndjson` |
    /// | `.json` | verbatim, `application/json` |
    /// | `.eventstream` | verbatim bytes, `application/vnd.amazon.eventstream` |
    ///
    /// A relative path that does not exist from the current directory is looked up
    /// under [`fixtures_dir`](crate::fixtures_dir) (`tests/fixtures/real`), so
    /// `Reply::fixture("anthropic/pydantic-sonnet4-thinking-stream.sse")` works from any crate.
    /// Any other extension is an `InvalidInput` error: use [`Reply::body`] for those.
    pub fn fixture(path: impl AsRef<Path>) -> std::io::Result<Reply> {
        let path = resolve_fixture(path.as_ref());
        let ext = path
            .extension()
            .and_then(|e| e.to_str())
            .unwrap_or("")
            .to_ascii_lowercase();
        let content_type = match ext.as_str() {
            "sse" | "jsonl" => SSE,
            "ndjson" => NDJSON,
            "json" => JSON,
            "eventstream" => EVENTSTREAM,
            _ => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!(
                        "{}: unknown fixture extension (expected .sse, .jsonl, .ndjson, .json or .eventstream)",
                        path.display()
                    ),
                ));
            }
        };
        let bytes = std::fs::read(&path).map_err(|e| {
            std::io::Error::new(e.kind(), format!("reading fixture {}: {e}", path.display()))
        })?;
        let body = if ext == "jsonl" {
            jsonl_to_sse(&bytes)
        } else {
            bytes
        };
        Ok(Reply::new(200, content_type, body))
    }

    /// Raw SSE wire text, served verbatim as `text/event-stream`, status 200.
    pub fn sse(text: impl Into<String>) -> Reply {
        Reply::new(200, SSE, text.into().into_bytes())
    }

    /// Text in the `.jsonl` fixture format (one SSE data payload per line), served as SSE:
    /// each non-empty line becomes `data: <line>\n\n`.
    pub fn sse_data_lines(text: impl AsRef<str>) -> Reply {
        Reply::new(200, SSE, jsonl_to_sse(text.as_ref().as_bytes()))
    }

    /// Newline-delimited JSON served verbatim as `application/x-ndjson`, status 200.
    pub fn ndjson(text: impl Into<String>) -> Reply {
        Reply::new(200, NDJSON, text.into().into_bytes())
    }

    /// A JSON body with this status.
    pub fn json(status: u16, body: serde_json::Value) -> Reply {
        let bytes = serde_json::to_vec(&body).unwrap_or_default();
        Reply::new(status, JSON, bytes)
    }

    /// Any body with this status and content type (e.g. an HTML error page from a proxy).
    pub fn body(status: u16, content_type: &str, bytes: impl Into<Vec<u8>>) -> Reply {
        Reply::new(status, content_type, bytes.into())
    }

    /// Accept the connection, read and record the request, then close the socket with a
    /// TCP reset and no response at all.
    pub fn refuse() -> Reply {
        let mut reply = Reply::new(200, "", Vec::new());
        reply.refuse = true;
        reply
    }

    /// Change the status code.
    pub fn status(mut self, status: u16) -> Reply {
        self.status = status;
        self
    }

    /// Add a response header (e.g. `retry-after`). `content-type` replaces the content type;
    /// `content-length`, `transfer-encoding` and `connection` are managed by the mock and ignored.
    pub fn header(mut self, name: &str, value: &str) -> Reply {
        let lower = name.to_ascii_lowercase();
        match lower.as_str() {
            "content-type" => self.content_type = value.to_owned(),
            "content-length" | "transfer-encoding" | "connection" => {}
            _ => self.headers.push((name.to_owned(), value.to_owned())),
        }
        self
    }

    /// Split the body into pieces of this many bytes, each written and flushed on its own
    /// (and, with chunked transfer, each its own HTTP chunk). `1` = one byte at a time.
    /// Default: the whole body in one piece. `0` is treated as `1`.
    pub fn chunk_size(mut self, bytes: usize) -> Reply {
        self.chunk_size = Some(bytes.max(1));
        self
    }

    /// Send the body's first `bytes` bytes as one piece, before the chunks of `chunk_size`
    /// (a long answer the client catches up on at once, then follows as it streams).
    pub fn burst(mut self, bytes: usize) -> Reply {
        self.burst = bytes;
        self
    }

    /// Wait this long between two pieces of the body (not before the first).
    pub fn delay(mut self, between_chunks: Duration) -> Reply {
        self.delay = between_chunks;
        self
    }

    /// Send this many body bytes, then close the connection without finishing the body
    /// (no terminating zero-size chunk; with `Content-Length`, fewer bytes than announced).
    pub fn cut_after(mut self, bytes: usize) -> Reply {
        self.cut_after = Some(bytes);
        self
    }

    /// Send this many body bytes, then keep the connection open and silent until the client
    /// goes away, the server shuts down, or [`IO_TIMEOUT`](crate::IO_TIMEOUT) passes.
    pub fn stall_after(mut self, bytes: usize) -> Reply {
        self.stall_after = Some(bytes);
        self
    }

    /// Insert a broken line after this many events.
    ///
    /// For `text/event-stream` bodies: `data: {not json` and a blank line, after the N-th event
    /// (an event = a block of lines ending in a blank line with at least one non-comment line;
    /// comment-only keep-alive blocks are not counted), using the body's own line ending
    /// (`\r\n` for Gemini). For NDJSON bodies: `{not json` as a line after the N-th line.
    /// `0` puts it first; more than there are events puts it last. Other bodies are not changed.
    pub fn malformed_line_after(mut self, events: usize) -> Reply {
        self.malformed_after = Some(events);
        self
    }

    /// Append `data: [DONE]\n\n` to an SSE body (OpenAI Chat Completions style end marker).
    /// Useful with `.jsonl` fixtures, which have it stripped. Nothing is appended by default.
    pub fn with_done(mut self) -> Reply {
        let (line_end, terminated, in_block) = sse_tail_state(&self.body);
        let body = Arc::make_mut(&mut self.body);
        if !terminated {
            body.extend_from_slice(line_end.as_bytes());
        }
        if in_block {
            body.extend_from_slice(line_end.as_bytes());
        }
        body.extend_from_slice(format!("data: [DONE]{line_end}{line_end}").as_bytes());
        self
    }

    /// Force (`true`) or forbid (`false`) `Transfer-Encoding: chunked`. By default streamed
    /// content types (SSE, NDJSON, AWS event stream) are chunked and everything else is sent
    /// with `Content-Length` (still in `chunk_size` pieces with `delay` between them).
    pub fn chunked(mut self, chunked: bool) -> Reply {
        self.chunked = Some(chunked);
        self
    }

    /// The status this reply is served with.
    pub fn status_code(&self) -> u16 {
        self.status
    }

    /// The content type this reply is served with.
    pub fn content_type(&self) -> &str {
        &self.content_type
    }

    /// The body exactly as it will be served (after wrapping and fault insertion), before any cut.
    pub fn served_body(&self) -> Cow<'_, [u8]> {
        match self.malformed_after {
            Some(n) if is_sse(&self.content_type) => {
                Cow::Owned(insert_malformed_sse(&self.body, n))
            }
            Some(n) if is_ndjson(&self.content_type) => {
                Cow::Owned(insert_malformed_ndjson(&self.body, n))
            }
            _ => Cow::Borrowed(self.body.as_slice()),
        }
    }

    pub(crate) fn is_chunked(&self) -> bool {
        self.chunked.unwrap_or_else(|| {
            is_sse(&self.content_type)
                || is_ndjson(&self.content_type)
                || media_type(&self.content_type) == EVENTSTREAM
        })
    }

    pub(crate) fn ending(&self) -> Ending {
        match (self.cut_after, self.stall_after) {
            (Some(c), Some(s)) if s < c => Ending::Stall(s),
            (Some(c), _) => Ending::Cut(c),
            (None, Some(s)) => Ending::Stall(s),
            (None, None) => Ending::Complete,
        }
    }
}

fn resolve_fixture(path: &Path) -> PathBuf {
    if path.is_relative() && !path.exists() {
        let candidate = crate::fixtures_dir().join(path);
        if candidate.exists() {
            return candidate;
        }
    }
    path.to_path_buf()
}

fn media_type(content_type: &str) -> String {
    content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase()
}

pub(crate) fn is_sse(content_type: &str) -> bool {
    media_type(content_type) == SSE
}

fn is_ndjson(content_type: &str) -> bool {
    matches!(
        media_type(content_type).as_str(),
        NDJSON | "application/ndjson" | "application/jsonl" | "application/json-seq"
    )
}

/// `.jsonl` fixture text to SSE wire text: each non-empty line becomes `data: <line>\n\n`.
pub(crate) fn jsonl_to_sse(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 8);
    for line in bytes.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        out.extend_from_slice(b"data: ");
        out.extend_from_slice(line);
        out.extend_from_slice(b"\n\n");
    }
    out
}

/// Splits SSE text into lines: (start of line, end of content, end including terminator).
fn sse_lines(body: &[u8]) -> Vec<(usize, usize, usize)> {
    let mut lines = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < body.len() {
        match body[i] {
            b'\n' => {
                lines.push((start, i, i + 1));
                i += 1;
                start = i;
            }
            b'\r' => {
                let next = if body.get(i + 1) == Some(&b'\n') {
                    i + 2
                } else {
                    i + 1
                };
                lines.push((start, i, next));
                i = next;
                start = i;
            }
            _ => i += 1,
        }
    }
    if start < body.len() {
        lines.push((start, body.len(), body.len()));
    }
    lines
}

/// (line ending used by the text, whether it ends with a line terminator, whether the
/// last block is still open, i.e. lines were seen after the last blank line).
fn sse_tail_state(body: &[u8]) -> (&'static str, bool, bool) {
    let lines = sse_lines(body);
    let line_end = lines
        .iter()
        .find(|(_, end, next)| next > end)
        .map(|&(_, end, next)| {
            if &body[end..next] == b"\r\n" {
                "\r\n"
            } else if &body[end..next] == b"\r" {
                "\r"
            } else {
                "\n"
            }
        })
        .unwrap_or("\n");
    let terminated = lines.last().is_none_or(|(_, end, next)| next > end);
    let in_block = lines.last().is_some_and(|(start, end, _)| end > start);
    (line_end, terminated, in_block)
}

pub(crate) fn insert_malformed_sse(body: &[u8], after_events: usize) -> Vec<u8> {
    let (default_end, _, _) = sse_tail_state(body);
    let insert = |out: &mut Vec<u8>, line_end: &str| {
        out.extend_from_slice(format!("{MALFORMED_SSE_LINE}{line_end}{line_end}").as_bytes());
    };
    if after_events == 0 {
        let mut out = Vec::with_capacity(body.len() + 32);
        insert(&mut out, default_end);
        out.extend_from_slice(body);
        return out;
    }
    let mut events = 0;
    let mut block_has_field = false;
    for (start, end, next) in sse_lines(body) {
        if start == end {
            if block_has_field {
                events += 1;
                block_has_field = false;
                if events == after_events {
                    let line_end = std::str::from_utf8(&body[end..next]).unwrap_or("\n");
                    let line_end = if line_end.is_empty() { "\n" } else { line_end };
                    let mut out = Vec::with_capacity(body.len() + 32);
                    out.extend_from_slice(&body[..next]);
                    insert(&mut out, line_end);
                    out.extend_from_slice(&body[next..]);
                    return out;
                }
            }
        } else if body[start] != b':' {
            block_has_field = true;
        }
    }
    // Fewer events than asked: close whatever is open and put it last.
    let (line_end, terminated, in_block) = sse_tail_state(body);
    let mut out = body.to_vec();
    if !terminated {
        out.extend_from_slice(line_end.as_bytes());
    }
    if in_block {
        out.extend_from_slice(line_end.as_bytes());
    }
    insert(&mut out, line_end);
    out
}

pub(crate) fn insert_malformed_ndjson(body: &[u8], after_lines: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(body.len() + 16);
    let mut seen = 0;
    let mut pos = 0;
    while seen < after_lines && pos < body.len() {
        match body[pos..].iter().position(|&b| b == b'\n') {
            Some(i) => {
                pos += i + 1;
                seen += 1;
            }
            None => {
                pos = body.len();
                seen += 1;
            }
        }
    }
    out.extend_from_slice(&body[..pos]);
    if pos > 0 && body[pos - 1] != b'\n' {
        out.push(b'\n');
    }
    out.extend_from_slice(MALFORMED_NDJSON_LINE.as_bytes());
    out.push(b'\n');
    out.extend_from_slice(&body[pos..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s<'a>(bytes: impl Into<Cow<'a, [u8]>>) -> String {
        String::from_utf8(bytes.into().into_owned()).unwrap()
    }

    #[test]
    fn jsonl_lines_are_wrapped_without_adding_anything() {
        let out = jsonl_to_sse(b"{\"a\":1}\r\n{\"b\":2}\n\n");
        assert_eq!(s(out), "data: {\"a\":1}\n\ndata: {\"b\":2}\n\n");
    }

    #[test]
    fn malformed_sse_after_second_event() {
        let body = b"event: a\ndata: 1\n\n: keep-alive\n\ndata: 2\n\ndata: 3\n\n";
        let out = insert_malformed_sse(body, 2);
        assert_eq!(
            s(out),
            "event: a\ndata: 1\n\n: keep-alive\n\ndata: 2\n\ndata: {not json\n\ndata: 3\n\n"
        );
    }

    #[test]
    fn malformed_sse_keeps_crlf_and_handles_edges() {
        let body = b"data: 1\r\n\r\ndata: 2\r\n\r\n";
        assert_eq!(
            s(insert_malformed_sse(body, 1)),
            "data: 1\r\n\r\ndata: {not json\r\n\r\ndata: 2\r\n\r\n"
        );
        assert_eq!(
            s(insert_malformed_sse(body, 0)),
            "data: {not json\r\n\r\ndata: 1\r\n\r\ndata: 2\r\n\r\n"
        );
        assert_eq!(
            s(insert_malformed_sse(b"data: 1\n\ndata: 2", 5)),
            "data: 1\n\ndata: 2\n\ndata: {not json\n\n"
        );
    }

    #[test]
    fn malformed_ndjson_after_lines() {
        let body = b"{\"a\":1}\n{\"b\":2}\n";
        assert_eq!(
            s(insert_malformed_ndjson(body, 1)),
            "{\"a\":1}\n{not json\n{\"b\":2}\n"
        );
        assert_eq!(
            s(insert_malformed_ndjson(body, 0)),
            "{not json\n{\"a\":1}\n{\"b\":2}\n"
        );
        assert_eq!(
            s(insert_malformed_ndjson(b"{\"a\":1}", 3)),
            "{\"a\":1}\n{not json\n"
        );
    }

    #[test]
    fn with_done_appends_after_a_closed_event() {
        let reply = Reply::sse_data_lines("{\"x\":1}\n").with_done();
        assert_eq!(
            s(reply.served_body()),
            "data: {\"x\":1}\n\ndata: [DONE]\n\n"
        );
        let reply = Reply::sse("data: 1\n").with_done();
        assert_eq!(s(reply.served_body()), "data: 1\n\ndata: [DONE]\n\n");
    }

    #[test]
    fn chunked_by_default_only_for_streams() {
        assert!(Reply::sse("").is_chunked());
        assert!(Reply::ndjson("").is_chunked());
        assert!(!Reply::json(200, serde_json::json!({})).is_chunked());
        assert!(
            Reply::json(200, serde_json::json!({}))
                .chunked(true)
                .is_chunked()
        );
        assert!(
            Reply::body(200, "text/event-stream; charset=utf-8", "").is_chunked(),
            "parameters after the media type are ignored"
        );
    }

    #[test]
    fn ending_takes_the_earlier_fault() {
        assert_eq!(Reply::sse("").ending(), Ending::Complete);
        assert_eq!(Reply::sse("").cut_after(5).ending(), Ending::Cut(5));
        assert_eq!(
            Reply::sse("").cut_after(5).stall_after(3).ending(),
            Ending::Stall(3)
        );
        assert_eq!(
            Reply::sse("").cut_after(5).stall_after(9).ending(),
            Ending::Cut(5)
        );
    }

    #[test]
    fn every_fixture_loads() {
        let dir = crate::fixtures_dir();
        let mut count = 0;
        for folder in std::fs::read_dir(&dir).unwrap() {
            let folder = folder.unwrap().path();
            if !folder.is_dir() || folder.ends_with("LICENSES") {
                continue;
            }
            for file in std::fs::read_dir(&folder).unwrap() {
                let file = file.unwrap().path();
                let reply = Reply::fixture(&file).unwrap();
                assert_eq!(reply.status_code(), 200);
                assert!(!reply.served_body().is_empty(), "{}", file.display());
                count += 1;
            }
        }
        assert!(
            count > 50,
            "only {count} fixtures found in {}",
            dir.display()
        );
    }

    #[test]
    fn relative_fixture_paths_fall_back_to_the_fixtures_dir() {
        let reply =
            Reply::fixture("ollama/attogram-ollama-generate-gpt-oss-120b-thinking-stream.ndjson")
                .unwrap();
        assert_eq!(reply.content_type(), NDJSON);
        let err = Reply::fixture("SOURCES.md").unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::InvalidInput);
        let err = Reply::fixture("nope/missing.sse").unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::NotFound);
    }
}
