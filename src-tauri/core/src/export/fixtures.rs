//! Conversations for the export tests, with fixed ids and timestamps so snapshots are stable.

use serde_json::json;

use crate::chat::{
    Message, Origin, Part, Replay, Role, StopReason, ThinkingBlock, ThoughtSource, ToolCall, Usage,
};
use crate::reasoning::choice::Choice;
use crate::reasoning::settings::ReasoningSettings;
use crate::store::{Conversation, ConversationRecord, MessageStatus, Store, StoredMessage};

/// 2025-01-02 03:04:05 UTC.
pub(super) const T0: i64 = 1_735_787_045_000;

pub(super) const PRIMES_ID: &str = "0f5c2a9e41d84b6f9a3c7e2d1b8f6a40";

pub(super) const HOSTILE: &str =
    "<script>alert(1)</script> <img src=x onerror=alert(1)> [x](javascript:alert(1))";

fn text(t: &str) -> Part {
    Part::Text { text: t.to_owned() }
}

fn user(conversation_id: &str, seq: i64, t: &str) -> StoredMessage {
    stored(conversation_id, seq, Message::user(t))
}

fn assistant(
    conversation_id: &str,
    seq: i64,
    provider: &str,
    model: &str,
    choice: Choice,
    parts: Vec<Part>,
) -> StoredMessage {
    let mut m = stored(
        conversation_id,
        seq,
        Message {
            role: Role::Assistant,
            parts,
            origin: Some(Origin {
                provider: provider.to_owned(),
                model: model.to_owned(),
            }),
            replay: None,
        },
    );
    m.choice = Some(choice);
    let total: u64 = m.message.thinking().filter_map(|b| b.duration_ms).sum();
    m.thinking_ms = (total > 0).then_some(total);
    m.stop = Some(StopReason::End);
    m
}

fn stored(conversation_id: &str, seq: i64, message: Message) -> StoredMessage {
    let at = T0 + seq * 60_000;
    StoredMessage {
        id: format!("{}{seq:02}", &conversation_id[..30]),
        conversation_id: conversation_id.to_owned(),
        seq,
        parent_id: None,
        status: MessageStatus::Complete,
        message,
        choice: None,
        usage: Usage::default(),
        thinking_ms: None,
        first_token_ms: None,
        stop: None,
        error_code: None,
        error_message: None,
        notes: Vec::new(),
        created_at: at,
        updated_at: at + 30_000,
    }
}

