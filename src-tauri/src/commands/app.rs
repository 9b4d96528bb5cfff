use ponder_core::About;
use tauri::{AppHandle, State};

use crate::error::{IpcError, IpcErrorCode};
use crate::startup::{ProblemFile, Remedy, StartupProblem};
use crate::state::AppState;

/// The version and the data directory, for the status line.
#[tauri::command]
#[tracing::instrument(skip_all)]
pub fn app_info(state: State<'_, AppState>) -> About {
    About::new(&state.paths)
}

/// Opens a web link from an answer in the system's browser; the app's own window never
/// navigates away. Only `http` and `https` addresses are opened.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn open_external(app: AppHandle, url: String) -> Result<(), IpcError> {
    use tauri_plugin_opener::OpenerExt;

    let url = url.trim();
    let lower = url.to_ascii_lowercase();
    if !(lower.starts_with("https://") || lower.starts_with("http://")) {
        return Err(IpcError::new(
            IpcErrorCode::InvalidInput,
            "Only web links can be opened.",
        ));
    }
    app.opener().open_url(url, None::<&str>).map_err(|e| {
        IpcError::new(
            IpcErrorCode::Internal,
            format!("could not open a browser: {e}"),
        )
    })
}

/// An image from an answer or a thought, fetched because the user clicked its "Load image"
/// button, as a `data:` URL: the window itself loads no image from the network (its content
/// security policy in `tauri.conf.json`), so nothing in a message can make a request unasked.
#[tauri::command]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub async fn load_image(url: String) -> Result<String, IpcError> {
    use ponder_core::remote_image::{ImageError, fetch_as_data_url};

    fetch_as_data_url(&url).await.map_err(|err| {
        let code = match err {
            ImageError::Address(_) => IpcErrorCode::InvalidInput,
            _ => IpcErrorCode::Network,
        };
        IpcError::new(code, err.to_string())
    })
}

/// Files Ponder could not use at start-up; the window shows them before anything else.
#[tauri::command(async)]
#[tracing::instrument(skip_all)]
pub fn startup_problems(state: State<'_, AppState>) -> Vec<StartupProblem> {
    state.problems()
}

/// What the user chose for a file Ponder could not use: keep it aside under another name
/// and start afresh, or try again after fixing it. Returns the problems that remain.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn resolve_startup_problem(
    app: AppHandle,
    state: State<'_, AppState>,
    file: ProblemFile,
    remedy: Remedy,
) -> Result<Vec<StartupProblem>, IpcError> {
    let move_aside = remedy == Remedy::MoveAside;
    match file {
        ProblemFile::History => state.reopen_history(move_aside)?,
        ProblemFile::Settings => {
            let path = state.paths.settings();
            if move_aside {
                crate::state::keep_aside(&path)?;
            }
            let problem = crate::startup::settings_file_problem(&path);
            let solved = problem.is_none();
            *state.settings_problem() = problem;
            if solved {
                crate::settings::reload(&app)?;
            }
        }
    }
    Ok(state.problems())
}

/// Quits the app the way closing its window does: running answers are stopped and stored.
#[tauri::command]
#[tracing::instrument(skip_all)]
pub fn quit(app: AppHandle) {
    app.exit(0);
}
