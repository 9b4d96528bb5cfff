//! Server-Sent Events framing, after the WHATWG "interpreting an event stream" rules.
//!
//! The decoder is push-based and synchronous so that the HTTP layer can hand it whatever
//! chunks the network delivers, and so that tests can feed any split of a recorded stream.
//! It works on bytes and decodes only complete lines: line terminators and `:` are ASCII,
//! which never occur inside a multi-byte UTF-8 sequence, so decoding line by line gives
//! the same text as decoding the whole body at once.
//!
//! Ours rather than an SSE crate: those wrap an async byte stream, while this one is fed
//! whatever split the network (or a test) delivers and runs per chunk, not per event, on the
//! hottest path of a turn (`cargo bench --bench decode` measures it).

use std::mem;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent {
    /// The `event:` field; `None` for the default `message` type.
    pub event: Option<String>,
    /// All `data:` lines of the event, joined with `\n`.
    pub data: String,
    /// The last event ID in force when the event was dispatched. As in EventSource it
    /// carries over to later events until another `id:` replaces it; `None` when unset or
    /// set to the empty string.
    pub id: Option<String>,
}

impl SseEvent {
    /// OpenAI-style streams end with `data: [DONE]`; it is not JSON, so callers check first.
    pub fn is_done(&self) -> bool {
        self.data == "[DONE]"
    }
}

/// One dispatched event, borrowed from the decoder until the next byte is fed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SseRef<'a> {
    pub event: Option<&'a str>,
    pub data: &'a str,
    pub id: Option<&'a str>,
}

impl SseRef<'_> {
    pub fn to_event(self) -> SseEvent {
        SseEvent {
            event: self.event.map(str::to_owned),
            data: self.data.to_owned(),
            id: self.id.map(str::to_owned),
        }
    }
}

/// Incremental decoder: bytes in, [`SseEvent`]s out, whatever the chunking.
#[derive(Debug, Default)]
pub struct SseDecoder {
    /// Bytes of a line whose terminator has not arrived yet.
    partial: Vec<u8>,
    /// The previous chunk ended in `\r`, so a `\n` opening the next one belongs to it.
    skip_lf: bool,
    /// The stream's first bytes have been checked for a byte order mark.
    bom_checked: bool,
    fields: EventFields,
}

/// The buffers the spec keeps between lines of one event.
#[derive(Debug, Default)]
struct EventFields {
    /// Every data line followed by `\n`, so that a lone `data:` still counts as data.
    data: String,
    event_type: String,
    last_event_id: String,
}

impl SseDecoder {
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds bytes; completed events are appended to `out`.
    pub fn feed(&mut self, chunk: &[u8], out: &mut Vec<SseEvent>) {
        self.feed_each(chunk, |event| out.push(event.to_event()));
    }

