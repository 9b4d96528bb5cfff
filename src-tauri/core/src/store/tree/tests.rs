//! The message tree: every version kept, one path shown, branches deleted with undo.

use crate::chat::{Origin, Part, Role, StopReason, Usage};
use crate::reasoning::choice::Choice;
use crate::store::{MessageStatus, NewConversation, SearchScope, Store, TurnRecord};

fn origin() -> Origin {
    Origin {
        provider: "anthropic".into(),
        model: "claude-sonnet-4-5".into(),
    }
}

/// An answer below `after`, finished with `text`.
fn answer(store: &Store, conversation: &str, after: &str, text: &str) -> String {
    let id = store
        .start_assistant(conversation, after, &origin(), Choice::HIGH)
        .unwrap();
    store
        .finish_assistant(
            &id,
            &TurnRecord {
                status: MessageStatus::Complete,
                parts: vec![Part::Text { text: text.into() }],
                replay: None,
                usage: Usage::default(),
                stop: Some(StopReason::End),
                error_code: None,
                error_message: None,
            },
        )
        .unwrap();
    id
}

fn texts(store: &Store, conversation: &str) -> Vec<String> {
    store
        .messages(conversation)
        .unwrap()
        .iter()
        .map(|m| m.message.text())
        .collect()
}

/// A conversation of two turns: Q1 → A1, Q2 → A2. Returns its id and the four message ids.
fn two_turns(store: &Store) -> (String, [String; 4]) {
    let c = store
        .create_conversation(NewConversation::default())
        .unwrap()
        .id;
    let q1 = store.append_user(&c, "Q1").unwrap().id;
    let a1 = answer(store, &c, &q1, "A1");
    let q2 = store.append_user(&c, "Q2").unwrap().id;
    let a2 = answer(store, &c, &q2, "A2");
    (c, [q1, a1, q2, a2])
}

#[test]
fn another_answer_is_a_version_beside_the_first_and_both_stay() {
    let store = Store::open_in_memory().unwrap();
    let (c, [_, _, q2, a2]) = two_turns(&store);
    let again = answer(&store, &c, &q2, "A2, again");
    assert_eq!(texts(&store, &c), ["Q1", "A1", "Q2", "A2, again"]);
    let versions = store.versions(&c).unwrap();
    assert_eq!(versions[&again], [a2.clone(), again.clone()]);
    assert_eq!(versions[&a2], versions[&again]);
    assert_eq!(versions.len(), 2, "only the versions have versions");
    assert_eq!(store.all_messages(&c).unwrap().len(), 5);

    store.select_version(&a2).unwrap();
    assert_eq!(texts(&store, &c), ["Q1", "A1", "Q2", "A2"]);
    store.select_version(&again).unwrap();
    assert_eq!(texts(&store, &c), ["Q1", "A1", "Q2", "A2, again"]);
}

#[test]
fn an_edited_question_is_a_version_and_the_original_keeps_its_answers() {
    let store = Store::open_in_memory().unwrap();
    let (c, [q1, a1, q2, _]) = two_turns(&store);
    let edited = store.ask(&c, "Q2, edited", Some(&q2)).unwrap();
    assert_eq!(edited.parent_id.as_deref(), Some(a1.as_str()));
    assert_eq!(texts(&store, &c), ["Q1", "A1", "Q2, edited"]);
    answer(&store, &c, &edited.id, "A2 to the edit");
    store.append_user(&c, "Q3").unwrap();
    assert_eq!(
        texts(&store, &c),
        ["Q1", "A1", "Q2, edited", "A2 to the edit", "Q3"]
    );

    // Back to the original question: its answer is there, below it.
    store.select_version(&q2).unwrap();
    assert_eq!(texts(&store, &c), ["Q1", "A1", "Q2", "A2"]);
    // And forward again: the newest path below the edit, Q3 included.
    store.select_version(&edited.id).unwrap();
    assert_eq!(texts(&store, &c).last().unwrap(), "Q3");

    // Editing the first question makes a second root.
    let first = store.ask(&c, "Q1, edited", Some(&q1)).unwrap();
    assert_eq!(first.parent_id, None);
    assert_eq!(texts(&store, &c), ["Q1, edited"]);
    assert_eq!(store.versions(&c).unwrap()[&q1], [q1.clone(), first.id]);
}

