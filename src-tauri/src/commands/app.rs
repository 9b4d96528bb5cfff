use ponder_core::About;
use tauri::State;

use crate::state::AppState;

/// The version and the data directory, for the status line.
#[tauri::command]
pub fn app_info(state: State<'_, AppState>) -> About {
    About::new(&state.paths)
}
