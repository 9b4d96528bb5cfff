//! The stored history from the command line: conversations, continuing one, search, purge,
//! and a crash in the middle of a stream.

use std::time::Duration;

use ponder_core::store::{MessageStatus, SearchScope, Store};
use ponder_mock_provider::{MockProvider, Reply};
use serde_json::{Value, json};

use super::ponder_cli;

const STREAM: &str = "anthropic/pydantic-sonnet4-thinking-stream.sse";

fn cli(db: &std::path::Path) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::from(ponder_cli());
    cmd.arg("--db")
        .arg(db)
        .env("PONDER_ANTHROPIC_API_KEY", "test-key-not-real");
    cmd
}

async fn chat(db: &std::path::Path, mock: &MockProvider, extra: &[&str], message: &str) -> Value {
    let out = cli(db)
        .args([
            "chat",
            "--provider",
            "anthropic",
            "--model",
            "claude-sonnet-4-5/med",
            "--base-url",
            &mock.url(),
            "--json",
        ])
        .args(extra)
        .arg(message)
        .output()
        .await
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[tokio::test(flavor = "multi_thread")]
async fn chats_are_stored_continued_listed_and_searched() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.sqlite3");
    let mock = MockProvider::start().await.unwrap();
    mock.set_default(Reply::fixture(STREAM).unwrap());

    let first = chat(&db, &mock, &[], "How do I cross the street safely?").await;
    let id = first["conversation"].as_str().unwrap().to_owned();
    let second = chat(&db, &mock, &["--conversation", &id], "And at night?").await;
    assert_eq!(second["conversation"], id.as_str());

    // The second request carried the first turn (its text; its thoughts stay home by default).
    let requests = mock.requests();
    let messages = requests[1].json()["messages"].as_array().unwrap().clone();
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert_eq!(
        messages[0]["content"][0]["text"],
        "How do I cross the street safely?"
    );
    assert_eq!(messages[1]["role"], "assistant");
    assert!(
        !messages[1].to_string().contains("pedestrian safety"),
        "thoughts are not sent by default"
    );

    let out = cli(&db)
        .args(["conversations", "--json"])
        .output()
        .await
        .unwrap();
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(list[0]["id"], id.as_str());
    assert_eq!(list[0]["messageCount"], 4);
    assert_eq!(list[0]["title"], "How do I cross the street safely?");

    let search = |args: &'static [&'static str]| {
        let db = db.clone();
        async move {
            let out = cli(&db).arg("search").args(args).output().await.unwrap();
            assert!(out.status.success());
            serde_json::from_slice::<Value>(&out.stdout).unwrap()
        }
    };
    assert_eq!(
        search(&["straightforward", "--json"])
            .await
            .as_array()
            .unwrap()
            .len(),
        0,
        "only in thoughts"
    );
    let hits = search(&["straightforward", "--in-thoughts", "--json"]).await;
    assert_eq!(hits.as_array().unwrap().len(), 2);
    assert_eq!(hits[0]["inThoughts"], true);

    let out = cli(&db)
        .args(["purge-thoughts", "--older-than", "1"])
        .output()
        .await
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("Removed the thoughts of 0 messages"));
    let out = cli(&db)
        .args(["purge-thoughts", "--older-than", "1", "--json"])
        .output()
        .await
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report, serde_json::json!({"messages": 0, "bytesFreed": 0}));
    mock.shutdown().await;
}

