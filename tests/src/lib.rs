//! Helpers shared by Ponder's black-box tests.

use std::path::PathBuf;

pub mod framed;
pub mod mcp;
pub mod recordings;

/// The workspace root, for finding built binaries and fixtures.
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ sits inside the workspace")
        .to_path_buf()
}

/// The target directory cargo builds into (honours `CARGO_TARGET_DIR`).
pub fn target_dir() -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => {
            let dir = PathBuf::from(dir);
            if dir.is_absolute() {
                dir
            } else {
                workspace_root().join(dir)
            }
        }
        None => workspace_root().join("target"),
    }
}

const SET_BY_CARGO_FOR_THIS_CRATE: &[&str] = &[
    "CARGO_MANIFEST_",
    "CARGO_PKG_",
    "CARGO_CRATE_",
    "CARGO_BIN_",
    "CARGO_PRIMARY_PACKAGE",
    "CARGO_TARGET_TMPDIR",
    "CARGO_RUSTC_CURRENT_DIR",
];

/// The path of a workspace binary, built first if needed.
///
/// `CARGO_BIN_EXE_*` only exists for a package's own binaries, and the binaries
/// under test live in other packages, so build them here, once per test process.
/// The build is of the whole workspace, as a plain `cargo build` does it, so that it
/// shares that build's feature set and artifacts instead of relinking every time.
pub fn workspace_bin(bin: &str) -> PathBuf {
    static BUILT: std::sync::Once = std::sync::Once::new();
    BUILT.call_once(|| {
        let mut cargo = std::process::Command::new(env!("CARGO"));
        cargo
            .args(["build", "--quiet", "--workspace", "--bins"])
            .current_dir(workspace_root());
        // Cargo describes the running test crate in the environment; passed on, those
        // variables change build-script fingerprints and force a rebuild every run.
        for (key, _) in std::env::vars_os() {
            let key = key.to_string_lossy();
            if SET_BY_CARGO_FOR_THIS_CRATE
                .iter()
                .any(|prefix| key.starts_with(prefix))
            {
                cargo.env_remove(key.as_ref());
            }
        }
        let status = cargo.status().expect("cargo runs");
        assert!(status.success(), "cargo build --workspace --bins failed");
    });
    target_dir()
        .join("debug")
        .join(format!("{bin}{}", std::env::consts::EXE_SUFFIX))
}

/// A real export of a conversation (the JSON export's snapshot), for tests that import one.
pub fn sample_export() -> String {
    let snap = std::fs::read_to_string(
        workspace_root().join("src-tauri/core/src/export/snapshots/primes.json.snap"),
    )
    .expect("the JSON export snapshot");
    // An insta snapshot: a `---` header, then the export itself.
    snap.splitn(3, "---\n")
        .nth(2)
        .expect("a snapshot header")
        .to_owned()
}