#[test]
fn a_question_of_another_conversation_cannot_be_edited_here() {
    let store = Store::open_in_memory().unwrap();
    let (c, _) = two_turns(&store);
    let (_, [other, ..]) = two_turns(&store);
    assert!(store.ask(&c, "edited", Some(&other)).is_err());
    assert!(store.question(&c, &other).is_err());
    assert_eq!(
        texts(&store, &c),
        ["Q1", "A1", "Q2", "A2"],
        "nothing changed"
    );
}

#[test]
fn a_run_on_a_branch_the_user_left_does_not_move_what_is_shown() {
    let store = Store::open_in_memory().unwrap();
    let (c, [_, _, q2, a2]) = two_turns(&store);
    // Two answers run at once below Q2 (a comparison); the user looks at the first.
    let low = store
        .start_assistant(&c, &q2, &origin(), Choice::LOW)
        .unwrap();
    let high = store
        .start_assistant(&c, &q2, &origin(), Choice::HIGH)
        .unwrap();
    store.select_version(&low).unwrap();
    // The high run's tool step goes on below it, out of sight.
    let results = store.append_tool(&c, &high, &[]).unwrap();
    store
        .start_assistant(&c, &results.id, &origin(), Choice::HIGH)
        .unwrap();
    assert_eq!(store.messages(&c).unwrap().last().unwrap().id, low);
    // Each run is sent the path down to its own question, whatever is shown.
    let history = store.history_before(&results.id).unwrap();
    assert_eq!(
        history.iter().map(|m| m.role).collect::<Vec<_>>(),
        [Role::User, Role::Assistant, Role::User]
    );
    assert_eq!(store.versions(&c).unwrap()[&a2].len(), 3);
}

#[test]
fn a_deleted_branch_can_be_brought_back_and_is_gone_an_hour_later() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.sqlite3");
    let store = Store::open(&path).unwrap();
    let (c, [_, _, q2, a2]) = two_turns(&store);
    let again = answer(&store, &c, &q2, "A2, again");
    store.append_user(&c, "Q3 after the second answer").unwrap();

    store.delete_branch(&again).unwrap();
    assert_eq!(
        texts(&store, &c),
        ["Q1", "A1", "Q2", "A2"],
        "the version beside it is shown"
    );
    assert!(store.versions(&c).unwrap().is_empty());
    assert_eq!(store.all_messages(&c).unwrap().len(), 4);
    assert!(
        store
            .search("second", SearchScope::Text, 5)
            .unwrap()
            .is_empty(),
        "a deleted branch is not found"
    );

    store.restore_branch(&again).unwrap();
    assert_eq!(
        texts(&store, &c),
        ["Q1", "A1", "Q2", "A2, again", "Q3 after the second answer"]
    );
    assert_eq!(store.versions(&c).unwrap()[&a2].len(), 2);

    // The only answer deleted: the path ends at its question.
    store.delete_branch(&again).unwrap();
    store.delete_branch(&a2).unwrap();
    assert_eq!(texts(&store, &c), ["Q1", "A1", "Q2"]);
    // Reopened within the hour, the branches can still come back; an hour on, they are gone.
    drop(store);
    let store = Store::open(&path).unwrap();
    assert_eq!(store.all_messages(&c).unwrap().len(), 3);
    store
        .write(|tx| {
            tx.execute(
                "UPDATE messages SET deleted_at = deleted_at - 3600001 WHERE deleted_at IS NOT NULL",
                [],
            )?;
            Ok(())
        })
        .unwrap();
    drop(store);
    let store = Store::open(&path).unwrap();
    assert!(store.restore_branch(&a2).is_err(), "gone for good");
    assert_eq!(texts(&store, &c), ["Q1", "A1", "Q2"]);
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

#[test]
fn a_version_of_an_answer_is_read_as_its_whole_turn() {
    let store = Store::open_in_memory().unwrap();
    let (c, [_, _, q2, a2]) = two_turns(&store);
    // Another answer that called a tool, then answered.
    let step = store
        .start_assistant(&c, &q2, &origin(), Choice::LOW)
        .unwrap();
    let results = store.append_tool(&c, &step, &[]).unwrap();
    let last = answer(&store, &c, &results.id, "after the tool");
    store.append_user(&c, "Q3").unwrap();
    let turn: Vec<String> = store
        .turn_of(&step)
        .unwrap()
        .into_iter()
        .map(|m| m.id)
        .collect();
    assert_eq!(turn, [step, results.id, last]);
    assert_eq!(
        store
            .turn_of(&a2)
            .unwrap()
            .iter()
            .map(|m| &m.id)
            .collect::<Vec<_>>(),
        [&a2]
    );
}

