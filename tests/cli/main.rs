//! The `ponder-cli` binary, run as a user would run it.

use std::process::Command;

mod chat;
mod copilot;
mod history;
mod import;
mod mcp;
mod reasoning;
mod versions;

fn ponder_cli() -> Command {
    Command::new(ponder_tests::workspace_bin("ponder-cli"))
}

#[test]
fn about_json_reports_version_and_the_apps_data_dir() {
    let home = tempfile::tempdir().unwrap();
    let out = ponder_cli()
        .args(["about", "--json"])
        .env("XDG_DATA_HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let about: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let expected_dir = home.path().join(ponder_core::paths::APP_IDENTIFIER);
    assert_eq!(about["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(about["dataDir"], expected_dir.display().to_string());
    assert_eq!(
        about["databasePath"],
        expected_dir.join("ponder.sqlite3").display().to_string()
    );
}

#[test]
fn data_dir_flag_overrides_the_default() {
    let dir = tempfile::tempdir().unwrap();
    let out = ponder_cli()
        .args(["about", "--data-dir"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains(&format!("data directory: {}", dir.path().display())),
        "{text}"
    );
}

#[test]
fn unknown_subcommand_fails_with_usage() {
    let out = ponder_cli().arg("frobnicate").output().unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("Usage"), "stderr shows usage: {err}");
}