    /// Feeds bytes; each completed event is handed to `on_event`, borrowed from the
    /// decoder's buffers or from `chunk` itself: nothing is allocated or copied per event on
    /// the stream's hot path.
    pub fn feed_each(&mut self, chunk: &[u8], mut on_event: impl FnMut(SseRef<'_>)) {
        let mut rest = chunk;
        if !self.bom_checked {
            rest = self.strip_bom(rest);
        }
        if self.skip_lf {
            let Some((&first, after)) = rest.split_first() else {
                return;
            };
            self.skip_lf = false;
            if first == b'\n' {
                rest = after;
            }
        }
        // The chunk is checked as text once: a line inside its valid part is a slice of it
        // (the terminators are ASCII, so they fall between characters), not checked again.
        let text = match simdutf8::compat::from_utf8(rest) {
            Ok(text) => text,
            Err(e) => simdutf8::basic::from_utf8(&rest[..e.valid_up_to()]).unwrap_or_default(),
        };
        // The one data line of the event being read, while it is still in `chunk`.
        let mut held: Option<&str> = None;
        // Most streams end their lines with `\n` alone: one look for a `\r` in the whole chunk
        // lets every line end be found by the faster search for one byte.
        let find_line_end = if memchr::memchr(b'\r', rest).is_some() {
            find_line_end_any
        } else {
            find_line_end_lf
        };
        let mut at = 0;
        // The blank line that ends each event is found without a search.
        let next_line_end = |at: usize| match rest.get(at) {
            Some(b'\n') => Some(0),
            Some(_) => find_line_end(&rest[at..]),
            None => None,
        };
        while let Some(found) = next_line_end(at) {
            let end = at + found;
            match text.get(at..end).filter(|_| self.partial.is_empty()) {
                Some(line) => self.fields.take_text_line(line, &mut held, &mut on_event),
                None => {
                    self.fields.release(&mut held);
                    if self.partial.is_empty() {
                        self.fields.take_line(&rest[at..end], &mut on_event);
                    } else {
                        self.partial.extend_from_slice(&rest[at..end]);
                        self.fields.take_line(&self.partial, &mut on_event);
                        self.partial.clear();
                    }
                }
            }
            at = end + 1;
            if rest[end] == b'\r' {
                match rest.get(at) {
                    Some(b'\n') => at += 1,
                    None => self.skip_lf = true,
                    Some(_) => {}
                }
            }
        }
        self.fields.release(&mut held);
        self.partial.extend_from_slice(&rest[at..]);
    }

    /// Bytes held for the event being read: its unfinished line and its data so far.
    pub fn held_bytes(&self) -> usize {
        self.partial.len() + self.fields.data.len()
    }

    /// End of stream: dispatches a final event that had no trailing blank line.
    ///
    /// The spec discards such an event, but servers and proxies that drop the last blank
    /// line are common enough that losing the final chunk (often the usage or `[DONE]`) would
    /// be worse. The decoder is reset afterwards and can decode a new stream.
    pub fn finish(&mut self, out: &mut Vec<SseEvent>) {
        self.finish_each(|event| out.push(event.to_event()));
    }

    /// `finish`, handing the last event to `on_event`.
    pub fn finish_each(&mut self, mut on_event: impl FnMut(SseRef<'_>)) {
        if !self.partial.is_empty() {
            let line = mem::take(&mut self.partial);
            self.fields.take_line(&line, &mut on_event);
        }
        self.fields.dispatch(&mut on_event);
        *self = Self::new();
    }

    /// Drops a UTF-8 byte order mark at the very start, even when it arrives a byte at a time.
    /// Bytes that may still turn out to be a BOM wait in `partial`, which is empty at the
    /// start of the stream; once they cannot, they are just the start of the first line.
    fn strip_bom<'a>(&mut self, chunk: &'a [u8]) -> &'a [u8] {
        let wanted = &BOM[self.partial.len()..];
        let common = wanted.len().min(chunk.len());
        if chunk[..common] != wanted[..common] {
            self.bom_checked = true;
            return chunk;
        }
        if common == wanted.len() {
            self.bom_checked = true;
            self.partial.clear();
        } else {
            self.partial.extend_from_slice(&chunk[..common]);
        }
        &chunk[common..]
    }
}

impl EventFields {
    /// Applies one complete line, without its terminator.
    fn take_line(&mut self, line: &[u8], on_event: &mut impl FnMut(SseRef<'_>)) {
        if line.is_empty() {
            self.dispatch(on_event);
            return;
        }
        let (name, value) = match memchr::memchr(b':', line) {
            Some(0) => return, // comment, used by servers as a keep-alive
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &b""[..]),
        };
        match name {
            b"data" => {
                push_text(&mut self.data, value);
                self.data.push('\n');
            }
            b"event" => {
                self.event_type.clear();
                push_text(&mut self.event_type, value);
            }
            // An id with NUL is ignored by the spec so it cannot corrupt the Last-Event-ID header.
            b"id" if !value.contains(&0) => {
                self.last_event_id.clear();
                push_text(&mut self.last_event_id, value);
            }
            // `retry` only matters for reconnecting, which we do not do; other names are unknown.
            _ => {}
        }
    }