/// Eight messages: a signed thought with its replay, a redacted block beside a summary (and an
/// empty and a hidden thought, which transcripts skip), an error, a cancelled turn with a tool call.
pub(super) fn primes() -> ConversationRecord {
    let id = PRIMES_ID;
    let mut settings = ReasoningSettings {
        choice: Choice::HIGH,
        include_in_context: true,
        max_output_tokens: Some(32_000),
        ..ReasoningSettings::default()
    };
    settings.set("stripFromContext", "allButLast").unwrap();
    let conversation = Conversation {
        id: id.to_owned(),
        title: "Primes, by hand".to_owned(),
        created_at: T0,
        updated_at: T0 + 8 * 60_000,
        provider: Some("anthropic".to_owned()),
        model: Some("claude-sonnet-4-5".to_owned()),
        settings,
        pinned: true,
        archived: false,
        leaf_id: None,
        project: None,
    };

    let thought = "221 is odd, and its digits sum to 5, so neither 2 nor 3 divides it.\n\
                   Try 7: 7 × 31 = 217, remainder 4.\n\nTry 13: 13 × 17 = 221. Found it.";
    let signature =
        "EqQBCkgIBRABGAIiQGv0sZ3aQ9fM1pK7yT2wX8cV4bN6mL0hJ5gF3dS1aZ9xC7vB2nM4kL6jH8gF0dS2aQ==";
    let answer = "No. 221 = 13 × 17, so it is composite.\n\n";
    let check = "Check: 13 × 17 = 130 + 91 = **221**.\n\n- 13 is prime\n- 17 is prime";
    let mut m1 = assistant(
        id,
        1,
        "anthropic",
        "claude-sonnet-4-5",
        Choice::HIGH,
        vec![
            Part::Thinking(ThinkingBlock {
                text: thought.to_owned(),
                source: Some(ThoughtSource::Thinking),
                signature: Some(signature.to_owned()),
                duration_ms: Some(12_000),
                token_estimate: Some(3_204),
                ..ThinkingBlock::default()
            }),
            text(answer),
            text(check),
        ],
    );
    m1.message.replay = Some(Replay {
        provider: "anthropic".to_owned(),
        model: "claude-sonnet-4-5".to_owned(),
        content: json!([
            {"type": "thinking", "thinking": thought, "signature": signature},
            {"type": "text", "text": format!("{answer}{check}")}
        ]),
    });
    m1.usage = Usage {
        input: Some(24),
        output: Some(3_391),
        reasoning: Some(3_204),
        cached: Some(0),
    };

    let mut m3 = assistant(
        id,
        3,
        "anthropic",
        "claude-opus-4-1",
        Choice::Budget(16_000),
        vec![
            Part::Thinking(ThinkingBlock {
                source: Some(ThoughtSource::Thinking),
                redacted: Some(
                    "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP".to_owned(),
                ),
                ..ThinkingBlock::default()
            }),
            Part::Thinking(ThinkingBlock {
                text: "**Trial division**\n\nNo prime up to √223 ≈ 14.9 divides 223.".to_owned(),
                source: Some(ThoughtSource::Summary),
                provider_data: Some(
                    json!({"type": "reasoning", "id": "rs_67f1", "encrypted_content": "gAAAAABn8xQ0", "summary": []}),
                ),
                duration_ms: Some(4_200),
                ..ThinkingBlock::default()
            }),
            Part::Thinking(ThinkingBlock {
                text: " \n ".to_owned(),
                source: Some(ThoughtSource::ThinkTag),
                ..ThinkingBlock::default()
            }),
            Part::Thinking(ThinkingBlock {
                text: "An aside the user hid.".to_owned(),
                source: Some(ThoughtSource::Thinking),
                hidden: true,
                ..ThinkingBlock::default()
            }),
            text("Yes, 223 is prime."),
        ],
    );
    m3.usage = Usage {
        input: Some(310),
        output: Some(620),
        reasoning: None,
        cached: Some(256),
    };
    m3.stop = Some(StopReason::MaxTokens {
        while_thinking: false,
    });

    let mut m5 = assistant(
        id,
        5,
        "openai",
        "o3",
        Choice::MEDIUM,
        vec![Part::Thinking(ThinkingBlock {
            text: "Cole factored this in 1903.".to_owned(),
            source: Some(ThoughtSource::ReasoningContent),
            duration_ms: Some(2_000),
            ..ThinkingBlock::default()
        })],
    );
    m5.status = MessageStatus::Error;
    m5.stop = None;
    m5.error_code = Some("rate_limited".to_owned());
    m5.error_message = Some("Too many requests; try again in 20 s.".to_owned());

    let mut m7 = assistant(
        id,
        7,
        "deepseek",
        "deepseek-reasoner",
        Choice::Default,
        vec![
            Part::Thinking(ThinkingBlock {
                text: "The user wants it brief.".to_owned(),
                source: Some(ThoughtSource::ReasoningContent),
                duration_ms: Some(900),
                token_estimate: Some(1),
                ..ThinkingBlock::default()
            }),
            Part::ToolCall(ToolCall {
                id: "call_1".to_owned(),
                name: "calculator".to_owned(),
                arguments: "{\"expression\":\"193707721 * 761838257287\"}".to_owned(),
            }),
            text("2^67 − 1 = 193,707,721 × 761,838,257,287 (Cole, 1903). In"),
        ],
    );
    m7.status = MessageStatus::Cancelled;
    m7.stop = Some(StopReason::Cancelled);

    ConversationRecord {
        conversation,
        messages: vec![
            user(id, 0, "Is 221 prime?\nShow your work."),
            m1,
            user(id, 2, "And 223?"),
            m3,
            user(id, 4, "Now factor 2^67 − 1."),
            m5,
            user(id, 6, "Try again, briefly."),
            m7,
        ],
    }
}

/// Script, an image with `onerror` and a `javascript:` link in everything a model or user sets.
pub(super) fn hostile() -> ConversationRecord {
    hostile_with(HOSTILE)
}

