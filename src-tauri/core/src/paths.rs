//! Where Ponder keeps its files.
//!
//! The desktop app and the CLI must agree on one data directory, so the rule lives
//! here rather than in Tauri's path resolver: `$XDG_DATA_HOME/<identifier>`
//! (`~/.local/share/<identifier>` when unset), which is exactly what Tauri's
//! `app_data_dir()` gives for the same identifier on Linux.

use std::path::{Path, PathBuf};

/// The bundle identifier; `src-tauri/tauri.conf.json` must carry the same one
/// (a test in the app crate checks).
pub const APP_IDENTIFIER: &str = "dev.ponder.desktop";

/// The conversation history database, inside the data directory.
pub const DATABASE_FILE: &str = "ponder.sqlite3";

/// The settings file kept by tauri-plugin-store, inside the data directory.
pub const SETTINGS_FILE: &str = "settings.json";

#[derive(Debug, thiserror::Error)]
pub enum DataDirError {
    #[error("cannot find a home directory to keep Ponder's data in; set XDG_DATA_HOME")]
    NoHome,
    #[error("cannot create the data directory {path}: {source}")]
    Create {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// The files of one data directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataPaths {
    root: PathBuf,
}

impl DataPaths {
    /// The data directory for this user, from the environment.
    pub fn for_current_user() -> Result<Self, DataDirError> {
        let base = dirs::data_dir().ok_or(DataDirError::NoHome)?;
        Ok(Self::under(&base))
    }

    /// The data directory below a given base (what `$XDG_DATA_HOME` would be).
    pub fn under(base: &Path) -> Self {
        Self {
            root: base.join(APP_IDENTIFIER),
        }
    }

    /// A data directory at exactly this path.
    pub fn at(root: impl Into<PathBuf>) -> Self {
        Self { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn database(&self) -> PathBuf {
        self.root.join(DATABASE_FILE)
    }

    pub fn settings(&self) -> PathBuf {
        self.root.join(SETTINGS_FILE)
    }

    /// Creates the directory (and its parents) if it is missing.
    pub fn ensure(&self) -> Result<&Self, DataDirError> {
        std::fs::create_dir_all(&self.root).map_err(|source| DataDirError::Create {
            path: self.root.clone(),
            source,
        })?;
        Ok(self)
    }
}

/// Renames a file Ponder cannot use to `NAME.unreadable-SECONDS` beside it (with the SQLite
/// `-wal` and `-shm` files that belong to it), so the user can start afresh without losing
/// it. Returns the new path. Nothing is ever deleted.
pub fn move_aside(path: &Path) -> std::io::Result<PathBuf> {
    let stamp = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".unreadable-{stamp}"));
    let mut target = path.with_file_name(&name);
    let mut n = 1;
    while target.exists() {
        let mut numbered = name.clone();
        numbered.push(format!("-{n}"));
        target = path.with_file_name(numbered);
        n += 1;
    }
    std::fs::rename(path, &target)?;
    for suffix in ["-wal", "-shm"] {
        let mut side = path.as_os_str().to_os_string();
        side.push(suffix);
        let side = PathBuf::from(side);
        if side.exists() {
            let mut moved = target.as_os_str().to_os_string();
            moved.push(suffix);
            std::fs::rename(&side, PathBuf::from(moved))?;
        }
    }
    Ok(target)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moving_aside_keeps_the_file_and_its_sidecars() {
        let tmp = tempfile::tempdir().unwrap();
        let db = tmp.path().join("ponder.sqlite3");
        std::fs::write(&db, b"not a database").unwrap();
        std::fs::write(tmp.path().join("ponder.sqlite3-wal"), b"wal").unwrap();
        let first = move_aside(&db).unwrap();
        assert!(!db.exists());
        assert_eq!(std::fs::read(&first).unwrap(), b"not a database");
        assert!(PathBuf::from(format!("{}-wal", first.display())).exists());
        std::fs::write(&db, b"again").unwrap();
        let second = move_aside(&db).unwrap();
        assert_ne!(first, second, "an earlier copy is never overwritten");
        assert_eq!(std::fs::read(&first).unwrap(), b"not a database");
    }

    #[test]
    fn data_dir_is_identifier_below_base() {
        let paths = DataPaths::under(Path::new("/home/ada/.local/share"));
        assert_eq!(
            paths.root(),
            Path::new("/home/ada/.local/share/dev.ponder.desktop")
        );
        assert_eq!(
            paths.database(),
            Path::new("/home/ada/.local/share/dev.ponder.desktop/ponder.sqlite3")
        );
        assert_eq!(
            paths.settings(),
            Path::new("/home/ada/.local/share/dev.ponder.desktop/settings.json")
        );
    }

    #[test]
    fn ensure_creates_missing_parents_and_is_idempotent() {
        let tmp = tempfile::tempdir().unwrap();
        let paths = DataPaths::at(tmp.path().join("a/b/c"));
        paths.ensure().unwrap();
        paths.ensure().unwrap();
        assert!(paths.root().is_dir());
    }

    #[test]
    fn ensure_reports_the_path_it_could_not_create() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("not-a-dir");
        std::fs::write(&file, b"x").unwrap();
        let err = DataPaths::at(file.join("sub")).ensure().unwrap_err();
        assert!(
            err.to_string().contains("not-a-dir"),
            "message names the path: {err}"
        );
    }
}