#[test]
fn usage_counts_every_version_per_day_and_model_but_not_deleted_ones() {
    let store = Store::open_in_memory().unwrap();
    let (c, [_, a1, q2, a2]) = two_turns(&store);
    let priced = |id: &str, input, output, reasoning| {
        store
            .write(|tx| {
                tx.execute(
                    "UPDATE messages SET input_tokens = ?2, output_tokens = ?3, reasoning_tokens = ?4, created_at = 1767225600000 WHERE id = ?1",
                    rusqlite::params![id, input, output, reasoning],
                )?;
                Ok(())
            })
            .unwrap();
    };
    priced(&a2, 1_000, 2_000, 500);
    // The first answer, with no tokens reported, on the same day.
    priced(&a1, 0, 0, 0);
    let again = answer(&store, &c, &q2, "again");
    priced(&again, 1_000, 3_000, 1_500);
    let gone = answer(&store, &c, &q2, "deleted");
    priced(&gone, 9_000_000, 9_000_000, 0);
    store.delete_branch(&gone).unwrap();

    let prices = crate::prices::Prices::default();
    let rows = store.usage_by_day(1_767_225_600_000, &prices).unwrap();
    assert_eq!(rows.len(), 1, "{rows:?}");
    let row = &rows[0];
    assert_eq!(
        (row.day.as_str(), row.model.as_str(), row.answers),
        ("2026-01-01", "claude-sonnet-4-5", 3)
    );
    assert_eq!(
        (row.usage.input, row.usage.output, row.usage.reasoning),
        (Some(2_000), Some(5_000), Some(2_000))
    );
    // At Claude Sonnet 4.5's listed prices.
    let price = crate::prices::Prices::listed("anthropic", "claude-sonnet-4-5").unwrap();
    let want = (2_000.0 * price.input.unwrap() + 5_000.0 * price.output.unwrap()) / 1e6;
    assert!((row.cost.unwrap() - want).abs() < 1e-12);
    assert!(
        store
            .usage_by_day(1_767_312_000_000, &prices)
            .unwrap()
            .is_empty(),
        "nothing after that day"
    );
    // The conversation's cost, from the figures alone, is its messages' costs summed.
    let each: f64 = store
        .all_messages(&c)
        .unwrap()
        .iter()
        .filter_map(|m| prices.message_cost(m))
        .sum();
    let cost = store.conversation_cost(&c, &prices).unwrap().unwrap();
    assert!((cost - want).abs() < 1e-12 && (cost - each).abs() < 1e-12);
    // Its totals: every version's thinking time and tokens, not the deleted branch's.
    for (id, ms) in [(&a2, 1_200), (&again, 800), (&gone, 99_000)] {
        store
            .write(|tx| {
                tx.execute(
                    "UPDATE messages SET thinking_ms = ?2 WHERE id = ?1",
                    rusqlite::params![id, ms],
                )?;
                Ok(())
            })
            .unwrap();
    }
    let totals = store.conversation_totals(&c, &prices).unwrap();
    assert_eq!(
        (
            totals.answers,
            totals.thinking_ms,
            totals.input_tokens,
            totals.output_tokens,
            totals.thinking_tokens
        ),
        (3, 2_000, 2_000, 5_000, 2_000)
    );
    assert!((totals.cost.unwrap() - cost).abs() < 1e-12);
    assert_eq!(store.all_conversation_totals(&prices).unwrap()[&c], totals);
    let unpriced = store.create_conversation(Default::default()).unwrap();
    assert_eq!(
        store.conversation_cost(&unpriced.id, &prices).unwrap(),
        None
    );
}

#[test]
fn an_answer_finds_its_question_through_its_parents_whatever_is_shown() {
    let store = Store::open_in_memory().unwrap();
    let (c, [q1, a1, q2, a2]) = two_turns(&store);
    let again = answer(&store, &c, &q2, "A2, again");
    // Shown: the first answer to Q1's path; the question is found either way.
    store.select_version(&a2).unwrap();
    let cases = [
        (&a1, &q1),
        (&q1, &q1),
        (&a2, &q2),
        (&again, &q2),
        (&q2, &q2),
    ];
    for (message, question) in cases {
        assert_eq!(&store.question_of(message).unwrap().id, question);
    }
    assert_eq!(store.answers_to(&q2).unwrap(), [a2.clone(), again.clone()]);
    assert_eq!(store.answers_to(&q1).unwrap(), [a1]);
    store.delete_branch(&again).unwrap();
    assert_eq!(store.answers_to(&q2).unwrap(), [a2]);
    assert!(matches!(
        store.question_of("no-such-message"),
        Err(crate::store::StoreError::NotFound { .. })
    ));
}

