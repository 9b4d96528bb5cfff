//! Errors as the UI sees them: a stable code to branch on and a message to show.

use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum IpcErrorCode {
    InvalidInput,
    Storage,
    Internal,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(rename_all = "camelCase")]
#[error("{message}")]
pub struct IpcError {
    pub code: IpcErrorCode,
    pub message: String,
}

impl IpcError {
    pub fn new(code: IpcErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
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
}
