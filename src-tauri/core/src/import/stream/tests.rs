//! Another app's export read as a stream: bad input of every kind named with its place and
//! refused in bounded time and memory, the conversations before it kept; cancelling between
//! two conversations; progress told as the file is read.

use std::io::{Seek, SeekFrom, Write};
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Map, Value, json};

use crate::import::{ImportError, Progress, Watch, import, import_file};
use crate::store::Store;

/// A ChatGPT conversation of one question and one answer.
fn chatgpt(id: &str, answer: &str) -> Value {
    json!({
        "id": id, "title": format!("Conversation {id}"), "create_time": 1.7e9,
        "current_node": "a",
        "mapping": {
            "root": {"id": "root", "message": null, "parent": null, "children": ["q"]},
            "q": {"id": "q", "parent": "root", "children": ["a"], "message": {
                "author": {"role": "user"}, "content": {"content_type": "text", "parts": ["Why?"]}}},
            "a": {"id": "a", "parent": "q", "children": [], "message": {
                "author": {"role": "assistant"}, "content": {"content_type": "text", "parts": [answer]}}},
        }
    })
}

fn export(conversations: &[Value]) -> Vec<u8> {
    serde_json::to_vec(&Value::Array(conversations.to_vec())).unwrap()
}

fn titles(store: &Store) -> Vec<String> {
    let mut titles: Vec<String> = store
        .list_conversations(true)
        .unwrap()
        .into_iter()
        .map(|c| c.title)
        .collect();
    titles.sort();
    titles
}

#[test]
fn a_5_gb_file_is_refused_in_bounded_time_without_being_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    // Sparse: five gigabytes on paper, nothing on the disk.
    let huge = |name: &str, head: &[u8]| {
        let path = dir.path().join(name);
        let mut file = std::fs::File::create(&path).unwrap();
        file.write_all(head).unwrap();
        file.seek(SeekFrom::Start(5 << 30)).unwrap();
        file.write_all(b"]").unwrap();
        path
    };
    let store = Store::open_in_memory().unwrap();
    let cases = [
        // Zeros from the start: not JSON at all.
        ("zeros.json", &b""[..], "it begins with the byte 0x00"),
        // A list of zeros: the first conversation is not one.
        ("list.json", &b"["[..], "conversation [0] is over 128 MiB"),
        // One conversation whose text never ends: refused at the limit of one conversation.
        (
            "endless.json",
            &br#"[{"id": "x", "mapping": {"a": {"message": {"content": ""#[..],
            "conversation [0] is over 128 MiB",
        ),
    ];
    for (name, head, says) in cases {
        let started = std::time::Instant::now();
        let err = import_file(&store, &huge(name, head), &mut Watch::default()).unwrap_err();
        assert!(err.to_string().contains(says), "{name}: {err}");
        assert!(
            started.elapsed().as_secs() < 60,
            "{name}: {:?}",
            started.elapsed()
        );
    }
    assert!(titles(&store).is_empty());
}

#[test]
fn deep_cyclic_and_long_node_graphs_are_read_or_refused_with_their_place() {
    let store = Store::open_in_memory().unwrap();
    // Nested deeper than any export: the parser's own limit, named with its place.
    // Built as text: a value this deep would overflow the stack being written or dropped.
    let mut text = String::from("[");
    text.push_str(&chatgpt("before", "fine").to_string());
    text.push_str(",{\"id\":\"deep\",\"mapping\":{\"a\":{\"message\":");
    text.push_str(&"[".repeat(100_000));
    text.push_str(&"]".repeat(100_000));
    text.push_str("}}}]");
    let bytes = text.into_bytes();
    let err = import(&store, &bytes).unwrap_err();
    assert!(
        err.to_string()
            .contains("conversation [1], at line 1, column"),
        "{err}"
    );
    assert!(err.to_string().contains("recursion limit"), "{err}");
    assert_eq!(err.done.conversations, 1);

    // Parents that make a loop with no start: the message is not dropped without a word.
    let mut looped = chatgpt("looped", "x");
    looped["mapping"]["root"]["parent"] = json!("a");
    let err = import(&store, &export(&[looped])).unwrap_err();
    assert!(err.to_string().contains("[0].mapping."), "{err}");
    assert!(err.to_string().contains("is in a loop"), "{err}");

    // Children that lead back to the start: each node is read once.
    let mut back = chatgpt("back", "Read once.");
    back["mapping"]["a"]["children"] = json!(["root", "q"]);
    import(&store, &export(&[back])).unwrap();

    // A chain of 100,000 nodes: read without recursion.
    const LONG: usize = 100_000;
    let mut mapping = Map::new();
    for i in 0..LONG {
        let role = if i % 2 == 0 { "user" } else { "assistant" };
        mapping.insert(
            format!("n{i}"),
            json!({"id": format!("n{i}"),
                   "parent": (i > 0).then(|| format!("n{}", i - 1)),
                   "children": if i + 1 < LONG { vec![format!("n{}", i + 1)] } else { vec![] },
                   "message": {"author": {"role": role}, "content": {"content_type": "text", "parts": [format!("turn {i}")]}}}),
        );
    }
    let long = json!([{"id": "long", "title": "Long", "mapping": mapping, "current_node": format!("n{}", LONG - 1)}]);
    let report = import(&store, &serde_json::to_vec(&long).unwrap()).unwrap();
    assert_eq!(report.messages, LONG);
    let c = store
        .list_conversations(true)
        .unwrap()
        .into_iter()
        .find(|c| c.title == "Long")
        .unwrap();
    assert_eq!(store.messages(&c.id).unwrap().len(), LONG);
}

