//! `ponder-cli import` of a whole history: a progress bar on a terminal and nothing but the
//! summary with `--json`; Ctrl+C stops it between two conversations, exits 130, keeps the
//! conversations read whole, and a second import adds the rest.

use std::io::Write;
use std::time::{Duration, Instant};

use ponder_core::store::Store;
use serde_json::{Value, json};

use super::ponder_cli;

/// A ChatGPT export of `count` conversations, each a question and a long answer.
fn export(path: &std::path::Path, count: usize, answer_bytes: usize) {
    let mut file = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let answer =
        "The bridge holds because the load spreads along the arch. ".repeat(answer_bytes / 58 + 1);
    file.write_all(b"[").unwrap();
    for i in 0..count {
        if i > 0 {
            file.write_all(b",").unwrap();
        }
        let conversation = json!({
            "id": format!("conv-{i}"), "title": format!("Bridge {i}"), "create_time": 1.7e9,
            "current_node": "a",
            "mapping": {
                "root": {"id": "root", "message": null, "parent": null, "children": ["q"]},
                "q": {"id": "q", "parent": "root", "children": ["a"], "message": {
                    "author": {"role": "user"}, "content": {"content_type": "text", "parts": ["Why does it hold?"]}}},
                "a": {"id": "a", "parent": "q", "children": [], "message": {
                    "author": {"role": "assistant"}, "content": {"content_type": "text", "parts": [answer]}}},
            }
        });
        serde_json::to_writer(&mut file, &conversation).unwrap();
    }
    file.write_all(b"]").unwrap();
}

/// How many bytes the process has read so far.
fn read_so_far(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/io"))
        .ok()
        .and_then(|io| {
            io.lines().find_map(|l| {
                l.strip_prefix("rchar: ")
                    .and_then(|n| n.trim().parse().ok())
            })
        })
        .unwrap_or(0)
}

#[test]
fn ctrl_c_stops_an_import_between_conversations_and_a_second_import_adds_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("conversations.json");
    const COUNT: usize = 3_000;
    export(&file, COUNT, 60_000);
    let db = dir.path().join("history.sqlite3");
    let child = ponder_cli()
        .arg("--db")
        .arg(&db)
        .arg("import")
        .arg(&file)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Stopped once it has read a part of the file, well before its end.
    let started = Instant::now();
    while read_so_far(child.id()) < 20_000_000 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "it never read the file"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let sent = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("the import was cancelled"), "{stderr}");
    let store = Store::open(&db).unwrap();
    let kept = store.list_conversations(true).unwrap();
    assert!(
        !kept.is_empty() && kept.len() < COUNT,
        "{} of {COUNT} kept",
        kept.len()
    );
    assert!(
        stderr.contains(&format!(
            "The {} conversation(s) read before that were imported and stay",
            kept.len()
        )),
        "{stderr}"
    );
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .starts_with(&format!("Imported {} conversation(s)", kept.len())),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    for c in &kept {
        assert_eq!(
            store.all_messages(&c.id).unwrap().len(),
            2,
            "{} whole",
            c.title
        );
    }
    drop(store);

    // Again, to its end, with --json: the summary alone, nothing else on either stream.
    let out = ponder_cli()
        .arg("--db")
        .arg(&db)
        .args(["import", "--json"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.stderr, b"", "nothing but the summary");
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(summary["conversations"], json!(COUNT - kept.len()));
    assert_eq!(summary["unchanged"], json!(kept.len()));
    let store = Store::open(&db).unwrap();
    assert_eq!(store.list_conversations(true).unwrap().len(), COUNT);
}

/// On a terminal (here a pseudo-terminal made by `script`), the import draws a progress bar
/// on stderr; its summary follows.
#[test]
fn a_terminal_sees_a_progress_bar() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("conversations.json");
    export(&file, 400, 60_000);
    let db = dir.path().join("history.sqlite3");
    let command = format!(
        "{} --db {} import {}",
        ponder_tests::workspace_bin("ponder-cli").display(),
        db.display(),
        file.display()
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .unwrap();
    let seen = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{seen}");
    assert!(seen.contains("Importing"), "no progress bar: {seen}");
    assert!(seen.contains("conversation(s)"), "{seen}");
    assert!(
        seen.contains("Imported 400 conversation(s) with 800 message(s)."),
        "{seen}"
    );
}