/// `ponder-cli chat` against an answer that takes about 20 s to stream: thoughts first, then
/// text from byte 3,674 on. Its stdout is dropped; `stderr` says what becomes of its stderr.
async fn slow_chat(
    db: &std::path::Path,
    stderr: std::process::Stdio,
) -> (MockProvider, tokio::process::Child) {
    let mock = MockProvider::start().await.unwrap();
    mock.push(
        Reply::fixture(STREAM)
            .unwrap()
            .chunk_size(40)
            .delay(Duration::from_millis(50)),
    );
    let child = cli(db)
        .args([
            "chat",
            "--provider",
            "anthropic",
            "--model",
            "claude-sonnet-4-5/med",
            "--base-url",
            &mock.url(),
            "Cross?",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap();
    (mock, child)
}

#[tokio::test(flavor = "multi_thread")]
async fn a_killed_chat_leaves_an_interrupted_message_with_what_was_flushed() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.sqlite3");
    let (mock, mut child) = slow_chat(&db, std::process::Stdio::null()).await;
    tokio::time::sleep(Duration::from_millis(3500)).await;
    child.start_kill().unwrap(); // SIGKILL: no destructor, no final write
    child.wait().await.unwrap();
    mock.shutdown().await;

    let store = Store::open(&db).unwrap();
    assert_eq!(store.integrity_check().unwrap(), "ok");
    let conversation = &store.list_conversations(true).unwrap()[0];
    let messages = store.messages(&conversation.id).unwrap();
    let assistant = messages.last().unwrap();
    assert_eq!(assistant.status, MessageStatus::Interrupted);
    let thought = assistant
        .message
        .thinking()
        .next()
        .expect("thoughts up to the last flush are kept");
    assert!(
        thought
            .text
            .starts_with("This is a straightforward question"),
        "{}",
        thought.text
    );
    assert!(
        !store
            .search("pedestrian", SearchScope::TextAndThoughts, 10)
            .unwrap()
            .is_empty()
    );
}

/// Ctrl+C stops the answer where it is: the part that arrived is stored as cancelled, and
/// the exit status is 130, as a shell reports an interrupted command.
#[tokio::test(flavor = "multi_thread")]
async fn ctrl_c_keeps_the_partial_answer_and_exits_130() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.sqlite3");
    let (mock, child) = slow_chat(&db, std::process::Stdio::piped()).await;
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let pid = child.id().unwrap().to_string();
    let sent = std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().await.unwrap();
    mock.shutdown().await;
    assert_eq!(
        out.status.code(),
        Some(130),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("the partial answer above is kept"));

    let store = Store::open(&db).unwrap();
    let conversation = &store.list_conversations(true).unwrap()[0];
    let assistant = store.messages(&conversation.id).unwrap().pop().unwrap();
    assert_eq!(assistant.status, MessageStatus::Cancelled);
    assert!(
        assistant
            .message
            .thinking()
            .next()
            .is_some_and(|t| t.text.starts_with("This is a straightforward question"))
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn thoughts_can_be_left_out_of_the_history() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.sqlite3");
    let mock = MockProvider::start().await.unwrap();
    mock.set_default(Reply::fixture(STREAM).unwrap());
    let shown = chat(&db, &mock, &["--no-store-thoughts"], "Cross?").await;
    assert!(
        shown["parts"][0]["type"] == "thinking",
        "still shown while streaming"
    );
    mock.shutdown().await;
    let store = Store::open(&db).unwrap();
    let id = shown["conversation"].as_str().unwrap();
    let messages = store.messages(id).unwrap();
    assert!(messages[1].message.thinking().next().is_none(), "not kept");
    assert!(messages[1].message.replay.is_none(), "nor its signatures");
    assert!(!messages[1].message.text().is_empty());
}

#[tokio::test(flavor = "multi_thread")]
async fn export_import_round_trip_and_the_import_continues_with_its_signatures() {
    let dir = tempfile::tempdir().unwrap();
    let (db, fresh) = (dir.path().join("a.sqlite3"), dir.path().join("b.sqlite3"));
    let mock = MockProvider::start().await.unwrap();
    mock.set_default(Reply::fixture(STREAM).unwrap());
    let first = chat(&db, &mock, &[], "How do I cross the street safely?").await;
    let id = first["conversation"].as_str().unwrap().to_owned();
    // Keep thoughts in context so the next request must carry the signed thinking block.
    {
        let store = Store::open(&db).unwrap();
        let mut settings = store.conversation(&id).unwrap().settings;
        settings.include_in_context = true;
        store.set_conversation_settings(&id, &settings).unwrap();
    }
    let exported = dir.path().join("conversation.json");
    let out = cli(&db)
        .args(["export", &id, "--format", "json", "-o"])
        .arg(&exported)
        .output()
        .await
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let out = cli(&fresh)
        .arg("import")
        .arg(&exported)
        .output()
        .await
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        String::from_utf8_lossy(&out.stdout)
            .contains("Imported 1 conversation(s) with 2 message(s).")
    );
    let again = cli(&fresh)
        .args(["export", &id, "--format", "json"])
        .output()
        .await
        .unwrap();
    assert_eq!(
        std::fs::read(&exported).unwrap(),
        again.stdout,
        "export → import → export is identical"
    );

    // Importing it twice changes nothing and says why.
    let out = cli(&fresh)
        .arg("import")
        .arg(&exported)
        .output()
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("already in your history"));

    // The imported conversation continues, and the request carries the original signature.
    let signature = {
        let store = Store::open(&fresh).unwrap();
        let messages = store.messages(&id).unwrap();
        messages[1]
            .message
            .thinking()
            .next()
            .unwrap()
            .signature
            .clone()
            .unwrap()
    };
    let before = mock.requests().len();
    chat(&fresh, &mock, &["--conversation", &id], "And at night?").await;
    let sent = mock.requests()[before].json();
    let replayed = &sent["messages"][1]["content"][0];
    assert_eq!(replayed["type"], "thinking");
    assert_eq!(replayed["signature"], signature.as_str());
    mock.shutdown().await;

    // A broken file is refused and changes nothing.
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, &std::fs::read(&exported).unwrap()[..200]).unwrap();
    let out = cli(&fresh)
        .arg("import")
        .arg(&broken)
        .output()
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("cut short"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn export_formats_from_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("a.sqlite3");
    let mock = MockProvider::start().await.unwrap();
    mock.set_default(Reply::fixture(STREAM).unwrap());
    let first = chat(&db, &mock, &[], "Cross?").await;
    mock.shutdown().await;
    let id = first["conversation"].as_str().unwrap();
    for (format, thoughts, needle) in [
        ("md", "details", "<details>"),
        ("md", "omit", "Cross?"),
        ("html", "section", "<!DOCTYPE html>"),
    ] {
        let out = cli(&db)
            .args(["export", id, "--format", format, "--thoughts", thoughts])
            .output()
            .await
            .unwrap();
        assert!(
            out.status.success(),
            "{format} {thoughts}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(needle), "{format} {thoughts}");
        assert_eq!(
            text.contains("straightforward question"),
            thoughts != "omit",
            "{format} {thoughts}"
        );
    }
    let out = cli(&db)
        .args(["export", "--all", "-o"])
        .arg(dir.path().join("backup.json"))
        .output()
        .await
        .unwrap();
    assert!(out.status.success());
    let backup: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("backup.json")).unwrap()).unwrap();
    assert_eq!(backup["format"], "ponder-backup");
    let out = cli(&db)
        .args(["export", id, "--format", "pdf"])
        .output()
        .await
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn check_reports_a_sound_history_and_a_damaged_one() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.sqlite3");
    let check = |db: &std::path::Path| {
        ponder_cli()
            .arg("--db")
            .arg(db)
            .arg("check")
            .output()
            .unwrap()
    };
    let out = check(&db);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "ok");
    let garbage = dir.path().join("garbage.sqlite3");
    std::fs::write(&garbage, b"not a database at all, but some bytes").unwrap();
    let out = check(&garbage);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not a database"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn an_import_whose_level_is_unknown_is_refused_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let export =
        ponder_tests::sample_export().replace("\"choice\": \"high\"", "\"choice\": \"ultra\"");
    let file = dir.path().join("ultra.json");
    std::fs::write(&file, export).unwrap();
    let out = ponder_cli()
        .arg("--db")
        .arg(dir.path().join("history.sqlite3"))
        .arg("import")
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("unknown thinking choice \"ultra\""), "{err}");
}