#[test]
fn an_answer_asked_beside_the_shown_one_is_kept_as_a_version_without_moving_the_thread() {
    let store = Store::open_in_memory().unwrap();
    let (c, [_, _, q2, a2]) = two_turns(&store);
    let beside = store
        .start_assistant_beside(&c, &q2, &origin(), Choice::LOW)
        .unwrap();
    // What follows it (a tool loop's next step) is not shown either.
    let step = store.append_tool(&c, &beside, &[]).unwrap().id;
    assert_eq!(texts(&store, &c), ["Q1", "A1", "Q2", "A2"]);
    assert_eq!(
        store.versions(&c).unwrap()[&a2],
        [a2.clone(), beside.clone()]
    );
    // Shown when the user picks it, with what followed it.
    store.select_version(&beside).unwrap();
    let shown = store.messages(&c).unwrap();
    assert_eq!(shown[3].id, beside);
    assert_eq!(shown.last().unwrap().id, step);
}

#[test]
fn a_long_path_is_read_from_its_end_back_to_a_question_and_the_rest_joins_above_it() {
    let store = Store::open_in_memory().unwrap();
    let (c, [_, _, q2, _]) = two_turns(&store);
    let mut last = String::new();
    for n in 3..=5 {
        let q = store.append_user(&c, &format!("Q{n}")).unwrap().id;
        last = answer(&store, &c, &q, &format!("A{n}"));
    }
    let texts_of = |messages: &[crate::store::StoredMessage]| -> Vec<String> {
        messages.iter().map(|m| m.message.text()).collect()
    };
    let whole = texts(&store, &c);
    assert_eq!(whole.len(), 10);

    // Three from the end is an answer: the tail goes on back to its question.
    let (tail, earlier) = store.messages_tail(&c, 3).unwrap();
    assert_eq!(texts_of(&tail), ["Q4", "A4", "Q5", "A5"]);
    assert_eq!(earlier, 6);
    let above = store.messages_above(&tail[0].id).unwrap();
    assert_eq!(
        [texts_of(&above), texts_of(&tail)].concat(),
        whole,
        "the rest and the tail are the whole path, in order"
    );
    assert_eq!(tail.last().unwrap().id, last);

    let (tail, earlier) = store.messages_tail(&c, 1).unwrap();
    assert_eq!(
        (texts_of(&tail), earlier),
        (vec!["Q5".into(), "A5".into()], 8)
    );
    let (tail, earlier) = store.messages_tail(&c, 100).unwrap();
    assert_eq!((texts_of(&tail), earlier), (whole.clone(), 0));
    assert!(store.messages_above(&tail[0].id).unwrap().is_empty());

    // Another version shown: the tail and the rest follow it.
    let again = answer(&store, &c, &q2, "A2, again");
    store.select_version(&again).unwrap();
    let shown = texts(&store, &c);
    assert_eq!(shown.last().unwrap(), "A2, again");
    let (tail, earlier) = store.messages_tail(&c, 2).unwrap();
    assert_eq!(
        (texts_of(&tail), earlier),
        (vec!["Q2".into(), "A2, again".into()], 2)
    );
    assert_eq!(tail[1].id, again);
    let above = store.messages_above(&tail[0].id).unwrap();
    assert_eq!([texts_of(&above), texts_of(&tail)].concat(), shown);

    let empty = store
        .create_conversation(NewConversation::default())
        .unwrap()
        .id;
    assert_eq!(store.messages_tail(&empty, 40).unwrap().1, 0);
    assert!(store.messages_tail("no-such-conversation", 40).is_err());
}

/// Runs `f` on the store in a thread, failing the test if it has not ended within 20 s: a
/// query that walks a loop of parents would otherwise hang the test run itself.
fn bounded<T: Send + 'static>(
    store: &std::sync::Arc<Store>,
    f: impl FnOnce(&Store) -> T + Send + 'static,
) -> T {
    let store = store.clone();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f(&store));
    });
    rx.recv_timeout(std::time::Duration::from_secs(20))
        .expect("the query ended")
}

