//! Errors as the UI sees them: a stable code to branch on and a message to show.

use serde::Serialize;

use ponder_core::catalog::LookupError;
use ponder_core::providers::error::{ErrorKind, ProviderError};
use ponder_core::reasoning::TranslateError;
use ponder_core::run::SetupError;
use ponder_core::secrets::SecretError;
use ponder_core::store::StoreError;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum IpcErrorCode {
    InvalidInput,
    Storage,
    Internal,
    NotFound,
    MissingKey,
    KeyringUnavailable,
    Auth,
    RateLimited,
    Quota,
    Overloaded,
    ContextTooLong,
    BadRequest,
    Network,
    Decode,
    Server,
    /// The user said no in a native dialog; nothing was changed.
    Declined,
    /// The model reads no PDFs: the window offers to send the PDF's text instead.
    PdfUnread,
}

/// An error for the window. Displayed (and so logged) as its code alone: the message can carry
/// a provider's own words, which may quote the request; it goes only to the window.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(rename_all = "camelCase")]
#[error("{code:?}")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct IpcError {
    pub code: IpcErrorCode,
    pub message: String,
    /// How long the provider asked to wait, for rate limits.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional = nullable, type = "number"))]
    pub retry_after_ms: Option<u64>,
}

impl IpcError {
    pub fn new(code: IpcErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
            retry_after_ms: None,
        }
    }

    /// From a stored error code (a `ProviderError` kind) and its message.
    pub fn provider(kind: &str, message: String) -> Self {
        let code = match kind {
            "auth" => IpcErrorCode::Auth,
            "rate_limited" => IpcErrorCode::RateLimited,
            "quota" => IpcErrorCode::Quota,
            "overloaded" => IpcErrorCode::Overloaded,
            "context_too_long" => IpcErrorCode::ContextTooLong,
            "bad_request" => IpcErrorCode::BadRequest,
            "network" => IpcErrorCode::Network,
            "decode" => IpcErrorCode::Decode,
            "server" => IpcErrorCode::Server,
            "missing_key" => IpcErrorCode::MissingKey,
            _ => IpcErrorCode::Internal,
        };
        Self::new(code, message)
    }
}

impl From<&ProviderError> for IpcError {
    fn from(err: &ProviderError) -> Self {
        let mut ipc = Self::provider(err.kind.as_str(), err.message.clone());
        if err.kind == ErrorKind::RateLimited {
            ipc.retry_after_ms = err
                .retry_after
                .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        }
        ipc
    }
}

impl From<tauri_plugin_store::Error> for IpcError {
    fn from(err: tauri_plugin_store::Error) -> Self {
        Self::new(
            IpcErrorCode::Storage,
            format!("Ponder could not read or save its settings: {err}"),
        )
    }
}

impl From<StoreError> for IpcError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::NotFound { .. } => Self::new(IpcErrorCode::NotFound, err.to_string()),
            other => Self::new(IpcErrorCode::Storage, other.to_string()),
        }
    }
}

impl From<SecretError> for IpcError {
    fn from(err: SecretError) -> Self {
        match err {
            SecretError::Missing { .. } => Self::new(IpcErrorCode::MissingKey, err.to_string()),
            SecretError::Unavailable(_) => {
                Self::new(IpcErrorCode::KeyringUnavailable, err.to_string())
            }
        }
    }
}

impl From<ponder_core::mcp::McpError> for IpcError {
    fn from(err: ponder_core::mcp::McpError) -> Self {
        use ponder_core::mcp::McpError;
        let code = match &err {
            McpError::Config(_) | McpError::BadHeader(_) => IpcErrorCode::InvalidInput,
            McpError::UnknownServer(_) => IpcErrorCode::NotFound,
            McpError::Secret { .. } => IpcErrorCode::KeyringUnavailable,
            _ => IpcErrorCode::Server,
        };
        Self::new(code, err.to_string())
    }
}

impl From<LookupError> for IpcError {
    fn from(err: LookupError) -> Self {
        Self::new(IpcErrorCode::InvalidInput, err.to_string())
    }
}

impl From<SetupError> for IpcError {
    fn from(err: SetupError) -> Self {
        match err {
            SetupError::Empty => Self::new(IpcErrorCode::InvalidInput, "The message is empty."),
            SetupError::Elsewhere => Self::new(
                IpcErrorCode::InvalidInput,
                "That message belongs to another conversation.",
            ),
            // It begins with the model's id, which keeps its own spelling.
            err @ (SetupError::CannotRead { .. } | SetupError::OverLimit(_)) => {
                Self::new(IpcErrorCode::InvalidInput, format!("{err}."))
            }
            err @ SetupError::PdfUnread { .. } => {
                Self::new(IpcErrorCode::PdfUnread, format!("{err}."))
            }
            SetupError::Model(err) => err.into(),
            SetupError::Key(err) => err.into(),
            SetupError::Store(err) => err.into(),
            SetupError::SignIn(err) => err.into(),
        }
    }
}

impl From<ponder_core::providers::copilot::CopilotError> for IpcError {
    fn from(err: ponder_core::providers::copilot::CopilotError) -> Self {
        use ponder_core::providers::copilot::CopilotError;
        match err {
            CopilotError::Http(err) => (&err).into(),
            CopilotError::BadHost(_) => Self::new(IpcErrorCode::InvalidInput, err.to_string()),
            CopilotError::NotSignedIn => Self::new(IpcErrorCode::MissingKey, err.to_string()),
            other => Self::new(IpcErrorCode::Auth, other.to_string()),
        }
    }
}

impl From<TranslateError> for IpcError {
    fn from(err: TranslateError) -> Self {
        Self::new(IpcErrorCode::InvalidInput, err.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_as_code_and_message() {
        let err = IpcError::new(IpcErrorCode::InvalidInput, "no such theme: sepia");
        assert_eq!(
            serde_json::to_value(&err).unwrap(),
            serde_json::json!({"code": "invalidInput", "message": "no such theme: sepia"})
        );
    }

    #[test]
    fn provider_kinds_map_to_ui_codes() {
        for (kind, code) in [
            ("auth", "auth"),
            ("rate_limited", "rateLimited"),
            ("context_too_long", "contextTooLong"),
            ("weird", "internal"),
        ] {
            let v = serde_json::to_value(IpcError::provider(kind, "m".into())).unwrap();
            assert_eq!(v["code"], code, "{kind}");
        }
    }
}
