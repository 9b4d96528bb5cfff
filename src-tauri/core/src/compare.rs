//! What each version of an answer took: its model and level, how long it took to start, to
//! think and to finish, its tokens summed over the steps of a tool loop, and what they cost
//! ([`Prices`]). The figures the compare view and `ponder-cli compare` show side by side.

use serde::Serialize;

use crate::chat::{Role, Usage};
use crate::prices::Prices;
use crate::reasoning::choice::Choice;
use crate::store::{MessageStatus, Store, StoreError, StoredMessage};

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct VersionFigures {
    /// The version's first message (its id in the tree).
    pub id: String,
    pub provider: Option<String>,
    pub model: Option<String>,
    pub choice: Option<Choice>,
    /// How the last step ended.
    pub status: MessageStatus,
    /// Model steps (more than one when it called tools).
    pub steps: u32,
    /// From the request to the first thought, text or call.
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub first_token_ms: Option<u64>,
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub thinking_ms: Option<u64>,
    /// From the request to the last step's end.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub total_ms: u64,
    pub usage: Usage,
    /// US dollars, where the model's prices are known.
    pub cost: Option<f64>,
}

/// The figures of one version, from its turn (`Store::turn_of`); none for an empty turn.
pub fn figures(turn: &[StoredMessage], prices: &Prices) -> Option<VersionFigures> {
    let first = turn.first()?;
    let steps: Vec<&StoredMessage> = turn
        .iter()
        .filter(|m| m.message.role == Role::Assistant)
        .collect();
    let last = steps.last().copied().unwrap_or(first);
    let sum = |field: fn(&Usage) -> Option<u32>| -> Option<u32> {
        steps
            .iter()
            .filter_map(|m| field(&m.usage))
            .reduce(|a, b| a.saturating_add(b))
    };
    let thinking: u64 = steps.iter().filter_map(|m| m.thinking_ms).sum();
    let usage = Usage {
        input: sum(|u| u.input),
        output: sum(|u| u.output),
        reasoning: sum(|u| u.reasoning),
        cached: sum(|u| u.cached),
    };
    let origin = first.message.origin.as_ref();
    Some(VersionFigures {
        id: first.id.clone(),
        provider: first.message.origin.as_ref().map(|o| o.provider.clone()),
        model: first.message.origin.as_ref().map(|o| o.model.clone()),
        choice: first.choice,
        status: last.status,
        steps: u32::try_from(steps.len()).unwrap_or(u32::MAX),
        first_token_ms: first.first_token_ms,
        thinking_ms: (thinking > 0).then_some(thinking),
        total_ms: u64::try_from(last.updated_at.saturating_sub(first.created_at)).unwrap_or(0),
        cost: origin.and_then(|o| prices.cost(&o.provider, &o.model, &usage)),
        usage,
    })
}

/// One version of an answer: its figures and its messages (the steps of a tool loop too).
#[derive(Debug, Clone)]
pub struct Version {
    pub figures: VersionFigures,
    pub turn: Vec<StoredMessage>,
}

/// Every answer to the question `message_id` answers (or is), oldest first: the versions
/// the compare view and `ponder-cli compare` set side by side.
pub fn versions(
    store: &Store,
    message_id: &str,
    prices: &Prices,
) -> Result<Vec<Version>, StoreError> {
    let question = store.question_of(message_id)?;
    let mut out = Vec::new();
    for id in store.answers_to(&question.id)? {
        let turn = store.turn_of(&id)?;
        if let Some(figures) = figures(&turn, prices) {
            out.push(Version { figures, turn });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::{Message, Origin};

    fn step(
        id: &str,
        role: Role,
        usage: Usage,
        thinking_ms: Option<u64>,
        at: (i64, i64),
    ) -> StoredMessage {
        StoredMessage {
            id: id.into(),
            conversation_id: "c".into(),
            seq: 0,
            parent_id: None,
            status: MessageStatus::Complete,
            message: Message {
                role,
                parts: Vec::new(),
                origin: (role == Role::Assistant).then(|| Origin {
                    provider: "deepseek".into(),
                    model: "deepseek-v4-flash".into(),
                }),
                replay: None,
            },
            choice: (role == Role::Assistant).then_some(Choice::HIGH),
            usage,
            thinking_ms,
            first_token_ms: Some(700),
            stop: None,
            error_code: None,
            error_message: None,
            notes: Vec::new(),
            created_at: at.0,
            updated_at: at.1,
        }
    }

    #[test]
    fn a_tool_loop_sums_its_steps_and_runs_from_the_first_to_the_last() {
        let tokens = |input, output, reasoning| Usage {
            input: Some(input),
            output: Some(output),
            reasoning,
            cached: None,
        };
        let turn = [
            step(
                "a",
                Role::Assistant,
                tokens(100, 40, Some(30)),
                Some(2_000),
                (1_000, 4_000),
            ),
            step("t", Role::Tool, Usage::default(), None, (4_100, 4_100)),
            step(
                "b",
                Role::Assistant,
                tokens(180, 60, None),
                Some(500),
                (4_200, 9_000),
            ),
        ];
        let f = figures(&turn, &Prices::default()).unwrap();
        assert_eq!(f.id, "a");
        assert_eq!(f.model.as_deref(), Some("deepseek-v4-flash"));
        assert_eq!(f.choice, Some(Choice::HIGH));
        assert_eq!(f.steps, 2);
        assert_eq!(f.thinking_ms, Some(2_500));
        assert_eq!(f.total_ms, 8_000);
        assert_eq!(
            f.usage,
            Usage {
                input: Some(280),
                output: Some(100),
                reasoning: Some(30),
                cached: None
            }
        );
        assert_eq!(f.first_token_ms, Some(700));
        // deepseek-v4-flash's listed prices, whatever they are today.
        let price = Prices::listed("deepseek", "deepseek-v4-flash").unwrap();
        let want = (280.0 * price.input.unwrap() + 100.0 * price.output.unwrap()) / 1e6;
        assert!(
            (f.cost.unwrap() - want).abs() < 1e-12,
            "{:?} {want}",
            f.cost
        );
        assert_eq!(figures(&[], &Prices::default()), None);
    }
}
