//! A data export as the providers deliver it: a `.zip` holding `conversations.json` (ChatGPT:
//! with images and files beside it; Claude: with `projects.json` and `users.json`). The
//! archive is only read: its conversations file is found by name and streamed as it is
//! inflated, never written anywhere, so no path inside it can point outside. A zip bomb is
//! refused from its directory before anything is inflated (a declared size over the cap, or a
//! ratio no text compresses to), and reading stops at the cap whatever the directory says.

use std::io::{Read, Seek};

use super::entries::{Declared, checked, damaged, entry};
use super::{ImportError, MAX_IMPORT_BYTES};

/// Whether `head` (a file's first bytes) starts a zip archive.
pub fn is_zip(head: &[u8]) -> bool {
    head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06")
}

/// Imports what the archive `reader` holds: Ponder's own backup (`backup.json` and its files
/// under `files/<sha256>`), all or nothing; or another app's export, its `conversations.json`
/// read as it is inflated.
pub fn import<R: Read + Seek>(
    store: &crate::store::Store,
    open: impl Fn() -> std::io::Result<R>,
    watch: &mut super::Watch<'_>,
) -> Result<super::ImportReport, super::Interrupted> {
    let unreadable = |e: std::io::Error| ImportError::Archive(e.to_string());
    let mut archive = zip::ZipArchive::new(open().map_err(unreadable)?).map_err(damaged)?;
    if archive.index_for_name("backup.json").is_some() {
        let export = backup(&mut archive)?;
        return Ok(super::import_with(store, &export.json, &export.files)?);
    }
    let name = conversations_name(&archive)?;
    let index = archive
        .index_for_name(&name)
        .ok_or(ImportError::NoConversations)?;
    let entry = checked(&mut archive, index, u64::MAX)?;
    let total = entry.size();
    let reader = std::io::BufReader::with_capacity(
        256 * 1024,
        Declared {
            inner: entry,
            left: total,
            name: name.clone(),
        },
    );
    // The files and projects beside the conversations are read from a second reading of the
    // archive, as the conversations file streams from the first.
    let beside = zip::ZipArchive::new(open().map_err(unreadable)?).map_err(damaged)?;
    let mut assets = super::assets::ZipAssets::new(beside, store.attachments());
    super::stream::import(store, reader, total, &mut assets, watch)
}

/// Ponder's own backup: `backup.json`, and each file under `files/<sha256>`.
fn backup<R: Read + Seek>(archive: &mut zip::ZipArchive<R>) -> Result<super::Export, ImportError> {
    let json = entry(archive, "backup.json", MAX_IMPORT_BYTES as u64)?;
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
        let bytes = entry(archive, &name, crate::attachments::MAX_FILE_BYTES)?;
        files.insert(name["files/".len()..].to_owned(), bytes);
    }
    Ok(super::Export { json, files })
}

