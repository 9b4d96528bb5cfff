//! One entry of an archive, read within bounds: refused from the archive's directory when it
//! says it is larger than it may be, or would grow more than real data compresses; read no
//! further than that, whatever the directory says.

use std::io::{Read, Seek};

use super::ImportError;

/// How much smaller than itself deflate makes real JSON, at the very most. Exports of real
/// conversations compress about 5 to 10 times; a thousand times is a bomb.
const MAX_RATIO: u64 = 200;

/// The entry at `index`, to read, refused when it declares more than `cap` or would grow more
/// than a real export does.
pub(super) fn checked<R: Read + Seek>(
    archive: &mut zip::ZipArchive<R>,
    index: usize,
    cap: u64,
) -> Result<zip::read::ZipFile<'_, R>, ImportError> {
    let entry = archive.by_index(index).map_err(damaged)?;
    let size = entry.size();
    if size > cap {
        return Err(ImportError::TooLarge {
            size: usize::try_from(size).unwrap_or(usize::MAX),
        });
    }
    let ratio = size / entry.compressed_size().max(1);
    if size > 1024 * 1024 && ratio > MAX_RATIO {
        return Err(ImportError::Bomb {
            name: entry_name(&entry),
            ratio,
        });
    }
    Ok(entry)
}

/// The bytes of the entry named `name` (see [`checked`]).
pub(super) fn entry<R: Read + Seek>(
    archive: &mut zip::ZipArchive<R>,
    name: &str,
    cap: u64,
) -> Result<Vec<u8>, ImportError> {
    let index = archive
        .index_for_name(name)
        .ok_or_else(|| ImportError::Archive(format!("{name} is not in it")))?;
    entry_at(archive, index, cap)
}

/// The bytes of the entry at `index` (see [`checked`]); reading stops at the cap whatever the
/// archive's directory says.
pub(super) fn entry_at<R: Read + Seek>(
    archive: &mut zip::ZipArchive<R>,
    index: usize,
    cap: u64,
) -> Result<Vec<u8>, ImportError> {
    let entry = checked(archive, index, cap)?;
    let name = entry_name(&entry);
    let mut bytes = Vec::with_capacity(usize::try_from(entry.size()).unwrap_or(0));
    entry
        .take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| ImportError::Archive(format!("{name} could not be read: {e}")))?;
    if bytes.len() as u64 > cap {
        return Err(ImportError::TooLarge { size: bytes.len() });
    }
    Ok(bytes)
}

fn entry_name<R: Read>(entry: &zip::read::ZipFile<'_, R>) -> String {
    entry
        .name()
        .map(|n| n.into_owned())
        .unwrap_or_else(|_| "an entry".to_owned())
}

/// An entry that may not grow past the size the archive's directory declares, which the bomb
/// check was made on.
pub(super) struct Declared<R> {
    pub(super) inner: R,
    pub(super) left: u64,
    pub(super) name: String,
}

impl<R: Read> Read for Declared<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if n as u64 > self.left {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                format!("{} holds more than the archive says it does", self.name),
            ));
        }
        self.left -= n as u64;
        Ok(n)
    }
}

pub(super) fn damaged(e: zip::result::ZipError) -> ImportError {
    ImportError::Archive(e.to_string())
}
