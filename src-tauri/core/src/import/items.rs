//! A top-level JSON list read one item at a time, so that an export of any size is never in
//! memory whole: each item's bytes are cut out of the stream (strings and nesting followed,
//! nothing parsed) and handed on, with where in the file it began. The bytes are not checked
//! here; the item's own parse finds what is wrong with it and says where.

use std::io::BufRead;

use super::ImportError;

/// The largest one item (one conversation) may be: no real conversation comes near it, and a
/// file that is one endless item is refused at this size instead of filling the memory.
pub const MAX_ITEM_BYTES: usize = 128 * 1024 * 1024;

/// Where in the file something is: its byte, and its line and column (both from 1), as an
/// editor would show them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Place {
    pub offset: u64,
    pub line: u64,
    pub column: u64,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

impl Place {
    /// The place `line` and `column` of a parse error inside an item name, for an item that
    /// began here.
    pub fn within(self, line: usize, column: usize) -> Place {
        let (line, column) = (line as u64, column as u64);
        if line <= 1 {
            Place {
                column: self.column + column.saturating_sub(1),
                ..self
            }
        } else {
            Place {
                line: self.line + line - 1,
                column,
                ..self
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before the list's `[`.
    Start,
    /// After `[`: an item or `]`.
    First,
    /// After an item: `,` or `]`.
    Between,
    Done,
}

/// The items of the list `reader` holds.
pub struct Items<R> {
    reader: R,
    state: State,
    /// How many items were handed out.
    pub count: usize,
    /// The first byte not yet read, as a place.
    at: Place,
    max_item: usize,
}

impl<R: BufRead> Items<R> {
    pub fn new(reader: R) -> Self {
        Self::with_limit(reader, MAX_ITEM_BYTES)
    }

    pub fn with_limit(reader: R, max_item: usize) -> Self {
        Self {
            reader,
            state: State::Start,
            count: 0,
            at: Place {
                offset: 0,
                line: 1,
                column: 1,
            },
            max_item,
        }
    }

    /// How many bytes were read.
    pub fn offset(&self) -> u64 {
        self.at.offset
    }

    /// The next item into `item` (cleared first) and where it began; `None` after the list's
    /// `]` (and nothing but white space after it).
    pub fn next_into(&mut self, item: &mut Vec<u8>) -> Result<Option<Place>, ImportError> {
        item.clear();
        loop {
            match self.state {
                State::Done => return Ok(None),
                State::Start => {
                    if self.at.offset == 0 {
                        self.skip_bom()?;
                    }
                    match self.peek_token()? {
                        Some(b'[') => {
                            self.consume(1);
                            self.state = State::First;
                        }
                        found => return Err(self.unexpected(found, "a list of conversations")),
                    }
                }
                State::First | State::Between => {
                    let Some(byte) = self.peek_token()? else {
                        return Err(self.cut());
                    };
                    match (self.state, byte) {
                        (_, b']') => {
                            self.consume(1);
                            self.state = State::Done;
                            return match self.peek_token()? {
                                None => Ok(None),
                                found => Err(self.unexpected(found, "nothing after the list")),
                            };
                        }
                        (State::Between, b',') => {
                            self.consume(1);
                            if self.peek_token()? == Some(b']') {
                                return Err(self.unexpected(Some(b']'), "another item"));
                            }
                            self.state = State::First;
                        }
                        (State::Between, other) => {
                            return Err(self.unexpected(Some(other), "a comma or the list's end"));
                        }
                        (_, _) => {
                            let start = self.at;
                            self.item(item)?;
                            self.count += 1;
                            self.state = State::Between;
                            return Ok(Some(start));
                        }
                    }
                }
            }
        }
    }

    /// A byte-order mark is not part of the JSON (nor of a column an editor counts).
    fn skip_bom(&mut self) -> Result<(), ImportError> {
        for (i, byte) in b"\xEF\xBB\xBF".iter().enumerate() {
            let found = self.fill()?.first().copied();
            if found == Some(*byte) {
                self.reader.consume(1);
                self.at.offset += 1;
            } else if i == 0 {
                return Ok(());
            } else {
                return Err(self.unexpected(found, "the rest of a byte-order mark"));
            }
        }
        Ok(())
    }

    /// One item's bytes: an object or list to its matching end, a string to its quote, or a
    /// bare word (a number, `true`…) to the next delimiter.
    fn item(&mut self, item: &mut Vec<u8>) -> Result<(), ImportError> {
        let first = self.fill()?[0];
        let mut depth: u32 = 0;
        let mut in_string = false;
        let mut escaped = false;
        let bare = !matches!(first, b'{' | b'[' | b'"');
        let (max_item, index) = (self.max_item, self.count);
        loop {
            let buf = self.fill()?;
            if buf.is_empty() {
                if bare && !item.is_empty() {
                    return Ok(());
                }
                return Err(self.cut());
            }
            let mut end = None;
            let mut i = 0;
            while i < buf.len() {
                if in_string {
                    if escaped {
                        escaped = false;
                        i += 1;
                        continue;
                    }
                    // Most of an export is text: jump to the next quote or backslash.
                    match memchr::memchr2(b'"', b'\\', &buf[i..]) {
                        None => {
                            i = buf.len();
                            continue;
                        }
                        Some(n) => i += n,
                    }
                    if buf[i] == b'\\' {
                        escaped = true;
                    } else {
                        in_string = false;
                        if depth == 0 {
                            end = Some(i + 1);
                            break;
                        }
                    }
                    i += 1;
                    continue;
                }
                match buf[i] {
                    b'"' => in_string = true,
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' if bare => {
                        end = Some(i);
                        break;
                    }
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            end = Some(i + 1);
                            break;
                        }
                    }
                    b',' | b' ' | b'\t' | b'\r' | b'\n' if bare => {
                        end = Some(i);
                        break;
                    }
                    _ => {}
                }
                i += 1;
            }
            let take = end.unwrap_or(buf.len());
            if item.len() + take > max_item {
                return Err(ImportError::ItemTooLarge {
                    index,
                    max_mib: max_item / (1024 * 1024),
                });
            }
            item.extend_from_slice(&buf[..take]);
            self.consume(take);
            if end.is_some() {
                return Ok(());
            }
        }
    }

