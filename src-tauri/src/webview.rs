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

/// How much JavaScriptCore's heap may grow past what was live at a collection before the
/// next one (`JSC_heapGrowthMaxIncrease`, which WebKit's web process reads from the
/// environment it inherits), unless the user set it.
///
/// The collector runs only as the page allocates, so whatever a page allocated since its
/// last collection stays while it idles, which is most of a chat app's life. Measured on a
/// release build (the 10,000-message thread opened, scrolled to its top and back at 400 px a
/// frame, then a new chat): WebKit's default let 87–124 MB be allocated between
/// collections, and the app kept +178 MB over idle (+158 MB in the web process); with 0.3
/// about 12 MB, and +94 MB (+74 MB). Scrolling stayed 16 / 17 ms a frame (median / p95) and
/// opening the thread 84 ms: its collections are small and quick.
const JAVASCRIPT_HEAP_GROWTH: &str = "0.3";

/// Sets how far the page's JavaScript heap may grow between collections (above), unless the
/// user did. Call first thing in `main`, before any other thread exists.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub fn bound_javascript_heap_growth() {
    const NAME: &str = "JSC_heapGrowthMaxIncrease";
    if std::env::var_os(NAME).is_none() {
        // SAFETY: as in `draw_in_software_unless_asked`: before any other thread starts.
        unsafe { std::env::set_var(NAME, JAVASCRIPT_HEAP_GROWTH) };
    }
}

/// Asks WebKit to draw without accelerated compositing, unless the user asked for it, and
/// then keeps OpenGL out of this process. Call first thing in `main`, before any other
/// thread exists.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub fn draw_in_software_unless_asked() {
    if std::env::var_os("PONDER_WEBVIEW_COMPOSITING").is_some_and(|v| v == "1") {
        return;
    }
    // SAFETY: setting the environment is unsound only while other threads may read it;
    // `main` calls this before the runtime, GTK or anything else starts a thread.
    unsafe { std::env::set_var("WEBKIT_DISABLE_COMPOSITING_MODE", "1") };
    without_gl_in_this_process();
}

/// Drawing without compositing, this process only puts the web process's finished bitmaps
/// on screen and needs no OpenGL, yet two callers load the system's GL here (on a machine
/// without a GPU, Mesa with its LLVM, ~24 MB resident): GTK checking which visuals could
/// do GL, and WebKit opening an EGL display that it then leaves unused. The web process
/// does need EGL (it exits without a display) and inherits this process's environment when
/// it is started, so EGL's vendor list is hidden only while this process loads it: EGL
/// reads that list once per process, on its first call. Only where it was measured (X11);
/// on Wayland GTK itself draws with EGL.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn without_gl_in_this_process() {
    if std::env::var_os("WAYLAND_DISPLAY").is_some() || std::env::var_os("DISPLAY").is_none() {
        return;
    }
    const VENDORS: &str = "__EGL_VENDOR_LIBRARY_FILENAMES";
    if std::env::var_os("GDK_GL").is_none() {
        // SAFETY: still before any other thread (see the caller).
        unsafe { std::env::set_var("GDK_GL", "disable") };
    }
    let own = std::env::var_os(VENDORS);
    // SAFETY: the environment as above. WebKit links EGL, so the library is already loaded
    // (`RTLD_NOLOAD` finds it, never loads it) and is never unloaded; `eglGetDisplay` takes
    // a native display (none: the default) and returns a handle or null, never kept here.
    unsafe {
        let egl = libc::dlopen(c"libEGL.so.1".as_ptr(), libc::RTLD_NOW | libc::RTLD_NOLOAD);
        if egl.is_null() {
            return;
        }
        let get_display = libc::dlsym(egl, c"eglGetDisplay".as_ptr());
        if get_display.is_null() {
            return;
        }
        let get_display: unsafe extern "C" fn(*mut libc::c_void) -> *mut libc::c_void =
            std::mem::transmute(get_display);
        std::env::set_var(VENDORS, "/dev/null");
        get_display(std::ptr::null_mut());
        match own {
            Some(own) => std::env::set_var(VENDORS, own),
            None => std::env::remove_var(VENDORS),
        }
    }
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
