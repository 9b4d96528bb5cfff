//! Attached files in a transcript. Written with its files, a transcript links each to its
//! copy in a folder beside it (`<title> files/<name>`) and Markdown shows images from there;
//! an HTML page shows images inline as `data:` URLs, so it stays one file that opens
//! offline. Only the files' own names are used, made safe for a folder, and never a path
//! from the conversation.

use std::collections::HashMap;
use std::path::Path;

use base64::Engine;

use crate::attachments::AttachmentStore;
use crate::chat::Attachment;

/// How a transcript shows its files.
#[derive(Debug, Clone, Default)]
pub struct FileLinks {
    /// The folder, relative to the transcript, and each file's name in it, by hash.
    beside: Option<(String, HashMap<String, String>)>,
    /// An image's `data:` URL, by hash.
    inline: HashMap<String, String>,
}

impl FileLinks {
    /// Each of `files` gets a name in `folder`: its own, made safe, and numbered where two
    /// different files share one.
    pub fn beside<'a>(folder: &str, files: impl IntoIterator<Item = &'a Attachment>) -> Self {
        let mut names: HashMap<String, String> = HashMap::new();
        let mut taken: HashMap<String, String> = HashMap::new();
        for file in files {
            if names.contains_key(&file.sha256) {
                continue;
            }
            let wanted = safe_name(&file.name, &file.sha256);
            let mut name = wanted.clone();
            let mut n = 2;
            while taken.get(&name).is_some_and(|sha| sha != &file.sha256) {
                let (stem, ext) = split_ext(&wanted);
                name = format!("{stem} ({n}){ext}");
                n += 1;
            }
            taken.insert(name.clone(), file.sha256.clone());
            names.insert(file.sha256.clone(), name);
        }
        Self {
            beside: Some((folder.to_owned(), names)),
            inline: HashMap::new(),
        }
    }

    /// The images among `files` inline, read from `store` (a file gone is named only).
    pub fn with_images_inline<'a>(
        mut self,
        store: &AttachmentStore,
        files: impl IntoIterator<Item = &'a Attachment>,
    ) -> Self {
        for file in files.into_iter().filter(|f| f.kind.is_image()) {
            if self.inline.contains_key(&file.sha256) {
                continue;
            }
            if let Some(crate::chat::Payload::Bytes(bytes)) = store.data(file) {
                let data = base64::engine::general_purpose::STANDARD.encode(&bytes[..]);
                self.inline.insert(
                    file.sha256.clone(),
                    format!("data:{};base64,{data}", file.kind.media_type()),
                );
            }
        }
        self
    }

    /// Where the transcript links `file`: its path relative to the transcript.
    pub fn link(&self, file: &Attachment) -> Option<String> {
        let (folder, names) = self.beside.as_ref()?;
        names
            .get(&file.sha256)
            .map(|name| format!("{folder}/{name}"))
    }

    /// An image's `data:` URL, when it is shown inline.
    pub fn inline(&self, file: &Attachment) -> Option<&str> {
        self.inline.get(&file.sha256).map(String::as_str)
    }

    /// Copies each linked file from `store` into `folder` (made if need be); how many were
    /// written. A file gone from the store is skipped (its label still names it).
    pub fn write_beside(&self, store: &AttachmentStore, folder: &Path) -> std::io::Result<usize> {
        let Some((_, names)) = &self.beside else {
            return Ok(0);
        };
        if names.is_empty() {
            return Ok(0);
        }
        std::fs::create_dir_all(folder)?;
        let mut written = 0;
        for (sha, name) in names {
            if let Ok(bytes) = store.read(sha) {
                crate::atomic_file::write(&folder.join(name), &bytes)?;
                written += 1;
            }
        }
        Ok(written)
    }
}

/// The folder a transcript's files go in, named after the transcript's own file name.
pub fn folder_for(transcript: &Path) -> std::path::PathBuf {
    let stem = transcript
        .file_stem()
        .map_or_else(|| "export".into(), |s| s.to_string_lossy().into_owned());
    transcript.with_file_name(format!("{stem} files"))
}

/// A name that is one plain file in a folder: no separators, no control characters, nothing
/// that Markdown or a shell would read as more, not hidden, at most 120 characters.
fn safe_name(name: &str, sha256: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| match c {
            '/' | '\\' | ':' | '<' | '>' | '"' | '|' | '?' | '*' | '[' | ']' | '(' | ')' => '_',
            c if c.is_control() => '_',
            c => c,
        })
        .collect();
    let cleaned = cleaned.trim().trim_start_matches('.').trim();
    if cleaned.is_empty() {
        return sha256.chars().take(12).collect();
    }
    let (stem, ext) = split_ext(cleaned);
    let keep = 120usize.saturating_sub(ext.chars().count()).max(1);
    format!("{}{ext}", stem.chars().take(keep).collect::<String>())
}

/// `("report", ".pdf")` from `report.pdf`; no extension for a name without a dot.
fn split_ext(name: &str) -> (&str, &str) {
    match name.rfind('.') {
        Some(dot) if dot > 0 && name.len() - dot <= 8 => name.split_at(dot),
        _ => (name, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attachments::Kind;

    fn file(name: &str, sha: char) -> Attachment {
        Attachment {
            sha256: sha.to_string().repeat(64),
            kind: Kind::Pdf,
            name: name.into(),
            bytes: 10,
            pages: None,
            pixels: None,
            data: None,
        }
    }

    #[test]
    fn each_file_gets_one_safe_name_in_the_folder() {
        let files = [
            file("report.pdf", 'a'),
            file("report.pdf", 'b'),
            file("report.pdf", 'a'),
            file("../../.bashrc", 'c'),
            file("a](evil)<x>.png", 'd'),
            file("...", 'e'),
        ];
        let links = FileLinks::beside("Chat files", &files);
        let link = |f: &Attachment| links.link(f).unwrap();
        assert_eq!(link(&files[0]), "Chat files/report.pdf");
        assert_eq!(link(&files[1]), "Chat files/report (2).pdf");
        assert_eq!(
            link(&files[2]),
            "Chat files/report.pdf",
            "the same file, once"
        );
        assert_eq!(link(&files[3]), "Chat files/_.._.bashrc");
        assert_eq!(link(&files[4]), "Chat files/a__evil__x_.png");
        assert_eq!(link(&files[5]), format!("Chat files/{}", "e".repeat(12)));
        assert_eq!(
            folder_for(Path::new("/home/ada/Plan.md")),
            Path::new("/home/ada/Plan files")
        );
    }
}
