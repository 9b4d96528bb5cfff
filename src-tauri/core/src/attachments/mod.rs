//! Files given to a model with a message: images, PDFs and text files, kept by content.
//!
//! A file is stored once under the data directory as `attachments/<sha256[..2]>/<sha256>`,
//! whatever its name and however many messages refer to it; parts refer to it by its hash, so
//! the history database stays small. What a file is comes from its bytes (`kind`), never from
//! its name: a PNG renamed `.pdf` is a PNG, and an SVG is text, never drawn.

pub mod image;
pub mod incoming;
pub mod kind;
pub mod limits;
pub mod pdf;
pub mod sending;
pub mod shown;
pub mod tokens;

use std::collections::HashSet;
use std::io::Read;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

pub use kind::{Kind, sniff};

/// The largest file Ponder takes: more than any provider accepts in one request.
pub const MAX_FILE_BYTES: u64 = 100 * 1024 * 1024;

/// A stored file: its hash (its name in the store), what it is, and its size.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stored {
    pub sha256: String,
    pub kind: Kind,
    pub bytes: u64,
    /// A PDF's page count, where it could be read.
    pub pages: Option<u32>,
    /// An image's width and height.
    pub pixels: Option<(u32, u32)>,
}

impl Stored {
    /// The part a question refers to it by, under the name the user knows it by.
    pub fn attachment(self, name: &str) -> crate::chat::Attachment {
        crate::chat::Attachment {
            sha256: self.sha256,
            kind: self.kind,
            name: name.to_owned(),
            bytes: self.bytes,
            pages: self.pages,
            pixels: self.pixels,
            data: None,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum AttachmentError {
    #[error("{name} is empty")]
    Empty { name: String },
    #[error(
        "{name} is {mib:.1} MiB; Ponder takes files of at most {max} MiB",
        mib = *.bytes as f64 / 1_048_576.0,
        max = MAX_FILE_BYTES / 1_048_576
    )]
    TooLarge { name: String, bytes: u64 },
    #[error(
        "{name} is not a file Ponder can send (it takes PNG, JPEG, GIF and WebP images, PDFs and text files)"
    )]
    Unknown { name: String },
    #[error("{name}: {source}")]
    Damaged {
        name: String,
        #[source]
        source: image::ImageError,
    },
    #[error("{name} is not a whole PDF (it ends before its end-of-file mark)")]
    CutPdf { name: String },
    #[error("{name} is no longer in Ponder's files; attach it again")]
    Gone { name: String },
    #[error("{name} could not be read: {source}")]
    Unreadable {
        name: String,
        #[source]
        source: std::io::Error,
    },
    #[error("the attachment could not be stored: {0}")]
    Store(#[source] std::io::Error),
}

/// The folder of stored files.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttachmentStore {
    dir: PathBuf,
}

impl AttachmentStore {
    pub fn at(dir: impl Into<PathBuf>) -> Self {
        Self { dir: dir.into() }
    }

    /// Whether any file was ever stored here.
    pub fn exists(&self) -> bool {
        self.dir.is_dir()
    }

    /// Where the file with this hash is (or would be); none for a name that is not a hash,
    /// so that a reference from an imported file can never name a path outside the store.
    pub fn path(&self, sha256: &str) -> Option<PathBuf> {
        is_hash(sha256).then(|| self.dir.join(&sha256[..2]).join(sha256))
    }

    /// Reads a file the user chose and stores it, refusing before reading more than the cap.
    /// `name` is how the user knows the file, for the messages.
    pub fn put_file(&self, path: &Path, name: &str) -> Result<Stored, AttachmentError> {
        let unreadable = |source| AttachmentError::Unreadable {
            name: name.to_owned(),
            source,
        };
        let file = std::fs::File::open(path).map_err(unreadable)?;
        let size = file.metadata().map_err(unreadable)?.len();
        if size > MAX_FILE_BYTES {
            return Err(AttachmentError::TooLarge {
                name: name.to_owned(),
                bytes: size,
            });
        }
        let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
        // One byte past the cap, should the file grow while it is read.
        file.take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(unreadable)?;
        self.put(&bytes, name)
    }

    /// Stores `bytes` under their hash; a file already there is kept, and counts as new
    /// again: a collection of unreferenced files, which reads the whole history meanwhile,
    /// keeps it for its grace, while the question that refers to it again is written.
    pub fn put(&self, bytes: &[u8], name: &str) -> Result<Stored, AttachmentError> {
        let stored = describe(bytes, name)?;
        let path = self.dir.join(&stored.sha256[..2]).join(&stored.sha256);
        if path.exists() {
            std::fs::File::options()
                .write(true)
                .open(&path)
                .and_then(|file| file.set_modified(std::time::SystemTime::now()))
                .map_err(AttachmentError::Store)?;
        } else {
            if let Some(shard) = path.parent() {
                std::fs::create_dir_all(shard).map_err(AttachmentError::Store)?;
            }
            crate::atomic_file::write(&path, bytes).map_err(AttachmentError::Store)?;
        }
        Ok(stored)
    }

    /// A stored file as `put` described it, read again: for a question that names it by its
    /// hash. A hash the store does not have (or whose file is no longer that hash's) is gone.
    pub fn stored(&self, sha256: &str, name: &str) -> Result<Stored, AttachmentError> {
        let gone = || AttachmentError::Gone {
            name: name.to_owned(),
        };
        let bytes = self.read(sha256).map_err(|_| gone())?;
        let stored = describe(&bytes, name)?;
        if stored.sha256 != sha256 {
            return Err(gone());
        }
        Ok(stored)
    }