/// `said` (`HOSTILE`, or any payload) in everything a model or user sets.
pub(super) fn hostile_with(said: &str) -> ConversationRecord {
    let id = "666f6f3c7363726970743e0000000001";
    let conversation = Conversation {
        id: id.to_owned(),
        title: said.to_owned(),
        created_at: T0,
        updated_at: T0,
        provider: Some(said.to_owned()),
        model: Some(said.to_owned()),
        settings: ReasoningSettings::default(),
        pinned: false,
        archived: false,
        leaf_id: None,
        project: None,
    };
    let mut answer = assistant(
        id,
        1,
        &format!("\"><{said}"),
        said,
        Choice::HIGH,
        vec![
            Part::Thinking(ThinkingBlock {
                text: format!("{said}\n</details></div><script>alert(2)</script>"),
                source: Some(ThoughtSource::Thinking),
                duration_ms: Some(1_000),
                ..ThinkingBlock::default()
            }),
            Part::Thinking(ThinkingBlock {
                text: format!("summary {said}"),
                source: Some(ThoughtSource::Summary),
                ..ThinkingBlock::default()
            }),
            Part::Thinking(ThinkingBlock {
                source: Some(ThoughtSource::Thinking),
                redacted: Some(said.to_owned()),
                ..ThinkingBlock::default()
            }),
            Part::ToolCall(ToolCall {
                id: said.to_owned(),
                name: said.to_owned(),
                arguments: format!("\"</div>{said}"),
            }),
            text(&format!(
                "{said}\n![y](javascript:alert(1))\n<a href=\"javascript:alert(1)\">click</a>\n<svg onload=alert(1)>\n<iframe src=\"javascript:alert(1)\"></iframe>"
            )),
        ],
    );
    answer.status = MessageStatus::Error;
    answer.error_code = Some(said.to_owned());
    answer.error_message = Some(said.to_owned());
    answer.stop = Some(StopReason::Other {
        reason: said.to_owned(),
    });
    ConversationRecord {
        conversation,
        messages: vec![user(id, 0, said), answer],
    }
}

/// An in-memory store holding `records`, and what it reads back.
pub(super) fn store_with(records: &[ConversationRecord]) -> (Store, Vec<ConversationRecord>) {
    let store = Store::open_in_memory().unwrap();
    store.insert_records(records).unwrap();
    let read = records
        .iter()
        .map(|r| ConversationRecord {
            conversation: store.conversation(&r.conversation.id).unwrap(),
            messages: store.messages(&r.conversation.id).unwrap(),
        })
        .collect();
    (store, read)
}

/// A question answered twice (at high, shown, and at low) and an edited version of it with
/// its own answer: the tree every-version transcripts are checked on.
pub(super) fn versions() -> ConversationRecord {
    let id = "5d0c9a7e3b2f4e6a8c1d0b9f7e6a5c40";
    let conversation = Conversation {
        id: id.to_owned(),
        title: "Is it prime?".to_owned(),
        created_at: T0,
        updated_at: T0 + 4 * 60_000,
        provider: Some("anthropic".to_owned()),
        model: Some("claude-sonnet-4-5".to_owned()),
        settings: ReasoningSettings::default(),
        pinned: false,
        archived: false,
        leaf_id: Some(format!("{}01", &id[..30])),
        project: None,
    };
    let question = user(id, 0, "Is 91 prime?");
    let answer = |seq, choice, said: &str| {
        let mut m = assistant(
            id,
            seq,
            "anthropic",
            "claude-sonnet-4-5",
            choice,
            vec![text(said)],
        );
        m.parent_id = Some(question.id.clone());
        m
    };
    let high = answer(1, Choice::HIGH, "No: 91 = 7 × 13.");
    let low = answer(2, Choice::LOW, "Yes, 91 is prime.");
    let edited = user(id, 3, "Is 97 prime?");
    let mut to_edit = assistant(
        id,
        4,
        "anthropic",
        "claude-sonnet-4-5",
        Choice::HIGH,
        vec![text("Yes: no prime up to 9 divides it.")],
    );
    to_edit.parent_id = Some(edited.id.clone());
    ConversationRecord {
        conversation,
        messages: vec![question, high, low, edited, to_edit],
    }
}
