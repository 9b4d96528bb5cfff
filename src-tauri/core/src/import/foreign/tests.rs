//! ChatGPT's and Claude's exports, written from the public descriptions of both formats
//! (`tests/fixtures/imports`), read into a real store: branches as versions, thoughts as
//! thinking blocks marked as imported, odd content kept as text with a note, bad files refused
//! with the place that is wrong, and a round trip through Ponder's own JSON export.

use crate::catalog::Catalog;
use crate::chat::{Part, Role, ThoughtSource};
use crate::export::backup_json;
use crate::import::{import, parse};
use crate::store::{Store, StoredMessage, UNTITLED};

const CHATGPT: &str =
    include_str!("../../../../../tests/fixtures/imports/chatgpt-conversations.json");
const CLAUDE: &str =
    include_str!("../../../../../tests/fixtures/imports/claude-conversations.json");

fn texts(messages: &[StoredMessage]) -> Vec<String> {
    messages.iter().map(|m| m.message.text()).collect()
}

fn thoughts(m: &StoredMessage) -> Vec<(String, Option<ThoughtSource>)> {
    m.message
        .thinking()
        .map(|b| (b.text.clone(), b.source))
        .collect()
}

#[test]
fn a_chatgpt_export_keeps_its_branches_thoughts_and_odd_content() {
    let store = Store::open_in_memory().unwrap();
    let report = import(&store, CHATGPT.as_bytes()).unwrap();
    assert_eq!((report.conversations, report.messages), (1, 5));
    let [c] = &store.list_conversations(true).unwrap()[..] else {
        panic!()
    };
    assert_eq!(c.title, "Primes and a regenerated answer");
    let shown = store.messages(&c.id).unwrap();
    let roles: Vec<Role> = shown.iter().map(|m| m.message.role).collect();
    assert_eq!(
        roles,
        [Role::User, Role::Assistant, Role::User, Role::Assistant]
    );
    assert_eq!(
        shown[0].message.text(),
        "How many primes are there below 100?"
    );
    assert_eq!(shown[0].created_at, 1_735_725_600_250);

    // The reasoning model's thoughts, its recap's time and its answer are one message.
    let answer = &shown[1];
    assert_eq!(answer.message.text(), "There are **25** primes below 100.");
    let got = thoughts(answer);
    assert_eq!(got.len(), 2);
    assert!(got[0].0.starts_with("**Counting by decade**"), "{got:?}");
    assert!(got.iter().all(|(_, s)| *s == Some(ThoughtSource::Summary)));
    assert_eq!(answer.thinking_ms, Some(12_000));
    let origin = answer.message.origin.as_ref().unwrap();
    assert_eq!(
        (origin.provider.as_str(), origin.model.as_str()),
        ("chatgpt", "o3")
    );
    assert!(
        Catalog::builtin().provider("chatgpt").is_err(),
        "no request goes to an imported answer's provider, so its thoughts are never sent back as signed"
    );

    // An image not in the export is marked; code, its output and a quote stay as text.
    assert!(
        shown[2]
            .message
            .text()
            .contains("[image_asset_pointer file-service://file-9Xk2Lm: not in the export]")
    );
    assert!(
        shown[2]
            .message
            .text()
            .ends_with("Is the number in this picture prime?")
    );
    let worked = shown[3].message.text();
    assert!(
        worked.contains("sympy.isprime(221)")
            && worked.contains("Output of python")
            && worked.contains("False"),
        "{worked}"
    );
    assert!(worked.contains("221 = 13 × 17"), "{worked}");
    assert!(
        shown[3]
            .notes
            .iter()
            .any(|n| n.contains("\"tether_quote\" is kept as text")),
        "{:?}",
        shown[3].notes
    );

    // The regenerated answer is a version beside the first.
    let versions = store.versions(&c.id).unwrap();
    let other = versions[&answer.id]
        .iter()
        .find(|id| **id != answer.id)
        .unwrap();
    store.select_version(other).unwrap();
    let shown = store.messages(&c.id).unwrap();
    assert_eq!(texts(&shown)[1], "Twenty-five: 2, 3, 5, 7, 11, … 97.");
    assert_eq!(shown[1].message.origin.as_ref().unwrap().model, "gpt-4o");
}

