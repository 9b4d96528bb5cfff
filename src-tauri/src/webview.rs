//! The web view's own settings, chosen for a text app.
//!
//! Measured on a machine without a GPU (WebKitGTK under Xvfb, two cores), WebKit's
//! accelerated compositing drew through a software GL and cost both speed and memory: a
//! frame of a long thread streaming took up to 600 ms, and the web process held 207 MB idle;
//! drawn directly, no frame took over 50 ms and it held 125 MB. The web view's own setting
//! (its hardware acceleration policy) can only be changed once the page is loading, and
//! WebKit leaving compositing mid-load left WebDriver's screenshots hanging; the
//! environment WebKit reads when the web view is made has it off from the start.
//! `PONDER_WEBVIEW_COMPOSITING=1` turns compositing back on.
//!
//! `PONDER_WEBVIEW_CONSOLE=1` writes the page's console out (WebKit prints it on standard
//! error, whatever its setting's name says): what the interface logged, for a bug report,
//! and its start-up marks, which the benchmark reads from a launch without WebDriver (whose
//! automation session slows the start it measures).

/// Asks WebKit to draw without accelerated compositing, unless the user asked for it.
/// Call first thing in `main`, before any other thread exists.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub fn without_compositing_unless_asked() {
    if std::env::var_os("PONDER_WEBVIEW_COMPOSITING").is_some_and(|v| v == "1") {
        return;
    }
    // SAFETY: setting the environment is unsound only while other threads may read it;
    // `main` calls this before the runtime, GTK or anything else starts a thread.
    unsafe { std::env::set_var("WEBKIT_DISABLE_COMPOSITING_MODE", "1") };
}

/// Applies the settings to the window's web view (Linux; elsewhere nothing to do).
pub fn tune(window: &tauri::WebviewWindow) {
    #[cfg(target_os = "linux")]
    {
        let console = std::env::var_os("PONDER_WEBVIEW_CONSOLE").is_some_and(|v| v == "1");
        let _ = window.with_webview(move |webview| {
            use webkit2gtk::{CacheModel, SettingsExt, WebContextExt, WebViewExt};
            // One local page, never navigated away from: no back-forward or page cache.
            if let Some(context) = webview.inner().context() {
                context.set_cache_model(CacheModel::DocumentViewer);
            }
            if console && let Some(settings) = webview.inner().settings() {
                settings.set_enable_write_console_messages_to_stdout(true);
            }
        });
    }
    #[cfg(not(target_os = "linux"))]
    let _ = window;
}