/// The name of the export's conversations file: the shallowest `conversations.json`, as an
/// export may sit in a folder of its own.
fn conversations_name<R: Read + Seek>(archive: &zip::ZipArchive<R>) -> Result<String, ImportError> {
    archive
        .file_names()
        .filter_map(Result::ok)
        .filter(|n| n == "conversations.json" || n.ends_with("/conversations.json"))
        .min_by_key(|n| n.matches('/').count())
        .map(|n| n.into_owned())
        .ok_or(ImportError::NoConversations)
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

    fn unpack<R: Read + Seek + Clone>(
        reader: R,
    ) -> Result<super::super::ImportReport, super::super::Interrupted> {
        let store = crate::store::Store::open_in_memory().unwrap();
        import(
            &store,
            || Ok(reader.clone()),
            &mut super::super::Watch::default(),
        )
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
        for (zip, inside) in [
            ("chatgpt-export.zip", "chatgpt-conversations.json"),
            ("claude-export.zip", "claude-conversations.json"),
        ] {
            let mut archive = zip::ZipArchive::new(fixture(zip)).unwrap();
            let name = conversations_name(&archive).unwrap();
            let index = archive.index_for_name(&name).unwrap();
            let mut read = Vec::new();
            checked(&mut archive, index, u64::MAX)
                .unwrap()
                .read_to_end(&mut read)
                .unwrap();
            assert_eq!(read, json(inside));
        }
    }

    #[test]
    fn a_chatgpt_archive_keeps_the_image_a_question_was_asked_with() {
        let dir = tempfile::tempdir().unwrap();
        let store = crate::store::Store::open(&dir.path().join("ponder.sqlite3")).unwrap();
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/fixtures/imports/chatgpt-export.zip");
        let report =
            super::super::import_file(&store, &path, &mut super::super::Watch::default()).unwrap();
        assert_eq!(report.conversations, 1);
        let [c] = &store.list_conversations(true).unwrap()[..] else {
            panic!()
        };
        let files: Vec<crate::chat::Attachment> = store
            .all_messages(&c.id)
            .unwrap()
            .iter()
            .flat_map(|m| m.message.attachments().cloned().collect::<Vec<_>>())
            .collect();
        let whiteboard = std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../tests/fixtures/attachments/whiteboard.png"),
        )
        .unwrap();
        let [file] = &files[..] else {
            panic!("{files:?}")
        };
        assert_eq!(file.name, "whiteboard.png");
        assert_eq!(file.sha256, crate::attachments::sha256_hex(&whiteboard));
        assert_eq!(
            store.attachments().unwrap().read(&file.sha256).unwrap(),
            whiteboard
        );
        // Its place holds the file now, not a mark.
        assert!(
            !store
                .all_messages(&c.id)
                .unwrap()
                .iter()
                .any(|m| m.message.text().contains("not in the export"))
        );
    }

    #[test]
    fn projects_become_the_project_of_their_conversations_and_survive_a_backup() {
        let store = crate::store::Store::open_in_memory().unwrap();
        let fixtures =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/imports");
        for zip in ["claude-export.zip", "chatgpt-export.zip"] {
            super::super::import_file(
                &store,
                &fixtures.join(zip),
                &mut super::super::Watch::default(),
            )
            .unwrap();
        }
        let mut projects: Vec<(String, Option<String>)> = store
            .list_conversations(true)
            .unwrap()
            .into_iter()
            .map(|c| (c.title, c.project))
            .collect();
        projects.sort();
        assert_eq!(
            projects,
            [
                (
                    "Bridges, edited once".to_owned(),
                    Some("Chemistry".to_owned())
                ),
                ("New conversation".to_owned(), None),
                (
                    "Primes and a regenerated answer".to_owned(),
                    Some("ChatGPT project 6f1e2d3c".to_owned())
                ),
            ]
        );
        // Ponder's own backup keeps it.
        let backup = crate::export::backup_json(&store).unwrap();
        let fresh = crate::store::Store::open_in_memory().unwrap();
        super::super::import(&fresh, backup.as_bytes()).unwrap();
        let kept: Vec<Option<String>> = fresh
            .list_conversations(true)
            .unwrap()
            .into_iter()
            .map(|c| c.project)
            .collect();
        assert_eq!(kept.iter().flatten().count(), 2);
    }

    #[test]
    fn a_bomb_a_cut_archive_and_one_without_conversations_are_refused_with_what_is_wrong() {
        let bytes = |name: &str| {
            let mut all = Vec::new();
            fixture(name).read_to_end(&mut all).unwrap();
            std::io::Cursor::new(all)
        };
        let err = unpack(bytes("bomb.zip")).unwrap_err();
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
        let err = unpack(bytes("no-conversations.zip")).unwrap_err();
        assert!(
            err.to_string().contains("holds no conversations.json"),
            "{err}"
        );
        assert!(is_zip(b"PK\x03\x04rest"));
        assert!(!is_zip(b"{\"format\""));
    }
}
