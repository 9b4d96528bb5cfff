//! Calls of one step that share an id. The id is how everything after the step tells the
//! calls apart: the user's approval card answers the call with that id, a result says which
//! call it answers, and the provider pairs each result with its call by it. Two calls with one
//! id would share a card and a result, so an approval given to one could run the other.
//!
//! Such a step is kept, and each later call with a taken id gets a new one: `call_1` again
//! becomes `call_1-2` (then `-3`…, skipping ids the step already has). The new id is written
//! into the step itself, in its parts and in the provider's own form of it (the replay), so
//! the call the provider reads back and the result that answers it carry the same id.
//! Refusing the calls instead would still send the provider two results under one id, which
//! it cannot pair either. The suffix keeps to letters, digits, `-` and `_`, which every
//! provider accepts in an id.

use std::collections::HashSet;

use serde_json::Value;

use crate::chat::{Message, Part};

/// Gives every call of a step an id of its own, in its parts and its replay alike.
pub fn make_call_ids_unique(message: &mut Message) {
    let ids: Vec<String> = message.tool_calls().map(|c| c.id.clone()).collect();
    let renamed = unique_ids(&ids);
    if renamed.iter().all(Option::is_none) {
        return;
    }
    let calls = message.parts.iter_mut().filter_map(|part| match part {
        Part::ToolCall(call) => Some(call),
        _ => None,
    });
    for (call, new) in calls.zip(&renamed) {
        if let Some(new) = new {
            call.id.clone_from(new);
        }
    }
    let replayed = message
        .replay
        .as_mut()
        .is_some_and(|replay| rename_in_replay(&mut replay.content, &ids, &renamed));
    if !replayed {
        // A replay whose calls cannot be matched to the step's would send the provider the
        // old ids: the step goes back in Ponder's own form instead, from its parts.
        message.replay = None;
    }
}

/// For each id, the new id it takes, or `None` where it is the first with that id.
fn unique_ids(ids: &[String]) -> Vec<Option<String>> {
    let given: HashSet<&str> = ids.iter().map(String::as_str).collect();
    let mut used: HashSet<String> = HashSet::new();
    ids.iter()
        .map(|id| {
            if used.insert(id.clone()) {
                return None;
            }
            let base = if id.is_empty() { "call" } else { id.as_str() };
            let new = (2u64..).map(|n| format!("{base}-{n}")).find(|candidate| {
                !given.contains(candidate.as_str()) && !used.contains(candidate)
            })?;
            used.insert(new.clone());
            Some(new)
        })
        .collect()
}

/// Writes the new ids into a provider's form of the step; false when its calls do not match
/// the step's one for one.
fn rename_in_replay(content: &mut Value, ids: &[String], renamed: &[Option<String>]) -> bool {
    let slots = call_id_slots(content);
    if slots.len() != ids.len() {
        return false;
    }
    for ((slot, old), new) in slots.into_iter().zip(ids).zip(renamed) {
        match (slot, new) {
            (Some(slot), Some(new)) if slot.as_str() == Some(old.as_str()) => {
                *slot = Value::String(new.clone());
            }
            // The provider gave this call no id (Ponder made one up): nothing to rename.
            (None, _) | (_, None) => {}
            (Some(_), Some(_)) => return false,
        }
    }
    true
}

