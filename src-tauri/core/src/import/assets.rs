//! What an export carries beside its `conversations.json`: the names of Claude's projects
//! (`projects.json`), and the files of a ChatGPT export: the images a user sent
//! or had made, each named by the id its message points to (`file-service://file-9Xk2Lm` is
//! `file-9Xk2Lm-whiteboard.png`; `sediment://file_00…` is `file_00…-<uuid>.png`, in a folder or
//! not). A message keeps the file as an attachment, stored once by its hash like any other;
//! one the export does not hold keeps a note naming it.

use std::collections::HashMap;
use std::io::{Read, Seek};

use super::ImportError;
use crate::attachments::AttachmentStore;
use crate::chat::Attachment;

/// Where a message's files and a conversation's project come from.
pub(super) trait Assets {
    /// The file `pointer` names, stored, as its message refers to it; `None` when the export
    /// does not hold it.
    fn attachment(&mut self, pointer: &str) -> Result<Option<Attachment>, String>;

    /// The name of the project with the id `id`.
    fn project(&self, id: &str) -> Option<String>;
}

/// A bare `conversations.json`: no files beside it.
pub(super) struct NoAssets;

impl Assets for NoAssets {
    fn attachment(&mut self, _: &str) -> Result<Option<Attachment>, String> {
        Ok(None)
    }

    fn project(&self, _: &str) -> Option<String> {
        None
    }
}

/// The files of a `.zip` export, found by the id at the start of their names.
pub(super) struct ZipAssets<'a, R: Read + Seek> {
    archive: zip::ZipArchive<R>,
    /// Each file id: the entry's index and the name the user knows (what follows the id).
    by_id: HashMap<String, (usize, String)>,
    /// Where files are kept; none in a history without files (they are then marked).
    store: Option<&'a AttachmentStore>,
    /// Project names by id, from `projects.json`.
    projects: HashMap<String, String>,
    /// Files already stored, by id: an image shown in many messages is read once.
    stored: HashMap<String, Attachment>,
}

impl<'a, R: Read + Seek> ZipAssets<'a, R> {
    pub(super) fn new(mut archive: zip::ZipArchive<R>, store: Option<&'a AttachmentStore>) -> Self {
        let projects = projects(&mut archive);
        let mut by_id = HashMap::new();
        for index in 0..archive.len() {
            let Some(Ok(name)) = archive.name_for_index(index) else {
                continue;
            };
            let base = name.rsplit('/').next().unwrap_or(&name);
            if let Some((id, shown)) = file_id(base) {
                by_id
                    .entry(id.to_owned())
                    .or_insert((index, shown.to_owned()));
            }
        }
        Self {
            archive,
            by_id,
            store,
            projects,
            stored: HashMap::new(),
        }
    }
}

impl<R: Read + Seek> Assets for ZipAssets<'_, R> {
    fn attachment(&mut self, pointer: &str) -> Result<Option<Attachment>, String> {
        let id = pointer.rsplit("://").next().unwrap_or(pointer);
        if let Some(done) = self.stored.get(id) {
            return Ok(Some(done.clone()));
        }
        let (Some((index, shown)), Some(store)) = (self.by_id.get(id).cloned(), self.store) else {
            return Ok(None);
        };
        let bytes =
            super::entries::entry_at(&mut self.archive, index, crate::attachments::MAX_FILE_BYTES)
                .map_err(|e: ImportError| e.to_string())?;
        let shown = plain_name(&shown, 200);
        let stored = store
            .put(&bytes, &shown)
            .map_err(|e| format!("{shown}: {e}"))?;
        let attachment = stored.attachment(&shown);
        self.stored.insert(id.to_owned(), attachment.clone());
        Ok(Some(attachment))
    }

    fn project(&self, id: &str) -> Option<String> {
        self.projects.get(id).cloned()
    }
}

/// The longest project name kept: a sidebar's worth.
pub(super) const MAX_PROJECT_NAME: usize = 120;

/// The projects `projects.json` lists (Claude's export), by id. A file that is missing, too
/// large or not a list names none: the conversations are imported without their projects.
fn projects<R: Read + Seek>(archive: &mut zip::ZipArchive<R>) -> HashMap<String, String> {
    const MAX_PROJECTS_BYTES: u64 = 64 * 1024 * 1024;
    let Some(index) = archive.index_for_name("projects.json") else {
        return HashMap::new();
    };
    let Ok(bytes) = super::entries::entry_at(archive, index, MAX_PROJECTS_BYTES) else {
        return HashMap::new();
    };
    let Ok(serde_json::Value::Array(items)) = serde_json::from_slice(&bytes) else {
        return HashMap::new();
    };
    items
        .iter()
        .filter_map(|p| {
            let id = p.get("uuid")?.as_str()?;
            let name = plain_name(p.get("name")?.as_str()?, MAX_PROJECT_NAME);
            (!name.is_empty()).then(|| (id.to_owned(), name))
        })
        .collect()
}

/// A name from an export as Ponder shows it: one line, without control characters, and at
/// most `max` characters (a file could give one of megabytes).
pub(super) fn plain_name(name: &str, max: usize) -> String {
    name.chars()
        .filter(|c| !c.is_control())
        .take(max)
        .collect::<String>()
        .trim()
        .to_owned()
}

/// The file id a ChatGPT export names a file by, and the rest of its name: `file-9Xk2Lm` and
/// `whiteboard.png` of `file-9Xk2Lm-whiteboard.png`. Ids are letters and digits after
/// `file-` or `file_`.
fn file_id(base: &str) -> Option<(&str, &str)> {
    let rest = base
        .strip_prefix("file-")
        .or_else(|| base.strip_prefix("file_"))?;
    let end = rest
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(rest.len());
    if end == 0 {
        return None;
    }
    let id = &base[..5 + end];
    // What follows `-` is the name the file had; anything else is part of a bare id's name.
    let shown = match base[5 + end..].strip_prefix(['-', '_']) {
        Some(rest) if !rest.is_empty() => rest,
        _ => base,
    };
    Some((id, shown))
}

#[cfg(test)]
mod tests {
    use super::{file_id, plain_name};

    #[test]
    fn a_name_from_an_export_is_one_short_line() {
        assert_eq!(plain_name("  Chem\nistry\u{7}  ", 120), "Chemistry");
        assert_eq!(plain_name(&"x".repeat(10_000), 120).len(), 120);
    }

    #[test]
    fn a_file_is_known_by_the_id_its_name_starts_with() {
        let cases = [
            (
                "file-9Xk2Lm-whiteboard.png",
                Some(("file-9Xk2Lm", "whiteboard.png")),
            ),
            (
                "file_00000000a1b2c3-6f1e2d3c-aaaa-bbbb.png",
                Some(("file_00000000a1b2c3", "6f1e2d3c-aaaa-bbbb.png")),
            ),
            ("file-AbC.jpeg", Some(("file-AbC", "file-AbC.jpeg"))),
            ("file-AbC", Some(("file-AbC", "file-AbC"))),
            ("conversations.json", None),
            ("file--x.png", None),
        ];
        for (name, want) in cases {
            assert_eq!(file_id(name), want, "{name}");
        }
    }
}