#[test]
fn invalid_utf8_and_duplicate_ids_are_named_and_what_came_before_stays() {
    let store = Store::open_in_memory().unwrap();
    let mut bytes = export(&[chatgpt("one", "fine"), chatgpt("two", "BROKEN")]);
    let at = bytes.windows(6).position(|w| w == b"BROKEN").unwrap();
    bytes[at + 2] = 0xff;
    let err = import(&store, &bytes).unwrap_err();
    let said = err.to_string();
    assert!(
        said.contains("conversation [1], at line 1, column"),
        "{said}"
    );
    assert!(said.contains("invalid unicode"), "{said}");
    assert!(
        said.contains("The 1 conversation(s) read before that were imported"),
        "{said}"
    );
    assert_eq!(titles(&store), ["Conversation one"]);

    let twice = export(&[chatgpt("a", "x"), chatgpt("b", "y"), chatgpt("a", "z")]);
    let err = import(&Store::open_in_memory().unwrap(), &twice).unwrap_err();
    assert!(
        err.to_string()
            .contains("the conversations [0] and [2] are the same one"),
        "{err}"
    );

    let claude = json!([{"uuid": "c1", "name": "Twice", "chat_messages": [
        {"uuid": "m1", "sender": "human", "text": "Hi"},
        {"uuid": "m1", "sender": "assistant", "text": "Hello"},
    ]}]);
    let err = import(
        &Store::open_in_memory().unwrap(),
        &serde_json::to_vec(&claude).unwrap(),
    )
    .unwrap_err();
    assert!(matches!(*err.error, ImportError::Invalid(_)), "{err}");
    assert!(
        err.to_string().contains("appears twice")
            || err.to_string().contains("[0].chat_messages[1]"),
        "{err}"
    );
}

#[test]
fn cancelling_keeps_whole_conversations_and_a_second_import_adds_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("conversations.json");
    let conversations: Vec<Value> = (0..40)
        .map(|i| chatgpt(&format!("c{i:02}"), &"words ".repeat(50_000)))
        .collect();
    std::fs::write(&path, export(&conversations)).unwrap();
    let store = Store::open(&dir.path().join("ponder.sqlite3")).unwrap();

    let cancel = AtomicBool::new(false);
    let mut told: Vec<Progress> = Vec::new();
    let mut tell = |p: Progress| {
        told.push(p);
        // Stop once a conversation has been read.
        if p.conversations >= 1 {
            cancel.store(true, Ordering::Relaxed);
        }
    };
    let err = import_file(&store, &path, &mut Watch::new(&mut tell, &cancel)).unwrap_err();
    assert!(matches!(*err.error, ImportError::Cancelled), "{err}");
    let kept = err.done.conversations;
    assert!((1..40).contains(&kept), "{kept}");
    assert_eq!(store.list_conversations(true).unwrap().len(), kept);
    for c in store.list_conversations(true).unwrap() {
        assert_eq!(
            store.all_messages(&c.id).unwrap().len(),
            2,
            "whole: {}",
            c.title
        );
    }
    assert_eq!(told[0].total, std::fs::metadata(&path).unwrap().len());

    let mut told: Vec<Progress> = Vec::new();
    let never = AtomicBool::new(false);
    let mut tell = |p: Progress| told.push(p);
    let report = import_file(&store, &path, &mut Watch::new(&mut tell, &never)).unwrap();
    assert_eq!((report.conversations, report.unchanged), (40 - kept, kept));
    assert_eq!(store.list_conversations(true).unwrap().len(), 40);
    // Told as it went, never backwards, and last at the end.
    assert!(
        told.windows(2)
            .all(|w| w[0].read <= w[1].read && w[0].conversations <= w[1].conversations)
    );
    let last = told.last().unwrap();
    assert_eq!((last.read, last.conversations), (last.total, 40));
}
