//! Which process owns a streaming message. Each process that opens a history file holds an
//! exclusive lock on a file of its own in a folder beside the database for as long as it
//! runs; the kernel drops the lock when the process ends, however it ends (a SIGKILL too).
//! A `streaming` row whose owner's lock can be taken belongs to no live process and is
//! recovered as `interrupted`; one whose lock is held is left to the process still
//! streaming it.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

use super::new_id;

/// This process's claim on the rows it streams.
#[derive(Debug)]
pub(super) struct RunOwner {
    pub id: String,
    /// The folder of owners' lock files; `None` for a database in memory, which no other
    /// process can see.
    dir: Option<PathBuf>,
    /// Holds the lock while it lives.
    _lock: Option<File>,
}

/// Whether the owner of a streaming row is still running.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Liveness {
    Alive,
    Gone,
}

impl RunOwner {
    pub fn in_memory() -> Self {
        Self {
            id: new_id(),
            dir: None,
            _lock: None,
        }
    }

    /// Takes a lock file of our own beside `database`. The file is locked under a temporary
    /// name and only then renamed into place, so no other process ever sees an unlocked
    /// `*.lock` file of a live owner.
    pub fn claim(database: &Path) -> std::io::Result<Self> {
        let dir = owners_dir(database);
        std::fs::create_dir_all(&dir)?;
        let id = new_id();
        let pending = dir.join(format!("{id}.claiming"));
        let file = OpenOptions::new()
            .create_new(true)
            .write(true)
            .open(&pending)?;
        file.lock()?;
        std::fs::rename(&pending, dir.join(format!("{id}.lock")))?;
        Ok(Self {
            id,
            dir: Some(dir),
            _lock: Some(file),
        })
    }

    /// Whether `owner` (another process's id) is still running.
    pub fn liveness_of(&self, owner: Option<&str>) -> Liveness {
        let (Some(owner), Some(dir)) = (owner, &self.dir) else {
            // Rows from before owners were recorded, or a database only this process sees.
            return if owner == Some(self.id.as_str()) {
                Liveness::Alive
            } else {
                Liveness::Gone
            };
        };
        if owner == self.id {
            return Liveness::Alive;
        }
        // Owner ids are ours (hex); anything else in the column is not a file name to open.
        if !owner.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Liveness::Gone;
        }
        match File::open(dir.join(format!("{owner}.lock"))) {
            Err(_) => Liveness::Gone,
            Ok(file) => match file.try_lock() {
                Err(TryLockError::WouldBlock) => Liveness::Alive,
                Ok(()) | Err(TryLockError::Error(_)) => Liveness::Gone,
            },
        }
    }

    /// Removes the lock files of owners that are gone (after their rows were recovered).
    pub fn sweep(&self) {
        let Some(dir) = &self.dir else {
            return;
        };
        let Ok(entries) = std::fs::read_dir(dir) else {
            return;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Some(owner) = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".lock"))
            else {
                continue;
            };
            if owner != self.id && self.liveness_of(Some(owner)) == Liveness::Gone {
                let _ = std::fs::remove_file(&path);
            }
        }
    }
}

impl Drop for RunOwner {
    fn drop(&mut self) {
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_file(dir.join(format!("{}.lock", self.id)));
        }
    }
}

/// Waits for, and holds until dropped, the one lock under which a process reads the schema
/// version and upgrades it.
pub(super) fn upgrade_lock(database: &Path) -> std::io::Result<File> {
    let dir = owners_dir(database);
    std::fs::create_dir_all(&dir)?;
    // Not a `.lock` name: the sweep only looks at owners' files.
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join("upgrading"))?;
    file.lock()?;
    Ok(file)
}

/// `ponder.sqlite3` → `ponder.sqlite3.owners/`.
pub(super) fn owners_dir(database: &Path) -> PathBuf {
    let mut name = database.file_name().unwrap_or_default().to_os_string();
    name.push(".owners");
    database.with_file_name(name)
}
