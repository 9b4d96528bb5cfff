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

/// What the archive `reader` holds to import: Ponder's own backup (`backup.json` and its
/// files under `files/<sha256>`), or another app's export (its `conversations.json`).
pub fn unpack<R: Read + Seek>(reader: R) -> Result<super::Export, ImportError> {
    let mut archive = zip::ZipArchive::new(reader).map_err(damaged)?;
    if archive.index_for_name("backup.json").is_none() {
        return Ok(super::Export {
            json: conversations(&mut archive)?,
            files: std::collections::HashMap::new(),
        });
    }
    let json = entry(&mut archive, "backup.json", MAX_IMPORT_BYTES as u64)?;
    let names: Vec<String> = archive
        .file_names()
        .filter_map(Result::ok)
        .filter(|n| {
            n.strip_prefix("files/")
                .is_some_and(|h| crate::attachments::is_lower_hex(h, 64))
        })
        .map(|n| n.into_owned())
        .collect();
    let mut files = std::collections::HashMap::new();
    for name in names {
        let bytes = entry(&mut archive, &name, crate::attachments::MAX_FILE_BYTES)?;
        files.insert(name["files/".len()..].to_owned(), bytes);
    }
    Ok(super::Export { json, files })
}

/// The bytes of the export's conversations file.
fn conversations<R: Read + Seek>(archive: &mut zip::ZipArchive<R>) -> Result<Vec<u8>, ImportError> {
    // The shallowest `conversations.json`: an export may sit in a folder of its own.
    let name = archive
        .file_names()
        .filter_map(Result::ok)
        .filter(|n| n == "conversations.json" || n.ends_with("/conversations.json"))
        .min_by_key(|n| n.matches('/').count())
        .map(|n| n.into_owned())
        .ok_or(ImportError::NoConversations)?;
    entry(archive, &name, MAX_IMPORT_BYTES as u64)
}

/// One entry's bytes, refused when it declares more than `cap` or would grow more than a
/// real export does; reading stops at the cap whatever the archive's directory says.
fn entry<R: Read + Seek>(
    archive: &mut zip::ZipArchive<R>,
    name: &str,
    cap: u64,
) -> Result<Vec<u8>, ImportError> {
    let entry = archive.by_name(name).map_err(damaged)?;
    let size = entry.size();
    if size > cap {
        return Err(ImportError::TooLarge {
            size: usize::try_from(size).unwrap_or(usize::MAX),
        });
    }
    let ratio = size / entry.compressed_size().max(1);
    if size > 1024 * 1024 && ratio > MAX_RATIO {
        return Err(ImportError::Bomb {
            name: name.to_owned(),
            ratio,
        });
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    entry
        .take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ImportError::Archive(format!("{name} could not be read: {e}")))?;
    if bytes.len() as u64 > cap {
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
            unpack(fixture("chatgpt-export.zip")).unwrap().json,
            json("chatgpt-conversations.json")
        );
        assert_eq!(
            unpack(fixture("claude-export.zip")).unwrap().json,
            json("claude-conversations.json")
        );
    }

    #[test]
    fn a_bomb_a_cut_archive_and_one_without_conversations_are_refused_with_what_is_wrong() {
        let err = unpack(fixture("bomb.zip")).unwrap_err();
        assert!(
            err.to_string()
                .contains("conversations.json would grow 1028 times"),
            "{err}"
        );
        let mut cut = Vec::new();
        fixture("chatgpt-export.zip").read_to_end(&mut cut).unwrap();
        cut.truncate(cut.len() / 2);
        let err = unpack(std::io::Cursor::new(cut)).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("the .zip is damaged or cut short"),
            "{err}"
        );
        let err = unpack(fixture("no-conversations.zip")).unwrap_err();
        assert!(
            err.to_string().contains("holds no conversations.json"),
            "{err}"
        );
        assert!(is_zip(b"PK\x03\x04rest"));
        assert!(!is_zip(b"{\"format\""));
    }
}