#[test]
fn a_claude_export_keeps_its_edits_thoughts_attachments_and_tools() {
    let store = Store::open_in_memory().unwrap();
    let report = import(&store, CLAUDE.as_bytes()).unwrap();
    assert_eq!((report.conversations, report.messages), (2, 8));
    let list = store.list_conversations(true).unwrap();
    let bridges = list
        .iter()
        .find(|c| c.title == "Bridges, edited once")
        .unwrap();
    let shown = store.messages(&bridges.id).unwrap();
    assert_eq!(
        shown.len(),
        4,
        "the path Claude showed: through the edited question"
    );
    assert!(shown[0].message.text().contains("Attached notes.txt"));
    assert!(shown[0].message.text().contains("aeroelastic flutter"));
    assert_eq!(
        thoughts(&shown[1]),
        [(
            "Wind, resonance, and the deck's flexibility. Mention Tacoma Narrows since they attached notes on it.".to_owned(),
            Some(ThoughtSource::Thinking)
        )]
    );
    assert_eq!(shown[2].message.text(), "And what about the towers?");
    let last = &shown[3];
    assert_eq!(
        thoughts(last),
        [(
            "Towers take compression.".to_owned(),
            Some(ThoughtSource::Summary)
        )]
    );
    let text = last.message.text();
    assert!(
        text.contains("Used web_search")
            && text.contains("Result of web_search")
            && text.ends_with("in compression."),
        "{text}"
    );
    assert!(
        last.message
            .parts
            .iter()
            .all(|p| !matches!(p, Part::ToolCall(_) | Part::ToolResult(_)))
    );
    assert_eq!(last.message.origin.as_ref().unwrap().provider, "claude.ai");
    assert_eq!(shown[0].created_at, 1_740_819_600_000);

    // The first question is the other version, with its answer and the files it mentioned.
    let versions = store.versions(&bridges.id).unwrap();
    let original = versions[&shown[2].id]
        .iter()
        .find(|id| **id != shown[2].id)
        .unwrap();
    store.select_version(original).unwrap();
    let shown = store.messages(&bridges.id).unwrap();
    assert_eq!(
        shown[2].message.text(),
        "And cables?\n\n[Attached cable-diagram.png: not in the export]"
    );
    assert!(
        shown[3]
            .notes
            .iter()
            .any(|n| n.contains("\"artifact_card\" is kept as text"))
    );

    // An older export: text only, no parents, no title.
    let older = list.iter().find(|c| c.title == UNTITLED).unwrap();
    assert_eq!(
        texts(&store.messages(&older.id).unwrap()),
        [
            "Hello from an older export",
            "Hello! Older exports have only text."
        ]
    );
}

#[test]
fn both_imports_round_trip_through_ponders_own_export() {
    let store = Store::open_in_memory().unwrap();
    import(&store, CHATGPT.as_bytes()).unwrap();
    import(&store, CLAUDE.as_bytes()).unwrap();
    let backup = backup_json(&store).unwrap();
    let fresh = Store::open_in_memory().unwrap();
    import(&fresh, backup.as_bytes()).unwrap();
    for c in store.list_conversations(true).unwrap() {
        assert_eq!(
            fresh.all_messages(&c.id).unwrap(),
            store.all_messages(&c.id).unwrap()
        );
        assert_eq!(
            fresh.messages(&c.id).unwrap(),
            store.messages(&c.id).unwrap()
        );
        assert_eq!(
            fresh.conversation(&c.id).unwrap(),
            store.conversation(&c.id).unwrap()
        );
    }
    // The same export twice adds nothing, and says so.
    let again = import(&store, CHATGPT.as_bytes()).unwrap();
    assert_eq!(
        (
            again.conversations,
            again.messages,
            again.updated,
            again.unchanged
        ),
        (0, 0, 0, 1)
    );
    assert_eq!(store.list_conversations(true).unwrap().len(), 3);
    for c in store.list_conversations(true).unwrap() {
        assert_eq!(
            fresh.all_messages(&c.id).unwrap(),
            store.all_messages(&c.id).unwrap()
        );
    }
}

