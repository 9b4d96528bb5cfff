//! Reading one HTTP/1.1 request off a socket, and what the mock remembers of it.

use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};

/// Request heads larger than this are refused with 431.
pub(crate) const MAX_HEAD: usize = 64 * 1024;
/// Request bodies larger than this are refused with 413.
pub(crate) const MAX_BODY: usize = 64 * 1024 * 1024;

/// One request as the mock received it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedRequest {
    /// `GET`, `POST`, … as sent.
    pub method: String,
    /// The path, without the query string (`/v1/messages`).
    pub path: String,
    /// The query string without the `?` (`alt=sse`), empty when there is none.
    pub query: String,
    /// Header names lower-cased, values trimmed, in the order received.
    pub headers: Vec<(String, String)>,
    /// The body, de-chunked when it was sent with `Transfer-Encoding: chunked`.
    pub body: Vec<u8>,
}

impl RecordedRequest {
    /// The body parsed as JSON.
    ///
    /// # Panics
    /// When the body is not JSON (this is a test helper; the panic shows the body).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "request body of {} {} is not JSON ({e}): {:?}",
                self.method,
                self.path,
                self.body_text()
            )
        })
    }

    /// The body as text (invalid UTF-8 replaced).
    pub fn body_text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The first value of this header, the name matched case-insensitively.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// `{method, path, query, headers, body}` as written by the binary's `--record`:
    /// `headers` is an object (repeated names joined with `, `), `body` is the parsed JSON
    /// when the body is JSON, else the body as a string.
    pub fn to_json(&self) -> serde_json::Value {
        let mut headers = serde_json::Map::new();
        for (name, value) in &self.headers {
            match headers.get_mut(name) {
                Some(serde_json::Value::String(existing)) => {
                    existing.push_str(", ");
                    existing.push_str(value);
                }
                _ => {
                    headers.insert(name.clone(), serde_json::Value::String(value.clone()));
                }
            }
        }
        let body = serde_json::from_slice(&self.body)
            .unwrap_or_else(|_| serde_json::Value::String(self.body_text()));
        serde_json::json!({
            "method": self.method,
            "path": self.path,
            "query": self.query,
            "headers": headers,
            "body": body,
        })
    }
}

/// Why a request could not be read.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// The socket failed, timed out, or closed before a whole request arrived.
    Io,
    /// The request was malformed or too large; answer with this status and message.
    Bad(u16, String),
}

impl From<std::io::Error> for ReadError {
    fn from(_: std::io::Error) -> ReadError {
        ReadError::Io
    }
}

/// A buffered reader over the connection, every read bounded by a timeout.
pub(crate) struct Reader<R> {
    inner: R,
    buf: Vec<u8>,
    timeout: Duration,
}

impl<R: AsyncRead + Unpin> Reader<R> {
    pub(crate) fn new(inner: R, timeout: Duration) -> Reader<R> {
        Reader {
            inner,
            buf: Vec::new(),
            timeout,
        }
    }

    /// Reads more bytes into the buffer; an error at end of stream.
    async fn fill(&mut self) -> Result<(), ReadError> {
        let mut chunk = [0u8; 8192];
        let n = tokio::time::timeout(self.timeout, self.inner.read(&mut chunk))
            .await
            .map_err(|_| ReadError::Io)??;
        if n == 0 {
            return Err(ReadError::Io);
        }
        self.buf.extend_from_slice(&chunk[..n]);
        Ok(())
    }

    /// One line ending in `\n` (the `\r\n` or `\n` stripped), at most `limit` bytes.
    async fn line(&mut self, limit: usize) -> Result<Vec<u8>, ReadError> {
        loop {
            if let Some(i) = self.buf.iter().position(|&b| b == b'\n') {
                let mut line: Vec<u8> = self.buf.drain(..=i).collect();
                line.pop();
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Ok(line);
            }
            if self.buf.len() > limit {
                return Err(ReadError::Bad(
                    431,
                    "request line or header too long".into(),
                ));
            }
            self.fill().await?;
        }
    }

    async fn exact(&mut self, n: usize) -> Result<Vec<u8>, ReadError> {
        while self.buf.len() < n {
            self.fill().await?;
        }
        Ok(self.buf.drain(..n).collect())
    }

    /// Reads one whole request: head and body.
    #[cfg(test)]
    pub(crate) async fn request(&mut self) -> Result<RecordedRequest, ReadError> {
        let mut request = self.head().await?;
        self.body(&mut request).await?;
        Ok(request)
    }

