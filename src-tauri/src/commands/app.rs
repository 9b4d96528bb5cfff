use ponder_core::About;
use tauri::State;

use crate::state::AppState;

/// The version and the data directory, for the status line.
#[tauri::command]
pub fn app_info(state: State<'_, AppState>) -> About {
    About::new(&state.paths)
}

/// Opens a web link from an answer in the system's browser; the app's own window never
/// navigates away. Only `http` and `https` addresses are opened.
#[tauri::command(async)]
pub fn open_external(url: String) -> Result<(), crate::error::IpcError> {
    use crate::error::{IpcError, IpcErrorCode};
    let lower = url.trim().to_ascii_lowercase();
    if !(lower.starts_with("https://") || lower.starts_with("http://")) {
        return Err(IpcError::new(
            IpcErrorCode::InvalidInput,
            "Only web links can be opened.",
        ));
    }
    std::process::Command::new("xdg-open")
        .arg(url.trim())
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(|mut child| {
            // Reap it when it exits, so no zombie is left behind.
            std::thread::spawn(move || child.wait());
        })
        .map_err(|e| {
            IpcError::new(
                IpcErrorCode::Internal,
                format!("could not open a browser: {e}"),
            )
        })
}
