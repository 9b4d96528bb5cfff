//! What the answers took, per day and per model: the figures behind the usage view.

use serde::Serialize;

use super::{Result, Store};
use crate::chat::Usage;
use crate::prices::Prices;

/// One model's answers on one day (UTC).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct UsageRow {
    /// YYYY-MM-DD.
    pub day: String,
    pub provider: String,
    pub model: String,
    pub answers: u32,
    pub usage: Usage,
    /// US dollars, where the model's prices are known.
    pub cost: Option<f64>,
}

impl Store {
    /// Tokens and cost of the answers since `since_ms`, per day and model, oldest day first.
    /// Every version counts: each was paid for. Deleted branches do not.
    pub fn usage_by_day(&self, since_ms: i64, prices: &Prices) -> Result<Vec<UsageRow>> {
        let rows = self.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT date(created_at / 1000, 'unixepoch') AS day, provider, model, count(*),
                        sum(input_tokens), sum(output_tokens), sum(reasoning_tokens), sum(cached_tokens)
                   FROM messages
                  WHERE role = 'assistant' AND deleted_at IS NULL AND created_at >= ?1
                    AND provider IS NOT NULL AND model IS NOT NULL
                  GROUP BY day, provider, model
                  ORDER BY day, provider, model",
            )?;
            let rows = stmt.query_map([since_ms], |r| {
                Ok(UsageRow {
                    day: r.get(0)?,
                    provider: r.get(1)?,
                    model: r.get(2)?,
                    answers: r.get(3)?,
                    usage: usage_at(r, 4)?,
                    cost: None,
                })
            })?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })?;
        Ok(rows
            .into_iter()
            .map(|mut row| {
                row.cost = prices.cost(&row.provider, &row.model, &row.usage);
                row
            })
            .collect())
    }

    /// What every message of a conversation (every version) cost at `prices`; None when
    /// none of them is priced. Reads only the figures: a long thread's messages stay unread.
    pub fn conversation_cost(&self, conversation_id: &str, prices: &Prices) -> Result<Option<f64>> {
        Ok(self.conversation_totals(conversation_id, prices)?.cost)
    }

    /// What a conversation's answers took, every version and tool step included: thinking
    /// time, tokens and cost.
    pub fn conversation_totals(
        &self,
        conversation_id: &str,
        prices: &Prices,
    ) -> Result<ConversationTotals> {
        Ok(self
            .totals_where(Some(conversation_id), prices)?
            .remove(conversation_id)
            .unwrap_or_default())
    }

    /// [`conversation_totals`](Self::conversation_totals) of every conversation, in one read.
    pub fn all_conversation_totals(
        &self,
        prices: &Prices,
    ) -> Result<std::collections::HashMap<String, ConversationTotals>> {
        self.totals_where(None, prices)
    }

    fn totals_where(
        &self,
        conversation_id: Option<&str>,
        prices: &Prices,
    ) -> Result<std::collections::HashMap<String, ConversationTotals>> {
        // Summed per model in SQL: a conversation's figures are read, never its messages. One
        // conversation's are found through the figures index; an `?1 IS NULL OR …` filter
        // would scan every message of the history instead.
        let rows = self.read(|c| {
            let mut stmt = match conversation_id {
                Some(_) => {
                    c.prepare_cached(&format!("{FIGURES} AND conversation_id = ?1{GROUPED}"))?
                }
                None => c.prepare_cached(&format!("{FIGURES}{GROUPED}"))?,
            };
            let params: &[&dyn rusqlite::ToSql] = match &conversation_id {
                Some(id) => &[id],
                None => &[],
            };
            let rows = stmt.query_map(params, |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<String>>(1)?,
                    r.get::<_, Option<String>>(2)?,
                    r.get::<_, i64>(3)?,
                    r.get::<_, Option<i64>>(4)?,
                    usage_at(r, 5)?,
                ))
            })?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })?;
        let mut out: std::collections::HashMap<String, ConversationTotals> =
            std::collections::HashMap::new();
        for (id, provider, model, answers, thinking_ms, usage) in rows {
            let totals = out.entry(id).or_default();
            totals.answers += u32::try_from(answers).unwrap_or(u32::MAX);
            totals.thinking_ms += u64::try_from(thinking_ms.unwrap_or(0)).unwrap_or(0);
            totals.input_tokens += u64::from(usage.input.unwrap_or(0));
            totals.output_tokens += u64::from(usage.output.unwrap_or(0));
            totals.thinking_tokens += u64::from(usage.reasoning.unwrap_or(0));
            if let (Some(provider), Some(model)) = (provider, model)
                && let Some(cost) = prices.cost(&provider, &model, &usage)
            {
                *totals.cost.get_or_insert(0.0) += cost;
            }
        }
        Ok(out)
    }
}

/// What a conversation's answers took, every version and tool step included.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ConversationTotals {
    /// Assistant messages: answers, their versions and the steps of tool loops.
    pub answers: u32,
    /// Time spent thinking, as measured while the thoughts streamed.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub thinking_ms: u64,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub input_tokens: u64,
    /// Output tokens, thinking included (as every provider counts them for billing).
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub output_tokens: u64,
    /// The part of the output that was thinking, where the provider reports it.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub thinking_tokens: u64,
    /// US dollars, where any answer's model is priced.
    pub cost: Option<f64>,
}

/// Every answer's figures summed per conversation and model (`GROUPED` ends the query).
const FIGURES: &str = "SELECT conversation_id, provider, model, count(*), sum(thinking_ms),
        sum(input_tokens), sum(output_tokens), sum(reasoning_tokens), sum(cached_tokens)
   FROM messages
  WHERE role = 'assistant' AND deleted_at IS NULL";
const GROUPED: &str = " GROUP BY conversation_id, provider, model";

/// The four token columns (input, output, reasoning, cached) from column `first` on.
fn usage_at(r: &rusqlite::Row<'_>, first: usize) -> rusqlite::Result<Usage> {
    let tokens = |i: usize| -> rusqlite::Result<Option<u32>> {
        Ok(r.get::<_, Option<i64>>(first + i)?
            .map(|n| u32::try_from(n).unwrap_or(u32::MAX)))
    };
    Ok(Usage {
        input: tokens(0)?,
        output: tokens(1)?,
        reasoning: tokens(2)?,
        cached: tokens(3)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Opening a conversation reads its totals: through the figures index alone, never by
    /// scanning every message of a long history, nor by reading each answer's row for a
    /// column the index lacks.
    #[test]
    fn one_conversations_totals_are_found_through_the_figures_index() {
        let store = Store::open_in_memory().unwrap();
        let plan: Vec<String> = store
            .read(|c| {
                let sql = format!("EXPLAIN QUERY PLAN {FIGURES} AND conversation_id = ?1{GROUPED}");
                let mut stmt = c.prepare(&sql)?;
                let rows = stmt.query_map(["c"], |r| r.get::<_, String>(3))?;
                Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
            })
            .unwrap();
        assert!(
            plan.iter().any(|step| step
                .starts_with("SEARCH messages USING COVERING INDEX messages_figures")
                && step.contains("conversation_id=?")),
            "{plan:?}"
        );
    }
}
