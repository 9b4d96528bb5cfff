//! Where Ponder keeps its files.
//!
//! The desktop app and the CLI must agree on them, so the rule lives here rather than in
//! Tauri's path resolver: the history in `$XDG_DATA_HOME/<identifier>` (`~/.local/share/…`
//! when unset) and the settings in `$XDG_CONFIG_HOME/<identifier>` (`~/.config/…`), which is
//! exactly what Tauri's `app_data_dir()` and `app_config_dir()` give for the same identifier
//! on Linux. Earlier versions kept the settings beside the history; they are moved once.

use std::path::{Path, PathBuf};

/// The bundle identifier; `src-tauri/tauri.conf.json` must carry the same one
/// (a test in the app crate checks).
pub const APP_IDENTIFIER: &str = "dev.ponder.desktop";

/// The conversation history database, inside the data directory.
pub const DATABASE_FILE: &str = "ponder.sqlite3";

/// The settings file kept by tauri-plugin-store, inside the config directory.
pub const SETTINGS_FILE: &str = "settings.json";

/// Where the app writes its log: `$XDG_STATE_HOME/<identifier>/logs` (`~/.local/state/…` when
/// unset), the XDG place for what an app writes about itself that is worth keeping across
/// runs but is not the user's data.
pub fn log_dir() -> Option<PathBuf> {
    dirs::state_dir().map(|state| state.join(APP_IDENTIFIER).join("logs"))
}

#[derive(Debug, thiserror::Error)]
pub enum DataDirError {
    #[error(
        "cannot find a home directory to keep Ponder's data in; set XDG_DATA_HOME and XDG_CONFIG_HOME"
    )]
    NoHome,
    #[error("cannot create the data directory {path}: {source}")]
    Create {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// The files of one data directory, and the settings of its config directory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataPaths {
    root: PathBuf,
    config: PathBuf,
}

impl DataPaths {
    /// The data and config directories for this user, from the environment.
    pub fn for_current_user() -> Result<Self, DataDirError> {
        let data = dirs::data_dir().ok_or(DataDirError::NoHome)?;
        let config = dirs::config_dir().ok_or(DataDirError::NoHome)?;
        Ok(Self::under(&data).with_config(config.join(APP_IDENTIFIER)))
    }

    /// Both directories below one base (what `$XDG_DATA_HOME` would be).
    pub fn under(base: &Path) -> Self {
        Self::at(base.join(APP_IDENTIFIER))
    }

    /// Everything in exactly this directory, the settings included.
    pub fn at(root: impl Into<PathBuf>) -> Self {
        let root = root.into();
        Self {
            config: root.clone(),
            root,
        }
    }

    /// The settings in this directory instead.
    #[must_use]
    pub fn with_config(mut self, config: impl Into<PathBuf>) -> Self {
        self.config = config.into();
        self
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    pub fn database(&self) -> PathBuf {
        self.root.join(DATABASE_FILE)
    }

    pub fn settings(&self) -> PathBuf {
        self.config.join(SETTINGS_FILE)
    }

    /// Creates both directories (and their parents) if they are missing.
    pub fn ensure(&self) -> Result<&Self, DataDirError> {
        for dir in [&self.root, &self.config] {
            std::fs::create_dir_all(dir).map_err(|source| DataDirError::Create {
                path: dir.clone(),
                source,
            })?;
        }
        Ok(self)
    }

    /// Moves a settings file an earlier version kept beside the history to the config
    /// directory, unless one is there already (then the old one stays where it is, unread).
    /// Returns where it went.
    pub fn adopt_old_settings(&self) -> std::io::Result<Option<PathBuf>> {
        let old = self.root.join(SETTINGS_FILE);
        let new = self.settings();
        if old == new || !old.exists() || new.exists() {
            return Ok(None);
        }
        std::fs::create_dir_all(&self.config)?;
        // A rename fails across file systems; a copy then a removal does not.
        if std::fs::rename(&old, &new).is_err() {
            std::fs::copy(&old, &new)?;
            std::fs::remove_file(&old)?;
        }
        Ok(Some(new))
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
    fn old_settings_move_to_the_config_directory_once() {
        let tmp = tempfile::tempdir().unwrap();
        let paths = DataPaths::at(tmp.path().join("data")).with_config(tmp.path().join("config"));
        std::fs::create_dir_all(paths.root()).unwrap();
        let old = paths.root().join(SETTINGS_FILE);
        std::fs::write(&old, br#"{"theme":"dark"}"#).unwrap();
        assert_eq!(paths.adopt_old_settings().unwrap(), Some(paths.settings()));
        assert!(!old.exists());
        assert_eq!(
            std::fs::read(paths.settings()).unwrap(),
            br#"{"theme":"dark"}"#
        );
        // A newer file is never replaced by an older one.
        std::fs::write(&old, br#"{"theme":"light"}"#).unwrap();
        assert_eq!(paths.adopt_old_settings().unwrap(), None);
        assert_eq!(
            std::fs::read(paths.settings()).unwrap(),
            br#"{"theme":"dark"}"#
        );
        assert!(old.exists(), "left where it was");
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
