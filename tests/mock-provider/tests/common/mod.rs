//! A deliberately dumb HTTP/1.1 client side: raw bytes in, raw framing out, so the tests can
//! see exactly what went over the wire (chunk boundaries, missing terminators, resets).
#![allow(dead_code)]

use std::time::Instant;

/// How reading the response ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// The server closed the connection cleanly.
    Eof,
    /// The connection was reset.
    Reset,
    /// Nothing more arrived within the read timeout; the socket is still open.
    TimedOut,
}

/// Raw bytes received, with when each read's bytes arrived.
#[derive(Debug)]
pub struct Received {
    pub bytes: Vec<u8>,
    /// (offset just past the bytes of one read, when it arrived)
    pub arrivals: Vec<(usize, Instant)>,
    pub end: End,
}

impl Received {
    /// When the byte just before `offset` arrived.
    pub fn arrival_of(&self, offset: usize) -> Instant {
        self.arrivals
            .iter()
            .find(|(end, _)| *end >= offset)
            .map(|(_, t)| *t)
            .expect("offset past the received bytes")
    }
}

/// A parsed response, framing kept.
#[derive(Debug)]
pub struct Parsed {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    /// The body, de-chunked.
    pub body: Vec<u8>,
    /// For chunked bodies: each data chunk's (start, end) offsets in the raw bytes.
    pub chunks: Vec<(usize, usize)>,
    /// Whether the body was finished: the zero-size chunk arrived, or Content-Length bytes did.
    pub complete: bool,
}

impl Parsed {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn chunk_sizes(&self) -> Vec<usize> {
        self.chunks.iter().map(|(s, e)| e - s).collect()
    }

    pub fn text(&self) -> String {
        String::from_utf8(self.body.clone()).expect("body is UTF-8")
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Parses whatever arrived. Panics when there is not even a response head.
pub fn parse(raw: &[u8]) -> Parsed {
    let head_end = find(raw, b"\r\n\r\n").expect("no complete response head") + 4;
    let head = std::str::from_utf8(&raw[..head_end]).expect("head is UTF-8");
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap();
    let mut parts = status_line.splitn(3, ' ');
    assert_eq!(
        parts.next(),
        Some("HTTP/1.1"),
        "status line {status_line:?}"
    );
    let status = parts.next().unwrap().parse().unwrap();
    let headers: Vec<(String, String)> = lines
        .filter(|l| !l.is_empty())
        .map(|l| {
            let (n, v) = l.split_once(':').expect("header has a colon");
            (n.trim().to_ascii_lowercase(), v.trim().to_owned())
        })
        .collect();
    let mut parsed = Parsed {
        status,
        headers,
        body: Vec::new(),
        chunks: Vec::new(),
        complete: false,
    };
    let rest = &raw[head_end..];
    if parsed.header("transfer-encoding") == Some("chunked") {
        let mut pos = 0;
        while let Some(line_end) = find(&rest[pos..], b"\r\n") {
            let size_text = std::str::from_utf8(&rest[pos..pos + line_end]).unwrap();
            let size = usize::from_str_radix(size_text, 16).expect("chunk size is hex");
            let data_start = pos + line_end + 2;
            if size == 0 {
                parsed.complete = rest[data_start..].starts_with(b"\r\n");
                break;
            }
            if rest.len() < data_start + size + 2 {
                // A torn chunk: keep what arrived of it.
                parsed
                    .body
                    .extend_from_slice(&rest[data_start.min(rest.len())..]);
                break;
            }
            assert_eq!(&rest[data_start + size..data_start + size + 2], b"\r\n");
            parsed
                .body
                .extend_from_slice(&rest[data_start..data_start + size]);
            parsed
                .chunks
                .push((head_end + data_start, head_end + data_start + size));
            pos = data_start + size + 2;
        }
    } else {
        parsed.body = rest.to_vec();
        let length: Option<usize> = parsed.header("content-length").map(|l| l.parse().unwrap());
        parsed.complete = length == Some(rest.len());
    }
    parsed
}

/// `POST path` with a JSON body, as bytes.
pub fn post(path: &str, body: &str) -> Vec<u8> {
    format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// `GET path`, as bytes.
pub fn get(path: &str) -> Vec<u8> {
    format!("GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").into_bytes()
}

pub fn is_reset(e: &std::io::Error) -> bool {
    matches!(
        e.kind(),
        std::io::ErrorKind::ConnectionReset
            | std::io::ErrorKind::ConnectionAborted
            | std::io::ErrorKind::BrokenPipe
    )
}