#[test]
fn a_malformed_export_is_refused_with_the_place_that_is_wrong() {
    let claude: serde_json::Value = serde_json::from_str(CLAUDE).unwrap();
    let chatgpt: serde_json::Value = serde_json::from_str(CHATGPT).unwrap();
    let broken = |mut file: serde_json::Value, pointer: &str, value: serde_json::Value| {
        *file.pointer_mut(pointer).unwrap() = value;
        file.to_string()
    };
    let cases = [
        (
            broken(claude.clone(), "/0/chat_messages/2/sender", "robot".into()),
            "[0].chat_messages[2].sender",
        ),
        (
            broken(
                claude.clone(),
                "/0/chat_messages/1/parent_message_uuid",
                "5d7e9a10-1111-4c2b-8e3f-00000000dead".into(),
            ),
            "[0].chat_messages[1].parent_message_uuid",
        ),
        (
            broken(claude.clone(), "/1/created_at", "yesterday".into()),
            "[1].created_at",
        ),
        (
            broken(claude, "/0/chat_messages", serde_json::json!({})),
            "[0].chat_messages",
        ),
        (
            broken(
                chatgpt.clone(),
                "/0/mapping/3f1c5a60-0002-4d3e-9b1a-000000000002/message/author",
                serde_json::json!({}),
            ),
            "[0].mapping.3f1c5a60-0002-4d3e-9b1a-000000000002.message.author.role",
        ),
        (
            broken(
                chatgpt,
                "/0/mapping/3f1c5a60-0005-4d3e-9b1a-000000000005/message/content",
                serde_json::json!({ "parts": [] }),
            ),
            "content_type",
        ),
        (
            "[{\"neither\": true}]".to_owned(),
            "neither a ChatGPT export",
        ),
        ("[]".to_owned(), "empty list"),
    ];
    for (file, place) in cases {
        let err = parse(file.as_bytes()).unwrap_err();
        assert!(err.to_string().contains(place), "{place}: {err}");
        // The conversations before the broken one are imported whole, and the error says so;
        // nothing of the broken one is.
        let before: usize = place[1..].split(']').next().unwrap().parse().unwrap_or(0);
        let store = Store::open_in_memory().unwrap();
        let err = import(&store, file.as_bytes()).unwrap_err();
        assert_eq!(err.done.conversations, before, "{place}");
        assert_eq!(
            store.list_conversations(true).unwrap().len(),
            before,
            "{place}"
        );
        if before > 0 {
            assert!(
                err.to_string().contains(&format!(
                    "The {before} conversation(s) read before that were imported and stay"
                )),
                "{err}"
            );
        }
    }
}

/// A ChatGPT node regenerated 50,000 times, and an answer with 50,000 different attachments:
/// read in time that grows with the file, not with its square (each child used to copy its
/// parent's list of children, and each note was looked for among all the notes before it).
#[test]
fn a_node_with_fifty_thousand_answers_imports_in_linear_time() {
    use serde_json::{Map, json};
    const ANSWERS: usize = 50_000;
    const ATTACHMENTS: usize = 50_000;
    let node = |id: &str,
                parent: Option<&str>,
                children: Vec<String>,
                message: serde_json::Value| {
        json!({"id": id, "parent": parent, "children": children, "message": message})
    };
    let said = |role: &str, parts: serde_json::Value| json!({"author": {"role": role}, "content": {"content_type": "text", "parts": parts}});
    let mut mapping = Map::new();
    let answers: Vec<String> = (0..ANSWERS).map(|i| format!("a{i}")).collect();
    mapping.insert(
        "root".into(),
        node("root", None, vec!["q".into()], json!(null)),
    );
    mapping.insert(
        "q".into(),
        node(
            "q",
            Some("root"),
            vec!["t".into()],
            said("user", json!(["Again?"])),
        ),
    );
    // An answer's first node, whose children are its versions.
    mapping.insert(
        "t".into(),
        node(
            "t",
            Some("q"),
            answers.clone(),
            said("assistant", json!(["Let me see."])),
        ),
    );
    for (i, id) in answers.iter().enumerate() {
        let parts = if i == 0 {
            (0..ATTACHMENTS)
                .map(|n| json!({"content_type": format!("kind_{n}"), "asset_pointer": "file-x"}))
                .collect()
        } else {
            json!([format!("Answer {i}")])
        };
        mapping.insert(
            id.clone(),
            node(id, Some("t"), Vec::new(), said("assistant", parts)),
        );
    }
    let export = json!([{
        "id": "big", "title": "Regenerated", "create_time": 1.7e9,
        "mapping": mapping, "current_node": "a1",
    }]);
    let bytes = serde_json::to_vec(&export).unwrap();
    let started = std::time::Instant::now();
    let records = parse(&bytes).unwrap();
    let took = started.elapsed();
    assert_eq!(records[0].messages.len(), 2 + ANSWERS);
    assert_eq!(records[0].messages[2].notes.len(), ATTACHMENTS);
    // Read in well under a second in a release build and a few in a debug one; the quadratic
    // reading took minutes. The bound only tells the two apart.
    assert!(took.as_secs() < 30, "{took:?}");
}
