//! A data export as the providers deliver it: a `.zip` holding `conversations.json` (ChatGPT:
//! with images and files beside it; Claude: with `projects.json` and `users.json`). The
//! archive is only read: its conversations file is found by name and read into memory, never
//! written anywhere, so no path inside it can point outside. A zip bomb is refused from its
//! directory before anything is inflated (a declared size over the cap, or a ratio no text
//! compresses to), and reading stops at the cap whatever the directory says.

use std::io::{Read, Seek};

use super::{ImportError, MAX_IMPORT_BYTES};

/// How much smaller than itself deflate makes real JSON, at the very most. Exports of real
/// conversations compress about 5 to 10 times; a thousand times is a bomb.
const MAX_RATIO: u64 = 200;

/// Whether `head` (a file's first bytes) starts a zip archive.
pub fn is_zip(head: &[u8]) -> bool {
    head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06")
}

/// The bytes of the export's conversations file, from the archive `reader`.
pub fn conversations<R: Read + Seek>(reader: R) -> Result<Vec<u8>, ImportError> {
    let mut archive = zip::ZipArchive::new(reader).map_err(damaged)?;
    // The shallowest `conversations.json`: an export may sit in a folder of its own.
    let name = archive
        .file_names()
        .filter_map(Result::ok)
        .filter(|n| n == "conversations.json" || n.ends_with("/conversations.json"))
        .min_by_key(|n| n.matches('/').count())
        .map(|n| n.into_owned())
        .ok_or(ImportError::NoConversations)?;
    let entry = archive.by_name(&name).map_err(damaged)?;
    let size = entry.size();
    if size > MAX_IMPORT_BYTES as u64 {
        return Err(ImportError::TooLarge {
            size: usize::try_from(size).unwrap_or(usize::MAX),
        });
    }
    if size > 1024 * 1024 && size / entry.compressed_size().max(1) > MAX_RATIO {
        return Err(ImportError::Bomb {
            name,
            ratio: size / entry.compressed_size().max(1),
        });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    entry
        .take(MAX_IMPORT_BYTES as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ImportError::Archive(format!("{name} could not be read: {e}")))?;
    if bytes.len() > MAX_IMPORT_BYTES {
        return Err(ImportError::TooLarge { size: bytes.len() });
    }
    Ok(bytes)
}

fn damaged(e: zip::result::ZipError) -> ImportError {
    ImportError::Archive(e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> std::fs::File {
        std::fs::File::open(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../tests/fixtures/imports")
                .join(name),
        )
        .unwrap()
    }

    #[test]
    fn the_conversations_file_is_found_in_each_providers_archive() {
        let json = |name: &str| {
            std::fs::read(
                std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("../../tests/fixtures/imports")
                    .join(name),
            )
            .unwrap()
        };
        assert_eq!(
            conversations(fixture("chatgpt-export.zip")).unwrap(),
            json("chatgpt-conversations.json")
        );
        assert_eq!(
            conversations(fixture("claude-export.zip")).unwrap(),
            json("claude-conversations.json")
        );
    }

    #[test]
    fn a_bomb_a_cut_archive_and_one_without_conversations_are_refused_with_what_is_wrong() {
        let err = conversations(fixture("bomb.zip")).unwrap_err();
        assert!(
            err.to_string()
                .contains("conversations.json would grow 1028 times"),
            "{err}"
        );
        let mut cut = Vec::new();
        fixture("chatgpt-export.zip").read_to_end(&mut cut).unwrap();
        cut.truncate(cut.len() / 2);
        let err = conversations(std::io::Cursor::new(cut)).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("the .zip is damaged or cut short"),
            "{err}"
        );
        let err = conversations(fixture("no-conversations.zip")).unwrap_err();
        assert!(
            err.to_string().contains("holds no conversations.json"),
            "{err}"
        );
        assert!(is_zip(b"PK\x03\x04rest"));
        assert!(!is_zip(b"{\"format\""));
    }
}