    /// The bytes of a stored file.
    pub fn read(&self, sha256: &str) -> std::io::Result<Vec<u8>> {
        let path = self.path(sha256).ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::InvalidInput, "not an attachment's hash")
        })?;
        std::fs::read(path)
    }

    /// What a request sends of a file: its bytes, or a text file's text; `None` when the file
    /// is gone (or is no longer what the message says it is).
    pub fn data(&self, file: &crate::chat::Attachment) -> Option<crate::chat::Payload> {
        use crate::chat::Payload;
        let bytes = self.read(&file.sha256).ok()?;
        if sha256_hex(&bytes) != file.sha256 {
            return None;
        }
        Some(match file.kind {
            Kind::Text => Payload::Text(String::from_utf8_lossy(&bytes).into()),
            _ => Payload::Bytes(bytes.into()),
        })
    }

    /// Fills in what each attachment of `messages` sends, as stored.
    pub fn load(&self, messages: &mut [crate::chat::Message]) {
        for part in messages.iter_mut().flat_map(|m| m.parts.iter_mut()) {
            if let crate::chat::Part::Attachment(file) = part {
                file.data = self.data(file);
            }
        }
    }

    /// Removes every stored file whose hash is not in `referenced` and that is older than
    /// `grace`; how many went. The grace keeps a file stored for a question that is not
    /// written yet (another process may be asking it). Files that are not the store's own
    /// (no hash for a name) are left alone.
    pub fn remove_unreferenced(
        &self,
        referenced: &HashSet<String>,
        grace: std::time::Duration,
    ) -> std::io::Result<usize> {
        let mut removed = 0;
        let Ok(shards) = std::fs::read_dir(&self.dir) else {
            return Ok(0);
        };
        for shard in shards {
            let shard = shard?.path();
            if !shard.is_dir() {
                continue;
            }
            for file in std::fs::read_dir(&shard)? {
                let path = file?.path();
                let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                    continue;
                };
                if is_hash(name) && !referenced.contains(name) && older_than(&path, grace) {
                    std::fs::remove_file(&path)?;
                    removed += 1;
                }
            }
        }
        Ok(removed)
    }
}

/// What a file is, if Ponder can send it: not empty, within the cap, of a kind it knows, and
/// whole.
pub fn check(bytes: &[u8], name: &str) -> Result<Kind, AttachmentError> {
    checked(bytes, name).map(|(kind, _)| kind)
}

/// What `check` finds, and an image's size, read once from its header.
fn checked(bytes: &[u8], name: &str) -> Result<(Kind, Option<(u32, u32)>), AttachmentError> {
    let size = bytes.len() as u64;
    if size == 0 {
        return Err(AttachmentError::Empty {
            name: name.to_owned(),
        });
    }
    if size > MAX_FILE_BYTES {
        return Err(AttachmentError::TooLarge {
            name: name.to_owned(),
            bytes: size,
        });
    }
    let kind = sniff(bytes).ok_or_else(|| AttachmentError::Unknown {
        name: name.to_owned(),
    })?;
    let pixels = check_whole(bytes, kind, name)?;
    Ok((kind, pixels))
}

/// An image whose header does not read (or declares more pixels than Ponder decodes), or a
/// PDF cut short, is refused now rather than by the provider after the upload.
/// An image's size is what it returns.
fn check_whole(
    bytes: &[u8],
    kind: Kind,
    name: &str,
) -> Result<Option<(u32, u32)>, AttachmentError> {
    if kind == Kind::Pdf && !kind::pdf_ends(bytes) {
        return Err(AttachmentError::CutPdf {
            name: name.to_owned(),
        });
    }
    if !kind.is_image() {
        return Ok(None);
    }
    let size = image::dimensions(bytes, kind).map_err(|source| AttachmentError::Damaged {
        name: name.to_owned(),
        source,
    })?;
    Ok(Some((size.width, size.height)))
}

/// What `bytes` are and how they are named in the store.
fn describe(bytes: &[u8], name: &str) -> Result<Stored, AttachmentError> {
    let (kind, pixels) = checked(bytes, name)?;
    Ok(Stored {
        sha256: sha256_hex(bytes),
        kind,
        bytes: bytes.len() as u64,
        pages: (kind == Kind::Pdf).then(|| pdf::pages(bytes)).flatten(),
        pixels,
    })
}

/// A file's name in the store: its SHA-256, in lowercase hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    Sha256::digest(bytes)
        .iter()
        .fold(String::with_capacity(64), |mut out, b| {
            let _ = write!(out, "{b:02x}");
            out
        })
}

fn is_hash(name: &str) -> bool {
    is_lower_hex(name, 64)
}

/// Whether `name` is `len` lowercase hex digits: a name Ponder made, never a path.
pub(crate) fn is_lower_hex(name: &str, len: usize) -> bool {
    name.len() == len
        && name
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
}

/// Whether the file at `path` was last written at least `grace` ago.
fn older_than(path: &Path, grace: std::time::Duration) -> bool {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .is_ok_and(|at| at.elapsed().is_ok_and(|age| age >= grace))
}

#[cfg(test)]
mod tests;
