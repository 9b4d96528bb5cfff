//! Keys that expire on their own: the provider layer's promise of a fresh one, kept by the
//! provider that issues them (Copilot's exchange) and asked for by a turn on a 401.

use super::error::ProviderError;

/// Gives a new key for a provider whose keys expire on their own.
pub trait RenewKey: Send + Sync + std::fmt::Debug {
    /// A key other than `refused` (a newer one may already be at hand).
    fn renew<'a>(
        &'a self,
        refused: Option<&'a str>,
    ) -> futures::future::BoxFuture<'a, Result<String, ProviderError>>;
}