/// A history whose parents form a loop (edited by hand, or damaged): reading it ends with an
/// error that says so instead of holding the history forever; the loop is found, and a read
/// that meets it opens it, making the conversation readable again with nothing lost.
#[test]
fn a_loop_of_parents_is_refused_found_and_opened() {
    let store = std::sync::Arc::new(Store::open_in_memory().unwrap());
    let (c, [q1, a1, q2, a2]) = two_turns(&store);
    let (fine, _) = two_turns(&store);
    // Q1's parent becomes A2: Q1 → A1 → Q2 → A2 → Q1.
    store
        .write(|tx| {
            tx.execute(
                "UPDATE messages SET parent_id = ?1 WHERE id = ?2",
                [&a2, &q1],
            )?;
            Ok(())
        })
        .unwrap();

    let conversation = c.clone();
    let read = bounded(&store, move |s| s.messages(&conversation).map(|m| m.len()));
    let err = read.unwrap_err();
    assert!(
        matches!(err, crate::store::StoreError::TreeLoop { .. }),
        "{err}"
    );
    assert!(err.to_string().contains("loop"), "{err}");
    let conversation = c.clone();
    let shown = bounded(&store, move |s| {
        (
            s.messages_tail(&conversation, 10).map(|(m, _)| m.len()),
            s.history_before(&a2_of(s, &conversation)).map(|h| h.len()),
        )
    });
    assert!(shown.0.is_err() && shown.1.is_err(), "{shown:?}");
    let question = q2.clone();
    assert!(bounded(&store, move |s| s.answers_to(&question)).is_ok());
    assert_eq!(
        texts(&store, &fine).len(),
        4,
        "the other conversation reads"
    );

    let loops = bounded(&store, |s| s.tree_loops(100)).unwrap();
    let mut stranded: Vec<&str> = loops.iter().map(|(_, m)| m.as_str()).collect();
    stranded.sort_unstable();
    let mut expected = vec![q1.as_str(), a1.as_str(), q2.as_str(), a2.as_str()];
    expected.sort_unstable();
    assert_eq!(stranded, expected);
    assert!(loops.iter().all(|(conversation, _)| *conversation == c));

    // Another conversation's loop, to show that opening one reads only its own conversation.
    let (other, [oq1, _, _, oa2]) = two_turns(&store);
    store
        .write(|tx| {
            tx.execute(
                "UPDATE messages SET parent_id = ?1 WHERE id = ?2",
                [&oa2, &oq1],
            )?;
            Ok(())
        })
        .unwrap();
    let conversation = c.clone();
    let read = bounded(&store, move |s| {
        s.with_loops_opened(|s| s.messages_tail(&conversation, 10))
    });
    assert_eq!(read.unwrap().0.len(), 4, "the conversation reads again");
    let left: Vec<String> = store
        .tree_loops(100)
        .unwrap()
        .into_iter()
        .map(|(conversation, _)| conversation)
        .collect();
    assert_eq!(
        left,
        vec![other.clone(); 4],
        "only the conversation read was opened"
    );
    assert_eq!(store.all_messages(&c).unwrap().len(), 4, "nothing deleted");
    assert_eq!(texts(&store, &c).len(), 4);
    assert_eq!(
        store
            .with_loops_opened(|s| s.messages(&fine))
            .unwrap()
            .len(),
        4,
        "a conversation without a loop reads as it is"
    );
    assert_eq!(store.integrity_check().unwrap(), "ok");
}

/// The conversation's last message, whatever path it shows.
fn a2_of(store: &Store, conversation: &str) -> String {
    store
        .all_messages(conversation)
        .unwrap()
        .last()
        .unwrap()
        .id
        .clone()
}

/// Reading a thread's end looks its messages up along the path; it never scans the
/// messages of the whole history (which SQLite 3.53 chose for the plain join).
#[test]
fn a_paths_end_is_looked_up_along_the_path_not_found_by_scanning_every_message() {
    let store = Store::open_in_memory().unwrap();
    let (_, [.., last]) = two_turns(&store);
    let plan: Vec<String> = store
        .read(|c| {
            let mut stmt = c.prepare(&format!("EXPLAIN QUERY PLAN {}", super::path_end_query()))?;
            let rows = stmt.query_map(rusqlite::params![last, 40], |r| r.get::<_, String>(3))?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
        .unwrap();
    assert!(
        plan.iter()
            .any(|step| step.starts_with("SEARCH messages USING")),
        "{plan:?}"
    );
    assert!(
        !plan.iter().any(|step| step.starts_with("SCAN messages")),
        "{plan:?}"
    );
}
