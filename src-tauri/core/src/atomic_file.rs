//! Replacing a file whole or not at all.
//!
//! `std::fs::write` truncates first: a crash, a kill or a full disk halfway leaves the user's
//! settings or an earlier export empty or cut, and a reader meanwhile sees half a file. Here
//! the new bytes go to a file beside it, are flushed to the disk, and take its name in one
//! rename, so the path holds either the old bytes or the new ones.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Writes `bytes` to `path` so that no reader and no crash ever finds it partly written.
/// An existing file keeps its permissions; a new one gets the usual ones (as `fs::write`).
pub fn write(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let side = side_path(path);
    let result = (|| {
        let mut file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&side)?;
        if let Ok(meta) = fs::metadata(path) {
            file.set_permissions(meta.permissions())?;
        }
        file.write_all(bytes)?;
        file.sync_all()?;
        drop(file);
        fs::rename(&side, path)?;
        // The rename itself is durable only once the directory is; not every file system
        // lets a directory be opened for that, and the new bytes are safe either way.
        if let Ok(dir) = File::open(dir) {
            let _ = dir.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&side);
    }
    result
}

/// A name beside `path` that no other write, in this process or another, is using.
fn side_path(path: &Path) -> PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(
        ".{name}.{}-{}.partial",
        std::process::id(),
        NEXT.fetch_add(1, Ordering::Relaxed)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<_> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn writes_a_new_file_and_replaces_an_old_one_leaving_nothing_beside() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        write(&path, b"{\"theme\":\"dark\"}").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"{\"theme\":\"dark\"}");
        write(&path, b"{}").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"{}");
        assert_eq!(names(dir.path()), ["settings.json"]);
    }

    #[test]
    fn an_existing_file_keeps_its_permissions() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.md");
        fs::write(&path, "old").unwrap();
        fs::set_permissions(&path, fs::Permissions::from_mode(0o600)).unwrap();
        write(&path, b"new").unwrap();
        assert_eq!(
            fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o600
        );
    }

    #[test]
    fn a_failed_write_leaves_the_old_bytes_and_no_side_file() {
        let dir = tempfile::tempdir().unwrap();
        // A directory where the file should be: the rename fails after the side file exists.
        let path = dir.path().join("taken");
        fs::create_dir(&path).unwrap();
        fs::write(path.join("inside"), "kept").unwrap();
        assert!(write(&path, b"new").is_err());
        assert_eq!(fs::read_to_string(path.join("inside")).unwrap(), "kept");
        assert_eq!(names(dir.path()), ["taken"]);
    }

    #[test]
    fn writes_from_many_threads_each_land_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("settings.json");
        std::thread::scope(|scope| {
            for i in 0..8 {
                let path = &path;
                scope.spawn(move || {
                    let bytes = vec![b'a' + i; 64 * 1024];
                    for _ in 0..10 {
                        write(path, &bytes).unwrap();
                        let read = fs::read(path).unwrap();
                        assert_eq!(read.len(), 64 * 1024);
                        assert!(read.iter().all(|b| *b == read[0]), "never mixed");
                    }
                });
            }
        });
        assert_eq!(names(dir.path()), ["settings.json"]);
    }
}
