//! A file the window sends in pieces. Sending 20 MB to the backend in one call holds the
//! window's main thread for a frame or more (the web view copies the body, and its
//! custom-protocol glue reads it a kilobyte at a time); a megabyte at a time, it never does.
//! The pieces are written in order to `incoming/<upload>` beside the stored files, and the
//! last one stores the whole file as `put_file` does, removing the partial one.

use std::io::Write;
use std::path::PathBuf;

use super::{AttachmentError, AttachmentStore, MAX_FILE_BYTES, Stored};

/// One piece of an upload: which upload, where the piece starts, and whether it ends the file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Piece {
    /// 32 lowercase hex characters the window chose for this file.
    pub upload: String,
    pub offset: u64,
    pub last: bool,
}

impl AttachmentStore {
    /// Adds `bytes` at `piece.offset` of the upload; on its last piece, stores the whole file
    /// under `name` and returns it. A piece out of order, an upload growing past Ponder's cap
    /// or an upload id that is not one refuses the upload (and drops what it had).
    pub fn put_piece(
        &self,
        piece: &Piece,
        bytes: &[u8],
        name: &str,
    ) -> Result<Option<Stored>, AttachmentError> {
        let path = self
            .incoming(&piece.upload)
            .ok_or_else(|| AttachmentError::Unknown {
                name: name.to_owned(),
            })?;
        let refuse = |err: AttachmentError| {
            let _ = std::fs::remove_file(&path);
            err
        };
        let had = std::fs::metadata(&path).map_or(0, |m| m.len());
        if piece.offset != had {
            return Err(refuse(AttachmentError::Unreadable {
                name: name.to_owned(),
                source: std::io::Error::other(format!(
                    "a piece at byte {} came where byte {had} was due",
                    piece.offset
                )),
            }));
        }
        let size = had + bytes.len() as u64;
        if size > MAX_FILE_BYTES {
            return Err(refuse(AttachmentError::TooLarge {
                name: name.to_owned(),
                bytes: size,
            }));
        }
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder).map_err(|e| refuse(AttachmentError::Store(e)))?;
        }
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut file| file.write_all(bytes))
            .map_err(|e| refuse(AttachmentError::Store(e)))?;
        if !piece.last {
            return Ok(None);
        }
        let stored = self.put_file(&path, name);
        let _ = std::fs::remove_file(&path);
        stored.map(Some)
    }

    /// Where an upload's pieces go; none for an id that is not 32 lowercase hex characters.
    fn incoming(&self, upload: &str) -> Option<PathBuf> {
        super::is_lower_hex(upload, 32).then(|| self.dir.join("incoming").join(upload))
    }

    /// Removes uploads left unfinished (a window closed while it sent), older than `grace`.
    pub fn remove_unfinished(&self, grace: std::time::Duration) -> std::io::Result<usize> {
        let Ok(entries) = std::fs::read_dir(self.dir.join("incoming")) else {
            return Ok(0);
        };
        let mut removed = 0;
        for entry in entries {
            let path = entry?.path();
            if super::older_than(&path, grace) {
                std::fs::remove_file(&path)?;
                removed += 1;
            }
        }
        Ok(removed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn piece(upload: &str, offset: u64, last: bool) -> Piece {
        Piece {
            upload: upload.into(),
            offset,
            last,
        }
    }

    #[test]
    fn a_file_sent_in_pieces_is_stored_whole_once_the_last_arrives() {
        let dir = tempfile::tempdir().unwrap();
        let store = AttachmentStore::at(dir.path().join("attachments"));
        let pdf = std::fs::read(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../tests/fixtures/attachments/boiling-points.pdf"),
        )
        .unwrap();
        let id = "0123456789abcdef0123456789abcdef";
        let (a, b) = pdf.split_at(700);
        assert_eq!(
            store.put_piece(&piece(id, 0, false), a, "b.pdf").unwrap(),
            None
        );
        let stored = store
            .put_piece(&piece(id, 700, true), b, "b.pdf")
            .unwrap()
            .unwrap();
        assert_eq!(stored.sha256, super::super::sha256_hex(&pdf));
        assert_eq!(stored.pages, Some(2));
        assert!(!dir.path().join("attachments/incoming").join(id).exists());

        // Out of order: refused, and what had come is dropped.
        assert_eq!(
            store.put_piece(&piece(id, 0, false), a, "b.pdf").unwrap(),
            None
        );
        let err = store
            .put_piece(&piece(id, 9, true), b, "b.pdf")
            .unwrap_err();
        assert!(
            err.to_string().contains("came where byte 700 was due"),
            "{err}"
        );
        assert!(!dir.path().join("attachments/incoming").join(id).exists());

        // An id that could name another file is no upload at all.
        for bad in [
            "../../../etc/passwd",
            "0123456789ABCDEF0123456789ABCDEF",
            "",
        ] {
            assert!(
                store.put_piece(&piece(bad, 0, true), a, "x").is_err(),
                "{bad}"
            );
        }

        // What the last piece stores is checked as any file is: a cut PDF is refused.
        let other = "fedcba9876543210fedcba9876543210";
        assert_eq!(
            store
                .put_piece(&piece(other, 0, false), a, "c.pdf")
                .unwrap(),
            None
        );
        let err = store
            .put_piece(&piece(other, 700, true), b"", "c.pdf")
            .unwrap_err();
        assert!(err.to_string().contains("not a whole PDF"), "{err}");

        // Left unfinished, an upload goes after the grace.
        let left = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
        store.put_piece(&piece(left, 0, false), a, "d.pdf").unwrap();
        assert_eq!(
            store
                .remove_unfinished(std::time::Duration::from_secs(3600))
                .unwrap(),
            0
        );
        assert_eq!(
            store.remove_unfinished(std::time::Duration::ZERO).unwrap(),
            1
        );
    }
}
