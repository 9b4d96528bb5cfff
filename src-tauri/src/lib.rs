//! The desktop app: Tauri glue over `ponder-core`. Commands stay thin; logic lives in the core.

mod commands;
mod error;
mod settings;
mod state;

use tauri::Manager;

pub use error::{IpcError, IpcErrorCode};

pub fn run() {
    tauri::Builder::default()
        .plugin(tauri_plugin_store::Builder::new().build())
        .setup(|app| {
            let state = state::AppState::open(app.handle())?;
            app.manage(state);
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            commands::app::app_info,
            commands::settings::get_settings,
            commands::settings::set_theme,
        ])
        .run(tauri::generate_context!())
        .unwrap_or_else(|err| {
            eprintln!("Ponder could not start: {err}");
            std::process::exit(1);
        });
}
