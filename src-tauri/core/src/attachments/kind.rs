//! What a file is, read from its first bytes: the signatures the formats themselves define,
//! never the file's name or a type the sender claims.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "AttachmentKind"))]
pub enum Kind {
    Png,
    Jpeg,
    Gif,
    Webp,
    Pdf,
    /// UTF-8 text (source code, Markdown, CSV, JSON, SVG's XML…), sent as text.
    Text,
}

impl Kind {
    pub fn is_image(self) -> bool {
        matches!(self, Self::Png | Self::Jpeg | Self::Gif | Self::Webp)
    }

    /// The media type providers are told.
    pub fn media_type(self) -> &'static str {
        match self {
            Self::Png => "image/png",
            Self::Jpeg => "image/jpeg",
            Self::Gif => "image/gif",
            Self::Webp => "image/webp",
            Self::Pdf => "application/pdf",
            Self::Text => "text/plain",
        }
    }
}

/// How much of a text file is looked at to tell text from binary: a NUL or invalid UTF-8 in
/// it is binary. (A cut in the middle of a character at the end is allowed.)
const TEXT_PROBE: usize = 64 * 1024;

/// What `bytes` are, or `None` for anything Ponder does not send.
pub fn sniff(bytes: &[u8]) -> Option<Kind> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return Some(Kind::Png);
    }
    if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
        return Some(Kind::Jpeg);
    }
    if bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a") {
        return Some(Kind::Gif);
    }
    if bytes.len() >= 12 && bytes.starts_with(b"RIFF") && &bytes[8..12] == b"WEBP" {
        return Some(Kind::Webp);
    }
    // The header may follow a few bytes of junk; readers look in the first kilobyte.
    if bytes[..bytes.len().min(1024)]
        .windows(5)
        .any(|w| w == b"%PDF-")
    {
        return Some(Kind::Pdf);
    }
    is_text(bytes).then_some(Kind::Text)
}

fn is_text(bytes: &[u8]) -> bool {
    let probe = &bytes[..bytes.len().min(TEXT_PROBE)];
    if probe.contains(&0) {
        return false;
    }
    match std::str::from_utf8(probe) {
        Ok(_) => true,
        // Only a character cut by the probe's end, at the very end.
        Err(e) => e.error_len().is_none() && probe.len() == TEXT_PROBE,
    }
}

/// Whether a PDF has its end-of-file mark near its end, where writers put it (a few bytes of
/// line ends or padding may follow): a file cut in transfer does not.
pub(super) fn pdf_ends(bytes: &[u8]) -> bool {
    let tail = &bytes[bytes.len().saturating_sub(1024)..];
    tail.windows(5).any(|w| w == b"%%EOF")
}
