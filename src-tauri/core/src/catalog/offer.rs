//! What the picker offers: the real ids of the model list, the provider's live list and the
//! ids the user added, each read through its rule.

use serde::Serialize;

use super::{Catalog, LookupError, ModelInfo};
use crate::catalog::model_list::ModelList;

impl Catalog {
    /// The real models the picker offers for `provider` on `today` (YYYY-MM-DD): the model
    /// list's, minus the retired ones, each read through its rule.
    pub fn offered(&self, provider: &str, today: &str) -> Vec<ModelInfo> {
        ModelList::builtin()
            .offered(provider, today)
            .filter_map(|m| self.resolve(Some(provider), &m.id).ok())
            .collect()
    }

    /// The model list's models of `provider` retired by `today` that [`Catalog::offer`] does
    /// not offer through the provider's live list or the user's own ids: a conversation that
    /// used one still shows what it was.
    pub fn retired(
        &self,
        provider: &str,
        today: &str,
        live: &[super::LiveModel],
        added: &[String],
    ) -> Vec<ModelInfo> {
        let offered_elsewhere = |id: &str| {
            live.iter().any(|m| m.id.eq_ignore_ascii_case(id))
                || added.iter().any(|a| a.eq_ignore_ascii_case(id))
        };
        ModelList::builtin()
            .retired(provider, today)
            .filter(|m| !offered_elsewhere(&m.id))
            .filter_map(|m| self.resolve(Some(provider), &m.id).ok())
            .collect()
    }

    /// Every model to offer for `provider`: the model list's real ids (retired ones left
    /// out), then what the provider listed live, then what the user added — each id once,
    /// read through its rule, with where it came from.
    pub fn offer(
        &self,
        provider: &str,
        today: &str,
        live: &[super::LiveModel],
        added: &[String],
    ) -> Result<Vec<Offered>, LookupError> {
        let listed = ModelList::builtin()
            .offered(provider, today)
            .map(|m| (m.id.as_str(), None, ModelSource::Catalog));
        let listed_live = live
            .iter()
            .map(|m| (m.id.as_str(), m.name.clone(), ModelSource::Live));
        let added = added
            .iter()
            .map(|id| (id.as_str(), None, ModelSource::Added));
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for (id, live_name, source) in listed.chain(listed_live).chain(added) {
            if seen.insert(id.to_ascii_lowercase()) {
                let mut model = self.resolve(Some(provider), id)?;
                // What the live list says of a model (the API it answers on, its efforts)
                // holds whichever list offered its id.
                if let Some(said) = live.iter().find(|m| m.id.eq_ignore_ascii_case(id)) {
                    super::derive::apply_live(&mut model, said);
                }
                out.push(Offered {
                    model,
                    live_name,
                    source,
                });
            }
        }
        Ok(out)
    }
}

/// Where an offered model comes from: the model list, the provider's own list, or the user.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ModelSource {
    Catalog,
    Live,
    Added,
}

/// A model the picker offers.
#[derive(Debug, Clone)]
pub struct Offered {
    pub model: ModelInfo,
    /// The provider's own name for it, from its live list.
    pub live_name: Option<String>,
    pub source: ModelSource,
}
