//! The desktop app: Tauri glue over `ponder-core`. Commands stay thin; logic lives in the core.

mod commands;
mod consent;
mod error;
mod file_scheme;
pub mod heap_trim;
mod indexing;
mod ipc;
mod logging;
mod quit;
mod relay;
mod settings;
mod startup;
mod state;
#[cfg(test)]
mod ts_bindings;
pub mod webview;

use tauri::Manager;

pub use error::{IpcError, IpcErrorCode};

pub fn run() {
    logging::init();
    let app = tauri::Builder::default()
        // First: a second launch hands over to the running app and exits before it does
        // anything else (two apps on one history would fight over it).
        .plugin(tauri_plugin_single_instance::init(|app, _argv, _cwd| {
            quit::focus_main_window(app);
        }))
        .plugin(tauri_plugin_store::Builder::new().build())
        .plugin(tauri_plugin_dialog::init())
        .plugin(tauri_plugin_opener::init())
        .register_asynchronous_uri_scheme_protocol(file_scheme::SCHEME, file_scheme::handle)
        .setup(|app| {
            // First: the window's web process starts while the history opens.
            webview::open_main_window(app)?;
            let state = state::AppState::open(app.handle())?;
            app.manage(state);
            let state = app.state::<state::AppState>();
            let settings = settings::load(app.handle()).ok();
            // Answers the command line finished since the app last ran; thoughts past the
            // user's retention; files no message refers to.
            if let Ok(store) = state.store() {
                let purge_before = settings
                    .as_ref()
                    .and_then(|s| s.retention_days.filter(|d| *d > 0))
                    .map(|days| commands::settings::now_ms() - i64::from(days) * 86_400_000);
                indexing::index_soon(store.clone());
                indexing::tidy_soon(store, purge_before);
            }
            if let Some(settings) = &settings {
                commands::mcp::configure(app.handle(), &settings.mcp_servers);
                state.set_prices(&settings.prices);
            }
            quit::on_signals(app.handle());
            Ok(())
        })
        .invoke_handler(tauri::generate_handler![
            commands::app::app_info,
            commands::app::open_external,
            commands::app::load_image,
            commands::app::startup_problems,
            commands::app::resolve_startup_problem,
            commands::app::quit,
            commands::settings::get_settings,
            commands::settings::update_settings,
            commands::settings::set_theme,
            commands::settings::purge_thoughts,
            commands::secrets::list_providers,
            commands::secrets::set_api_key,
            commands::secrets::clear_api_key,
            commands::secrets::keyring_status,
            commands::copilot::copilot_sign_in,
            commands::copilot::copilot_cancel_sign_in,
            commands::models::list_models,
            commands::models::add_model,
            commands::models::budget_option,
            commands::models::override_meanings,
            commands::secrets::add_custom_provider,
            commands::conversations::set_thought_hidden,
            commands::conversations::thought_text,
            commands::secrets::remove_custom_provider,
            commands::models::refresh_models,
            commands::models::translate_preview,
            commands::models::context_tokens,
            commands::conversations::list_conversations,
            commands::conversations::get_conversation,
            commands::conversations::earlier_messages,
            commands::conversations::create_conversation,
            commands::conversations::rename_conversation,
            commands::conversations::delete_conversation,
            commands::conversations::pin_conversation,
            commands::conversations::set_conversation_model,
            commands::conversations::set_conversation_settings,
            commands::conversations::search,
            commands::conversations::show_version,
            commands::conversations::compare_versions,
            commands::conversations::usage_report,
            commands::conversations::delete_branch,
            commands::conversations::restore_branch,
            commands::attachments::pick_attachments,
            commands::attachments::attach_bytes,
            commands::chat::send_message,
            commands::chat::regenerate,
            commands::chat::rerun,
            commands::chat::edit_and_resend,
            commands::chat::cancel_run,
            commands::export::export_conversation,
            commands::import::import_file,
            commands::import::cancel_import,
            commands::mcp::mcp_status,
            commands::mcp::mcp_test,
            commands::mcp::mcp_tools,
            commands::mcp::set_mcp_secret,
            commands::mcp::clear_mcp_secret,
            commands::mcp::answer_tool_call,
        ])
        .build(tauri::generate_context!())
        .unwrap_or_else(|err| {
            tracing::error!(%err, "Ponder could not start");
            std::process::exit(1);
        });
    app.run(|app, event| {
        if let tauri::RunEvent::ExitRequested { api, .. } = &event
            && quit::must_wait(app)
        {
            api.prevent_exit();
        }
    });
}