    /// `take_line` for a line that is already text and lives as long as `held`: an event's
    /// only data line is held, not copied, and dispatched from where it is.
    fn take_text_line<'c>(
        &mut self,
        line: &'c str,
        held: &mut Option<&'c str>,
        on_event: &mut impl FnMut(SseRef<'_>),
    ) {
        if line.is_empty() {
            match held.take() {
                Some(data) => {
                    on_event(SseRef {
                        event: (!self.event_type.is_empty()).then_some(self.event_type.as_str()),
                        data,
                        id: (!self.last_event_id.is_empty()).then_some(self.last_event_id.as_str()),
                    });
                    self.event_type.clear();
                }
                None => self.dispatch(on_event),
            }
            return;
        }
        // The two fields of nearly every line are told by their first bytes, without a search
        // for the colon (one search per line was a tenth of a long stream's decoding). `:` is
        // ASCII, so a split falls between characters.
        let field = if let Some(value) = line.strip_prefix("data:") {
            Some(("data", value))
        } else if let Some(value) = line.strip_prefix("event:") {
            Some(("event", value))
        } else {
            memchr::memchr(b':', line.as_bytes()).map(|at| (&line[..at], &line[at + 1..]))
        };
        match field {
            Some(("data", value)) => {
                let value = value.strip_prefix(' ').unwrap_or(value);
                if held.is_none() && self.data.is_empty() {
                    *held = Some(value);
                } else {
                    self.release(held);
                    self.data.push_str(value);
                    self.data.push('\n');
                }
            }
            // Already text: named without checking it again or touching what is held.
            Some(("event", value)) => {
                self.event_type.clear();
                self.event_type
                    .push_str(value.strip_prefix(' ').unwrap_or(value));
            }
            // Anything else may add to the data too (`data` without a colon): what is held
            // goes first.
            _ => {
                self.release(held);
                self.take_line(line.as_bytes(), on_event);
            }
        }
    }

    /// Moves a held data line into the buffer, before the line it was borrowed from goes.
    fn release(&mut self, held: &mut Option<&str>) {
        if let Some(data) = held.take() {
            self.data.push_str(data);
            self.data.push('\n');
        }
    }

    /// Hands the event over and empties the buffers, keeping their capacity for the next.
    fn dispatch(&mut self, on_event: &mut impl FnMut(SseRef<'_>)) {
        if self.data.is_empty() {
            // The spec drops events without data lines, so an `event:` alone is never seen.
            self.event_type.clear();
            return;
        }
        on_event(SseRef {
            event: (!self.event_type.is_empty()).then_some(self.event_type.as_str()),
            data: &self.data[..self.data.len() - 1],
            id: (!self.last_event_id.is_empty()).then_some(self.last_event_id.as_str()),
        });
        self.data.clear();
        self.event_type.clear();
    }
}

/// Appends `bytes` as text, invalid UTF-8 replaced as the spec says. Checking valid text
/// whole is several times faster than the lossy decoder's chunk walk, and nearly every line
/// is valid.
fn push_text(out: &mut String, bytes: &[u8]) {
    match std::str::from_utf8(bytes) {
        Ok(text) => out.push_str(text),
        Err(_) => out.push_str(&String::from_utf8_lossy(bytes)),
    }
}

/// The spec allows `\r\n`, `\n` and a lone `\r`, so both bytes end a line.
fn find_line_end_any(bytes: &[u8]) -> Option<usize> {
    memchr::memchr2(b'\n', b'\r', bytes)
}

/// [`find_line_end_any`] for bytes known to hold no `\r`.
fn find_line_end_lf(bytes: &[u8]) -> Option<usize> {
    memchr::memchr(b'\n', bytes)
}

#[cfg(test)]
mod tests;
