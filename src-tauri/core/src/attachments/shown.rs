//! What the window shows of a stored image: the image itself, or a small copy for the thread,
//! made the first time it is asked for and kept beside the originals (`thumbs/<sha256>`), so
//! a thread of a hundred images opens by reading a hundred small files.

use super::{AttachmentError, AttachmentStore, Kind, image, sniff};

/// The long edge of a thumbnail, in pixels: sharp at twice the size the thread draws it.
pub const THUMB_EDGE: u32 = 320;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Size {
    Thumb,
    Full,
}

/// An image to show, and what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    pub bytes: Vec<u8>,
    pub kind: Kind,
}

impl AttachmentStore {
    /// The image stored under `sha256`, at `size`; `None` when nothing is stored under it or
    /// what is stored is not an image (a PDF or text is never shown as a picture).
    pub fn shown(&self, sha256: &str, size: Size) -> Result<Option<Shown>, AttachmentError> {
        let Some(original) = self.path(sha256) else {
            return Ok(None);
        };
        if size == Size::Thumb {
            let thumb = self.dir.join("thumbs").join(sha256);
            if let Some(shown) = read_image(&thumb)? {
                return Ok(Some(shown));
            }
            let Some(shown) = read_image(&original)? else {
                return Ok(None);
            };
            return match image::thumbnail(&shown.bytes, shown.kind, THUMB_EDGE) {
                Ok(None) => Ok(Some(shown)),
                Ok(Some(small)) => {
                    if let Some(folder) = thumb.parent() {
                        std::fs::create_dir_all(folder).map_err(AttachmentError::Store)?;
                    }
                    crate::atomic_file::write(&thumb, &small.bytes)
                        .map_err(AttachmentError::Store)?;
                    Ok(Some(Shown {
                        bytes: small.bytes,
                        kind: small.kind,
                    }))
                }
                Err(source) => Err(AttachmentError::Damaged {
                    name: sha256.to_owned(),
                    source,
                }),
            };
        }
        read_image(&original)
    }
}

fn read_image(path: &std::path::Path) -> Result<Option<Shown>, AttachmentError> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(AttachmentError::Store(e)),
    };
    Ok(sniff(&bytes)
        .filter(|kind| kind.is_image())
        .map(|kind| Shown { bytes, kind }))
}