    /// The next byte that is not white space, left to read.
    fn peek_token(&mut self) -> Result<Option<u8>, ImportError> {
        loop {
            let buf = self.fill()?;
            let Some(&byte) = buf.first() else {
                return Ok(None);
            };
            if !byte.is_ascii_whitespace() {
                return Ok(Some(byte));
            }
            let blank = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
            self.consume(blank);
        }
    }

    fn fill(&mut self) -> Result<&[u8], ImportError> {
        self.reader.fill_buf().map_err(|e| ImportError::Unreadable {
            path: "the file".to_owned(),
            reason: e.to_string(),
        })
    }

    /// Marks `n` bytes of the buffer read, following lines for [`Place`].
    fn consume(&mut self, n: usize) {
        let Ok(buf) = self.reader.fill_buf() else {
            return;
        };
        let bytes = &buf[..n];
        match memchr::memrchr(b'\n', bytes) {
            Some(last) => {
                self.at.line += memchr::memchr_iter(b'\n', bytes).count() as u64;
                self.at.column = (n - last) as u64;
            }
            None => self.at.column += n as u64,
        }
        self.at.offset += n as u64;
        self.reader.consume(n);
    }

    fn cut(&self) -> ImportError {
        ImportError::Truncated {
            line: usize::try_from(self.at.line).unwrap_or(usize::MAX),
        }
    }

