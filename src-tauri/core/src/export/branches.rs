//! Every version of a conversation as a transcript can read it: the path the conversation
//! shows first, then each other version with what followed it, once. Each branch of the tree
//! ends in a leaf; a leaf's path is written from where it leaves everything written before
//! it, under a label saying which version it is ("Version 2 of 3 · answer to “…”").

use std::collections::{HashMap, HashSet};

use crate::chat::Role;
use crate::store::StoredMessage;

/// A stretch of a transcript: the path shown (no label), or another version and what
/// followed it along that branch.
#[derive(Debug, Clone, PartialEq)]
pub struct Branch {
    pub label: Option<String>,
    pub messages: Vec<StoredMessage>,
}

impl Branch {
    /// The path the conversation shows, alone.
    pub fn shown(messages: Vec<StoredMessage>) -> Vec<Branch> {
        vec![Branch {
            label: None,
            messages,
        }]
    }
}

/// The shown path, then every other branch of `all` (every message of the conversation, in
/// the order they were written), each from where it leaves what came before.
pub fn branches(all: &[StoredMessage], shown: &[StoredMessage]) -> Vec<Branch> {
    let by_id: HashMap<&str, &StoredMessage> = all.iter().map(|m| (m.id.as_str(), m)).collect();
    let mut children: HashMap<Option<&str>, Vec<&StoredMessage>> = HashMap::new();
    for m in all {
        // A parent not in the list (never the case for a whole conversation) is a root.
        let parent = m.parent_id.as_deref().filter(|p| by_id.contains_key(p));
        children.entry(parent).or_default().push(m);
    }
    // Every leaf, in the order a reader meets the versions: depth first, oldest first.
    let mut leaves = Vec::new();
    let mut stack: Vec<&StoredMessage> = children
        .get(&None)
        .into_iter()
        .flatten()
        .rev()
        .copied()
        .collect();
    while let Some(m) = stack.pop() {
        match children.get(&Some(m.id.as_str())) {
            Some(kids) => stack.extend(kids.iter().rev()),
            None => leaves.push(m),
        }
    }

    let mut written: HashSet<&str> = shown.iter().map(|m| m.id.as_str()).collect();
    let mut out = Branch::shown(shown.to_vec());
    for leaf in leaves {
        if written.contains(leaf.id.as_str()) {
            continue;
        }
        let mut path = vec![leaf];
        while let Some(parent) = path
            .last()
            .and_then(|m| m.parent_id.as_deref())
            .and_then(|p| by_id.get(p))
        {
            path.push(parent);
        }
        path.reverse();
        let Some(from) = path.iter().position(|m| !written.contains(m.id.as_str())) else {
            continue;
        };
        let first = path[from];
        let siblings = &children[&first.parent_id.as_deref().filter(|p| by_id.contains_key(p))];
        let label = label(first, siblings, &path[..from]);
        written.extend(path[from..].iter().map(|m| m.id.as_str()));
        out.push(Branch {
            label: Some(label),
            messages: path[from..].iter().map(|m| (*m).clone()).collect(),
        });
    }
    out
}

/// "Version 2 of 3 · answer to “Is 1,000,003 prime?”", "Version 2 of 2 · of the question
/// “Is 1,000,003 prime?”".
fn label(first: &StoredMessage, siblings: &[&StoredMessage], before: &[&StoredMessage]) -> String {
    let at = siblings.iter().position(|m| m.id == first.id).unwrap_or(0) + 1;
    let of = siblings.len();
    let quote = |m: &StoredMessage| {
        let text = m.message.text();
        let words: Vec<&str> = text.split_whitespace().collect();
        let mut short = words.iter().take(12).copied().collect::<Vec<_>>().join(" ");
        if words.len() > 12 {
            short.push('…');
        }
        format!("“{short}”")
    };
    let whose = match first.message.role {
        Role::User => format!("of the question {}", quote(siblings[0])),
        _ => match before.iter().rev().find(|m| m.message.role == Role::User) {
            Some(question) => format!("answer to {}", quote(question)),
            None => "answer".to_owned(),
        },
    };
    format!("Version {at} of {of} · {whose}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::Part;
    use crate::reasoning::choice::Choice;
    use crate::store::{NewConversation, Store, TurnRecord};

    fn answer(store: &Store, c: &str, after: &str, text: &str) -> String {
        let origin = crate::chat::Origin {
            provider: "anthropic".into(),
            model: "claude-sonnet-4-5".into(),
        };
        let id = store
            .start_assistant(c, after, &origin, Choice::HIGH)
            .unwrap();
        store
            .finish_assistant(
                &id,
                &TurnRecord {
                    status: crate::store::MessageStatus::Complete,
                    parts: vec![Part::Text { text: text.into() }],
                    replay: None,
                    usage: Default::default(),
                    stop: None,
                    error_code: None,
                    error_message: None,
                },
            )
            .unwrap();
        id
    }

    fn texts(branch: &Branch) -> Vec<String> {
        branch.messages.iter().map(|m| m.message.text()).collect()
    }

    #[test]
    fn the_shown_path_comes_first_then_each_other_version_once_with_what_followed_it() {
        let store = Store::open_in_memory().unwrap();
        let c = store
            .create_conversation(NewConversation::default())
            .unwrap()
            .id;
        let q1 = store.append_user(&c, "Q1").unwrap().id;
        answer(&store, &c, &q1, "A1");
        let q2 = store.append_user(&c, "Q2").unwrap().id;
        let a2 = answer(&store, &c, &q2, "A2");
        // Another answer to Q2 (shown now), an edit of Q2 with its own answer, and the first
        // answer to Q2 went on with Q3.
        answer(&store, &c, &q2, "A2 again");
        let edited = store.ask(&c, "Q2 edited", Some(&q2)).unwrap().id;
        answer(&store, &c, &edited, "A2 to the edit");
        store.select_version(&a2).unwrap();
        let q3 = store.append_user(&c, "Q3").unwrap().id;
        answer(&store, &c, &q3, "A3");

        let all = store.all_messages(&c).unwrap();
        let shown = store.messages(&c).unwrap();
        let got = branches(&all, &shown);
        let outline: Vec<(Option<&str>, Vec<String>)> =
            got.iter().map(|b| (b.label.as_deref(), texts(b))).collect();
        assert_eq!(
            outline,
            [
                (
                    None,
                    vec![
                        "Q1".into(),
                        "A1".into(),
                        "Q2".into(),
                        "A2".into(),
                        "Q3".into(),
                        "A3".into()
                    ]
                ),
                (
                    Some("Version 2 of 2 · answer to “Q2”"),
                    vec!["A2 again".into()]
                ),
                (
                    Some("Version 2 of 2 · of the question “Q2”"),
                    vec!["Q2 edited".into(), "A2 to the edit".into()]
                ),
            ]
        );
        // Every message once.
        assert_eq!(
            got.iter().map(|b| b.messages.len()).sum::<usize>(),
            all.len()
        );
        // One branch only: the shown path alone.
        let single = branches(&shown[..2], &shown[..2]);
        assert_eq!(single, Branch::shown(shown[..2].to_vec()));
    }
}