/// Where each call of a replayed step keeps its id, in the order of the calls: Chat
/// Completions and Ollama (`tool_calls[].id`), Anthropic (`content[]` `tool_use` blocks'
/// `id`), Responses (`items[]` `function_call` items' `call_id`), Gemini (`parts[]`'
/// `functionCall.id`). `None` for a call that came without an id.
fn call_id_slots(content: &mut Value) -> Vec<Option<&mut Value>> {
    let Some(object) = content.as_object_mut() else {
        return Vec::new();
    };
    let mut slots = Vec::new();
    for (key, list) in object.iter_mut() {
        let Some(list) = list.as_array_mut() else {
            continue;
        };
        for item in list.iter_mut() {
            let slot = match key.as_str() {
                "tool_calls" => Some(item.get_mut("id")),
                "content" if item["type"] == "tool_use" => Some(item.get_mut("id")),
                "items" if item["type"] == "function_call" => Some(item.get_mut("call_id")),
                "parts" => item.get_mut("functionCall").map(|call| call.get_mut("id")),
                _ => None,
            };
            if let Some(slot) = slot {
                slots.push(slot);
            }
        }
    }
    slots
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::{Replay, Role, ToolCall};
    use serde_json::json;

    fn step(ids: &[&str], replay: Option<Value>) -> Message {
        Message {
            role: Role::Assistant,
            parts: ids
                .iter()
                .enumerate()
                .map(|(i, id)| {
                    Part::ToolCall(ToolCall {
                        id: (*id).to_owned(),
                        name: "echo".into(),
                        arguments: format!("{{\"n\":{i}}}"),
                    })
                })
                .collect(),
            replay: replay.map(|content| Replay {
                provider: "p".into(),
                model: "m".into(),
                content,
            }),
            ..Message::user("")
        }
    }

    fn ids(message: &Message) -> Vec<&str> {
        message.tool_calls().map(|c| c.id.as_str()).collect()
    }

    #[test]
    fn later_calls_with_a_taken_id_get_the_next_free_one() {
        let cases: &[(&[&str], &[&str])] = &[
            (&["a", "b"], &["a", "b"]),
            (&["a", "a"], &["a", "a-2"]),
            (&["a", "a", "a"], &["a", "a-2", "a-3"]),
            (&["a", "a-2", "a"], &["a", "a-2", "a-3"]),
            (&["a", "a", "a-2"], &["a", "a-3", "a-2"]),
            (&["", ""], &["", "call-2"]),
        ];
        for (given, want) in cases {
            let mut message = step(given, None);
            make_call_ids_unique(&mut message);
            assert_eq!(ids(&message), *want, "{given:?}");
        }
    }

    #[test]
    fn the_new_ids_are_written_into_each_protocols_replay() {
        let cases = [
            (
                json!({"role": "assistant", "tool_calls": [{"id": "c"}, {"id": "c"}]}),
                json!({"role": "assistant", "tool_calls": [{"id": "c"}, {"id": "c-2"}]}),
            ),
            (
                json!({"content": [{"type": "thinking", "signature": "s"}, {"type": "tool_use", "id": "c"}, {"type": "text", "text": "x"}, {"type": "tool_use", "id": "c"}]}),
                json!({"content": [{"type": "thinking", "signature": "s"}, {"type": "tool_use", "id": "c"}, {"type": "text", "text": "x"}, {"type": "tool_use", "id": "c-2"}]}),
            ),
            (
                json!({"items": [{"type": "reasoning", "id": "c"}, {"type": "function_call", "id": "fc_1", "call_id": "c"}, {"type": "function_call", "id": "fc_2", "call_id": "c"}]}),
                json!({"items": [{"type": "reasoning", "id": "c"}, {"type": "function_call", "id": "fc_1", "call_id": "c"}, {"type": "function_call", "id": "fc_2", "call_id": "c-2"}]}),
            ),
            (
                json!({"parts": [{"text": "t"}, {"functionCall": {"id": "c", "name": "echo"}}, {"functionCall": {"id": "c", "name": "echo"}, "thoughtSignature": "s"}]}),
                json!({"parts": [{"text": "t"}, {"functionCall": {"id": "c", "name": "echo"}}, {"functionCall": {"id": "c-2", "name": "echo"}, "thoughtSignature": "s"}]}),
            ),
        ];
        for (replay, want) in cases {
            let mut message = step(&["c", "c"], Some(replay));
            make_call_ids_unique(&mut message);
            assert_eq!(ids(&message), ["c", "c-2"]);
            assert_eq!(message.replay.map(|r| r.content), Some(want));
        }
    }

    #[test]
    fn a_replay_whose_calls_do_not_match_is_not_sent_back() {
        let mut message = step(&["c", "c"], Some(json!({"tool_calls": [{"id": "c"}]})));
        make_call_ids_unique(&mut message);
        assert_eq!(ids(&message), ["c", "c-2"]);
        assert!(message.replay.is_none());

        let untouched = json!({"tool_calls": [{"id": "a"}, {"id": "b"}]});
        let mut message = step(&["a", "b"], Some(untouched.clone()));
        make_call_ids_unique(&mut message);
        assert_eq!(message.replay.map(|r| r.content), Some(untouched));
    }
}