    fn unexpected(&self, found: Option<u8>, wanted: &str) -> ImportError {
        match found {
            None => self.cut(),
            Some(byte) => ImportError::NotJson(format!(
                "at {} there is {}, where {wanted} should be",
                self.at,
                shown(byte)
            )),
        }
    }
}

fn shown(byte: u8) -> String {
    if byte.is_ascii_graphic() {
        format!("{:?}", byte as char)
    } else {
        format!("the byte 0x{byte:02x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn items(text: &[u8], chunk: usize) -> Result<Vec<(String, Place)>, ImportError> {
        let reader = std::io::BufReader::with_capacity(chunk, text);
        let mut items = Items::new(reader);
        let mut out = Vec::new();
        let mut item = Vec::new();
        while let Some(place) = items.next_into(&mut item)? {
            out.push((String::from_utf8(item.clone()).unwrap(), place));
        }
        Ok(out)
    }

    #[test]
    fn each_item_is_cut_whole_whatever_the_buffer_size() {
        let text = "\u{feff}[ {\"a\": \"x]}\\\"{\", \"b\": [1, {\"c\": []}]},\n  [\"\\\\\"], \"s,]\" ,12 , true,{} ]\n";
        let want = [
            "{\"a\": \"x]}\\\"{\", \"b\": [1, {\"c\": []}]}",
            "[\"\\\\\"]",
            "\"s,]\"",
            "12",
            "true",
            "{}",
        ];
        for chunk in [1, 2, 3, 7, 64, 4096] {
            let got = items(text.as_bytes(), chunk).unwrap();
            let texts: Vec<&str> = got.iter().map(|(t, _)| t.as_str()).collect();
            assert_eq!(texts, want, "buffer of {chunk}");
            assert_eq!(got[1].1.line, 2, "buffer of {chunk}");
            assert_eq!(got[1].1.column, 3, "buffer of {chunk}");
        }
        assert!(items(b"[]", 8).unwrap().is_empty());
        assert!(items(b" [ \n ] \n", 8).unwrap().is_empty());
    }

    #[test]
    fn a_broken_list_says_where() {
        let cases: [(&[u8], &str); 7] = [
            (b"[{\"a\": 1}", "cut short"),
            (b"[{\"a\": \"open", "cut short"),
            (b"", "cut short"),
            (
                b"[{}, ]",
                "at line 1, column 6 there is ']', where another item should be",
            ),
            (b"[{} {}]", "where a comma or the list's end should be"),
            (b"[{}] x", "where nothing after the list should be"),
            (b"\x00\x00", "at line 1, column 1 there is the byte 0x00"),
        ];
        for (text, says) in cases {
            let err = items(text, 3).unwrap_err().to_string();
            assert!(
                err.contains(says),
                "{:?}: {err}",
                String::from_utf8_lossy(text)
            );
        }
    }

    #[test]
    fn an_endless_item_is_refused_at_the_limit_without_reading_on() {
        // Twice the limit of one open string: refused once the limit is passed.
        let mut text = b"[{}, \"".to_vec();
        text.resize(1 << 20, b'x');
        let mut items = Items::with_limit(std::io::BufReader::new(&text[..]), 64 * 1024);
        let mut item = Vec::new();
        assert!(items.next_into(&mut item).unwrap().is_some());
        let err = items.next_into(&mut item).unwrap_err();
        assert!(
            matches!(err, ImportError::ItemTooLarge { index: 1, .. }),
            "{err}"
        );
        assert!(items.offset() < 200 * 1024, "read on to {}", items.offset());
    }

    #[test]
    fn a_place_inside_an_item_is_a_place_in_the_file() {
        let start = Place {
            offset: 100,
            line: 3,
            column: 10,
        };
        assert_eq!(start.within(1, 5).column, 14);
        assert_eq!(start.within(1, 5).line, 3);
        assert_eq!(
            start.within(4, 2),
            Place {
                offset: 100,
                line: 6,
                column: 2
            }
        );
    }
}
