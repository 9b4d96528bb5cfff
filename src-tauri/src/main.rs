// Keeps a console window from opening beside the app on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    ponder_app::heap_trim::fix_thresholds();
    #[cfg(target_os = "linux")]
    {
        ponder_app::webview::draw_in_software_unless_asked();
        ponder_app::webview::tune_javascript_collector();
    }
    ponder_app::run();
}