/// ChatGPT's and Claude's data exports import from the command line like Ponder's own, and
/// the imported branches can be compared.
#[test]
fn chatgpt_and_claude_exports_import_and_their_versions_compare() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.sqlite3");
    let fixtures = ponder_tests::workspace_root().join("tests/fixtures/imports");
    let run = |args: &[&str]| cli_at(&db, args);
    for (file, said) in [
        (
            "chatgpt-conversations.json",
            "Imported 1 conversation(s) with 5 message(s).",
        ),
        (
            "claude-conversations.json",
            "Imported 2 conversation(s) with 8 message(s).",
        ),
    ] {
        let out = run(&["import", fixtures.join(file).to_str().unwrap()]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), said);
    }
    let listed: Value = serde_json::from_slice(&run(&["conversations", "--json"]).stdout).unwrap();
    let chatgpt = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["title"] == "Primes and a regenerated answer")
        .unwrap();
    let exported: Value = serde_json::from_slice(
        &run(&[
            "export",
            chatgpt["id"].as_str().unwrap(),
            "--format",
            "json",
        ])
        .stdout,
    )
    .unwrap();
    let answer = exported["messages"][1]["id"].as_str().unwrap().to_owned();
    let rows: Value = serde_json::from_slice(&run(&["compare", &answer, "--json"]).stdout).unwrap();
    let models: Vec<&str> = rows
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["model"].as_str().unwrap())
        .collect();
    assert_eq!(
        models,
        ["o3", "gpt-4o"],
        "the regenerated answer is a version"
    );
    assert_eq!(rows[0]["thinkingMs"], 12_000);

    // A damaged export says where, and imports nothing.
    let broken = dir.path().join("broken.json");
    std::fs::write(
        &broken,
        r#"[{"uuid": "x", "chat_messages": [{"uuid": "m"}]}]"#,
    )
    .unwrap();
    let out = run(&["import", broken.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("[0].chat_messages[0].sender"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let listed: Value = serde_json::from_slice(&run(&["conversations", "--json"]).stdout).unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 3);
}

/// What a conversation keeps from the desktop app — its system prompt and, for OpenAI, the
/// choice of Chat Completions — is what `ponder-cli chat --conversation` sends, and a flag
/// given on the command line wins over it.
#[tokio::test(flavor = "multi_thread")]
async fn a_stored_system_prompt_and_api_choice_are_used_when_continuing() {
    use ponder_core::reasoning::{ApiChoice, ReasoningSettings};
    use ponder_core::store::NewConversation;

    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.sqlite3");
    let id = {
        let store = Store::open(&db).unwrap();
        store
            .create_conversation(NewConversation {
                title: "Kept settings".into(),
                provider: Some("openai".into()),
                model: Some("gpt-5-mini".into()),
                settings: ReasoningSettings {
                    system_prompt: Some("Answer like a ship's log.".into()),
                    api: Some(ApiChoice::Chat),
                    ..ReasoningSettings::default()
                },
            })
            .unwrap()
            .id
    };
    let mock = MockProvider::start().await.unwrap();
    mock.set_default(
        Reply::fixture("openai/vercel-azure-chat-gpt5-nano-reasoning-tokens-stream.jsonl")
            .unwrap()
            .with_done(),
    );
    let ask = |extra: &'static [&'static str]| {
        let mut cmd = cli(&db);
        cmd.env("PONDER_OPENAI_API_KEY", "test-key-not-real")
            .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
            .args([
                "chat",
                "--provider",
                "openai",
                "--model",
                "gpt-5-mini/low",
                "--base-url",
                &mock.url(),
                "--conversation",
                &id,
                "--json",
            ]);
        cmd.args(extra).arg("Where are we?");
        cmd
    };
    let out = ask(&[]).output().await.unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = ask(&["--api", "responses", "--system", "Be brief."])
        .output()
        .await
        .unwrap();
    let requests = mock.requests();
    assert_eq!(
        requests.len(),
        2,
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    assert_eq!(requests[0].path, "/chat/completions", "the stored choice");
    let first = requests[0].json();
    let system = &first["messages"][0];
    assert!(
        ["system", "developer"].contains(&system["role"].as_str().unwrap()),
        "{first}"
    );
    assert_eq!(system["content"], "Answer like a ship's log.", "{first}");
    assert_eq!(first["reasoning_effort"], "low", "{first}");

    assert_eq!(requests[1].path, "/responses", "the flag wins");
    let second = requests[1].json();
    assert_eq!(second["instructions"], "Be brief.", "{second}");
    mock.shutdown().await;
}

/// A history whose parents were made to loop: `check` names the messages and fails, and the
/// commands that read the conversation end with an error that says so instead of hanging.
#[test]
fn check_finds_a_loop_of_parents_and_reads_end() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.sqlite3");
    let id = {
        let store = ponder_core::store::Store::open(&db).unwrap();
        let c = store
            .create_conversation(ponder_core::store::NewConversation::default())
            .unwrap()
            .id;
        store.append_user(&c, "Q1").unwrap();
        store.append_user(&c, "Q2").unwrap();
        c
    };
    {
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.execute(
            "UPDATE messages SET parent_id = (SELECT id FROM messages WHERE text = 'Q2') WHERE text = 'Q1'",
            [],
        )
        .unwrap();
    }
    let run = |args: &[&str]| {
        let mut child = ponder_cli()
            .arg("--db")
            .arg(&db)
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let started = std::time::Instant::now();
        while child.try_wait().unwrap().is_none() {
            if started.elapsed() > std::time::Duration::from_secs(20) {
                let _ = child.kill();
                panic!("ponder-cli {args:?} hung on the loop");
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        child.wait_with_output().unwrap()
    };
    let out = run(&["check"]);
    assert!(!out.status.success());
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(said.matches("its parents form a loop").count(), 2, "{said}");
    assert!(said.contains(&id), "{said}");
    let out = run(&["export", &id]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("loop"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The data exports as ChatGPT and Claude deliver them, `.zip` archives, import as their
/// `conversations.json` does; an archive that is no export, or a zip bomb, is refused with
/// what is wrong, and nothing is imported.
#[test]
fn the_providers_zip_exports_import_and_a_bomb_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.sqlite3");
    let fixtures = ponder_tests::workspace_root().join("tests/fixtures/imports");
    let run = |args: &[&str]| cli_at(&db, args);
    for (file, code, said) in [
        (
            "bomb.zip",
            2,
            "conversations.json would grow 1028 times as it is unpacked",
        ),
        ("no-conversations.zip", 2, "holds no conversations.json"),
        (
            "chatgpt-export.zip",
            0,
            "Imported 1 conversation(s) with 5 message(s).",
        ),
        (
            "claude-export.zip",
            0,
            "Imported 2 conversation(s) with 8 message(s).",
        ),
    ] {
        let out = run(&["import", fixtures.join(file).to_str().unwrap()]);
        let said_all = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.status.code(), Some(code), "{file}: {said_all}");
        assert!(said_all.contains(said), "{file}: {said_all}");
    }
    let listed: Value = serde_json::from_slice(&run(&["conversations", "--json"]).stdout).unwrap();
    assert_eq!(
        listed.as_array().unwrap().len(),
        3,
        "the two exports, nothing of the others"
    );

    // The same export again adds nothing; a newer one adds only what is new.
    let zip = fixtures.join("chatgpt-export.zip");
    let again = run(&["import", zip.to_str().unwrap()]);
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&again.stdout).trim(),
        "Imported 0 conversation(s) with 0 message(s). 1 already here were unchanged."
    );
    let mut newer: Value = serde_json::from_slice(
        &std::fs::read(fixtures.join("chatgpt-conversations.json")).unwrap(),
    )
    .unwrap();
    let conversation = &mut newer[0];
    let last = conversation["current_node"].as_str().unwrap().to_owned();
    let node = |id: &str, parent: &str, role: &str, text: &str, child: Option<&str>| {
        json!({ "id": id, "parent": parent, "children": child.map_or_else(Vec::new, |c| vec![c]),
            "message": { "id": id, "author": { "role": role, "metadata": {} }, "create_time": 1_735_800_000.0,
                "content": { "content_type": "text", "parts": [text] }, "status": "finished_successfully",
                "metadata": { "model_slug": "o3" } } })
    };
    let (ask, answer) = (
        "4a000000-0001-4d3e-9b1a-000000000001",
        "4a000000-0002-4d3e-9b1a-000000000002",
    );
    conversation["mapping"][&last]["children"] = json!([ask]);
    conversation["mapping"][ask] = node(ask, &last, "user", "And below 200?", Some(answer));
    conversation["mapping"][answer] = node(
        answer,
        ask,
        "assistant",
        "There are 46 primes below 200.",
        None,
    );
    conversation["current_node"] = json!(answer);
    let later = dir.path().join("later.json");
    std::fs::write(&later, newer.to_string()).unwrap();
    let out = run(&["import", later.to_str().unwrap(), "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        report,
        json!({ "conversations": 0, "messages": 2, "updated": 1, "unchanged": 0 })
    );
    let listed: Value = serde_json::from_slice(&run(&["conversations", "--json"]).stdout).unwrap();
    assert_eq!(listed.as_array().unwrap().len(), 3);
    let primes = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["title"] == "Primes and a regenerated answer")
        .unwrap();
    let shown = run(&["export", primes["id"].as_str().unwrap(), "--format", "md"]);
    let shown = String::from_utf8_lossy(&shown.stdout);
    assert!(
        shown.contains("46 primes below 200"),
        "the conversation shows where it went on: {shown}"
    );
}

/// The whole history as a .zip backup (the JSON, and each attached file as itself) goes
/// into a fresh history and comes out the same.
#[test]
fn a_zip_backup_from_the_command_line_imports_back_whole() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.sqlite3");
    let fresh = dir.path().join("fresh.sqlite3");
    let fixtures = ponder_tests::workspace_root().join("tests/fixtures/imports");
    let run = cli_at;
    let out = run(
        &db,
        &[
            "import",
            fixtures.join("claude-export.zip").to_str().unwrap(),
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let zip = dir.path().join("backup.zip");
    let out = run(&db, &["export", "--all", "-o", zip.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(&std::fs::read(&zip).unwrap()[..4], b"PK\x03\x04", "a zip");
    let out = run(&fresh, &["import", zip.to_str().unwrap()]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "Imported 2 conversation(s) with 8 message(s)."
    );
    let json = |db: &std::path::Path| run(db, &["export", "--all"]).stdout;
    assert_eq!(json(&fresh), json(&db), "the same history");
}

/// `ponder-cli --db DB ARGS…`, run to its end.
fn cli_at(db: &std::path::Path, args: &[&str]) -> std::process::Output {
    ponder_cli()
        .arg("--db")
        .arg(db)
        .args(args)
        .output()
        .unwrap()
}
