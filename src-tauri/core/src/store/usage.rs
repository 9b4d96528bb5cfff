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
        let rows = self.read(|c| {
            let mut stmt = c.prepare_cached(
                "SELECT provider, model, input_tokens, output_tokens, reasoning_tokens, cached_tokens
                   FROM messages
                  WHERE conversation_id = ?1 AND role = 'assistant' AND deleted_at IS NULL
                    AND provider IS NOT NULL AND model IS NOT NULL",
            )?;
            let rows = stmt.query_map([conversation_id], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    usage_at(r, 2)?,
                ))
            })?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })?;
        let mut costs = rows
            .iter()
            .filter_map(|(provider, model, usage)| prices.cost(provider, model, usage))
            .peekable();
        Ok(costs.peek().is_some().then(|| costs.sum()))
    }
}

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