    /// Reads the request line and the headers; the body is left empty.
    pub(crate) async fn head(&mut self) -> Result<RecordedRequest, ReadError> {
        let mut head_size = 0;
        // Tolerate stray empty lines before the request line (RFC 9112 §2.2).
        let request_line = loop {
            let line = self.line(MAX_HEAD).await?;
            head_size += line.len() + 2;
            if !line.is_empty() {
                break line;
            }
            if head_size > MAX_HEAD {
                return Err(ReadError::Bad(400, "no request line".into()));
            }
        };
        let request_line = String::from_utf8_lossy(&request_line).into_owned();
        let mut parts = request_line.split_whitespace();
        let (Some(method), Some(target), Some(version)) =
            (parts.next(), parts.next(), parts.next())
        else {
            return Err(ReadError::Bad(
                400,
                format!("malformed request line {request_line:?}"),
            ));
        };
        if !version.starts_with("HTTP/1.") {
            return Err(ReadError::Bad(
                505,
                format!("unsupported version {version}"),
            ));
        }
        let (path, query) = split_target(target);

        let mut headers = Vec::new();
        loop {
            let line = self.line(MAX_HEAD).await?;
            head_size += line.len() + 2;
            if head_size > MAX_HEAD {
                return Err(ReadError::Bad(431, "request head too large".into()));
            }
            if line.is_empty() {
                break;
            }
            let line = String::from_utf8_lossy(&line).into_owned();
            let Some((name, value)) = line.split_once(':') else {
                return Err(ReadError::Bad(400, format!("malformed header {line:?}")));
            };
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
        Ok(RecordedRequest {
            method: method.to_owned(),
            path,
            query,
            headers,
            body: Vec::new(),
        })
    }

    /// Whether the body of this request is still to be read (for `Expect: 100-continue`).
    pub(crate) fn body_pending(&self, request: &RecordedRequest) -> bool {
        let has_body = request.header("transfer-encoding").is_some()
            || request
                .header("content-length")
                .is_some_and(|l| l.trim() != "0");
        has_body && self.buf.is_empty()
    }

    /// Reads the body announced by the head into `request.body`.
    pub(crate) async fn body(&mut self, request: &mut RecordedRequest) -> Result<(), ReadError> {
        let chunked = request
            .header("transfer-encoding")
            .is_some_and(|te| te.to_ascii_lowercase().contains("chunked"));
        if chunked {
            request.body = self.chunked_body().await?;
        } else if let Some(length) = request.header("content-length") {
            let length: usize = length
                .parse()
                .map_err(|_| ReadError::Bad(400, format!("bad content-length {length:?}")))?;
            if length > MAX_BODY {
                return Err(ReadError::Bad(413, "request body too large".into()));
            }
            request.body = self.exact(length).await?;
        }
        Ok(())
    }

    async fn chunked_body(&mut self) -> Result<Vec<u8>, ReadError> {
        let mut body = Vec::new();
        loop {
            let line = self.line(4096).await?;
            let line = String::from_utf8_lossy(&line).into_owned();
            let size = line.split(';').next().unwrap_or("").trim();
            let size = usize::from_str_radix(size, 16)
                .map_err(|_| ReadError::Bad(400, format!("bad chunk size {line:?}")))?;
            if size == 0 {
                // Trailers, up to the blank line.
                while !self.line(MAX_HEAD).await?.is_empty() {}
                return Ok(body);
            }
            if body.len() + size > MAX_BODY {
                return Err(ReadError::Bad(413, "request body too large".into()));
            }
            body.extend(self.exact(size).await?);
            if !self.line(16).await?.is_empty() {
                return Err(ReadError::Bad(
                    400,
                    "chunk data longer than its size".into(),
                ));
            }
        }
    }

    pub(crate) fn into_inner(self) -> R {
        self.inner
    }

    pub(crate) fn get_mut(&mut self) -> &mut R {
        &mut self.inner
    }
}

/// `/path?query` (or an absolute URI, as a proxy would get) to `(path, query)`.
fn split_target(target: &str) -> (String, String) {
    let mut rest = target;
    for scheme in ["http://", "https://"] {
        if let Some(after) = rest.strip_prefix(scheme) {
            rest = after.find('/').map_or("/", |i| &after[i..]);
        }
    }
    let rest = rest.split('#').next().unwrap_or("");
    match rest.split_once('?') {
        Some((path, query)) => (path.to_owned(), query.to_owned()),
        None => (rest.to_owned(), String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn parse(raw: &[u8]) -> Result<RecordedRequest, ReadError> {
        Reader::new(raw, Duration::from_secs(1)).request().await
    }

    #[tokio::test]
    async fn content_length_body() {
        let req = parse(b"POST /v1/messages?beta=true HTTP/1.1\r\nHost: x\r\nX-Api-Key:  k \r\nContent-Length: 2\r\n\r\n{}")
            .await
            .unwrap();
        assert_eq!(req.method, "POST");
        assert_eq!(req.path, "/v1/messages");
        assert_eq!(req.query, "beta=true");
        assert_eq!(req.header("x-api-key"), Some("k"));
        assert_eq!(req.header("X-API-KEY"), Some("k"));
        assert_eq!(req.json(), serde_json::json!({}));
    }

    #[tokio::test]
    async fn chunked_body_with_extension_and_trailer() {
        let req = parse(b"POST /api/chat HTTP/1.1\nTransfer-Encoding: chunked\n\n3;x=y\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: 1\r\n\r\n")
            .await
            .unwrap();
        assert_eq!(req.body, b"abcde");
    }

    #[tokio::test]
    async fn bad_requests() {
        assert!(matches!(
            parse(b"nonsense\r\n\r\n").await,
            Err(ReadError::Bad(400, _))
        ));
        assert!(matches!(
            parse(b"GET / HTTP/1.1\r\nContent-Length: 10\r\n\r\nshort").await,
            Err(ReadError::Io)
        ));
        assert!(matches!(
            parse(b"GET / HTTP/2\r\n\r\n").await,
            Err(ReadError::Bad(505, _))
        ));
    }

    #[test]
    fn targets() {
        assert_eq!(
            split_target("/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse"),
            (
                "/v1beta/models/gemini-2.5-pro:streamGenerateContent".into(),
                "alt=sse".into()
            )
        );
        assert_eq!(
            split_target("http://127.0.0.1:9/api/chat"),
            ("/api/chat".into(), String::new())
        );
        assert_eq!(split_target("http://h"), ("/".into(), String::new()));
    }

    #[test]
    fn record_line_shape() {
        let req = RecordedRequest {
            method: "POST".into(),
            path: "/x".into(),
            query: String::new(),
            headers: vec![
                ("a".into(), "1".into()),
                ("a".into(), "2".into()),
                ("b".into(), "3".into()),
            ],
            body: b"plain".to_vec(),
        };
        assert_eq!(
            req.to_json(),
            serde_json::json!({"method":"POST","path":"/x","query":"","headers":{"a":"1, 2","b":"3"},"body":"plain"})
        );
    }
}
