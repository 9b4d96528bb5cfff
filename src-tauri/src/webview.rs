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
/// next one (`JSC_heapGrowthMaxIncrease`).
///
/// The collector runs only as the page allocates, so whatever a page allocated since its
/// last collection stays while it idles, which is most of a chat app's life. Measured on a
/// release build (the 10,000-message thread opened, scrolled to its top and back at 400 px a
/// frame, then a new chat): WebKit's default let 87–124 MB be allocated between
/// collections, and the app kept +178 MB over idle (+158 MB in the web process); with 0.3
/// about 12 MB, and +94 MB (+74 MB). Scrolling stayed 16 / 17 ms a frame (median / p95) and
/// opening the thread 84 ms: its collections are small and quick.
const JAVASCRIPT_HEAP_GROWTH: &str = "0.3";

/// How eagerly a whole collection follows a sign that much was let go of
/// (`JSC_percentCPUPerMBForFullTimer`: the share of the page's time the timed whole
/// collection may take, per megabyte it expects to free, up to the cap below).
///
/// Quick collections only look at what was allocated since the last one; a thread that was
/// open for a while has moved into the part only a whole collection frees. WebKit's default
/// share (0.0003125 per MB) puts the whole collection a thread left behind minutes away, after
/// a frame going away (the page's sign, `ui/src/lib/collector.ts`) as after allocation:
/// measured on a release build, the 10,000-message thread (30 MB of JavaScript objects) was
/// still held 30 s after a new chat, and the app at +84–101 MB over idle 3 s after it. At
/// 0.05 the cap applies from 2 MB expected on, and with the page's sign the thread is
/// collected within a second or two: +50–53 MB. Four answers streaming at once kept their
/// frames (p95 17–19 ms, as 17–18 before).
const JAVASCRIPT_FULL_COLLECTION_SHARE: &str = "0.05";

/// The cap on that share, for quick and whole collections (`JSC_collectionTimerMaxPercentCPU`):
/// at 0.1 the timed collection waits ten times as long as the last one of its kind took
/// (WebKit's default, 0.05, twenty times). A whole collection can take a few hundred
/// milliseconds while answers stream on a busy machine, and at twenty times the thread left
/// was still held 7 s later.
const JAVASCRIPT_TIMED_COLLECTION_CAP: &str = "0.1";

/// Sets how JavaScriptCore collects the page's garbage (above), where the user did not:
/// WebKit's web process reads these from the environment it inherits. Call first thing in
/// `main`, before any other thread exists.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub fn tune_javascript_collector() {
    for (name, value) in [
        ("JSC_heapGrowthMaxIncrease", JAVASCRIPT_HEAP_GROWTH),
        (
            "JSC_percentCPUPerMBForFullTimer",
            JAVASCRIPT_FULL_COLLECTION_SHARE,
        ),
        (
            "JSC_collectionTimerMaxPercentCPU",
            JAVASCRIPT_TIMED_COLLECTION_CAP,
        ),
    ] {
        if std::env::var_os(name).is_none() {
            // SAFETY: as in `draw_in_software_unless_asked`: before any other thread starts.
            unsafe { std::env::set_var(name, value) };
        }
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

/// Opens the main window as `tauri.conf.json` describes it (`create: false` there, so that
/// the web view can be given the web extension before its web process starts) and applies
/// the settings below to its web view.
pub fn open_main_window(
    app: &tauri::App,
) -> Result<tauri::WebviewWindow, Box<dyn std::error::Error>> {
    let config = app
        .config()
        .app
        .windows
        .iter()
        .find(|window| window.label == MAIN_WINDOW)
        .ok_or("tauri.conf.json describes no main window")?;
    #[allow(unused_mut)]
    let mut builder = tauri::WebviewWindowBuilder::from_config(app.handle(), config)?;
    #[cfg(target_os = "linux")]
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|exe| web_extension_dir(&exe))
    {
        builder = builder.extensions_path(dir);
    }
    let window = builder.build()?;
    tune(&window);
    Ok(window)
}

/// The main window's label (`tauri.conf.json`).
const MAIN_WINDOW: &str = "main";

/// The web extension's file name (written by `build.rs`).
pub const WEB_EXTENSION: &str = "libponder_web_extension.so";

/// Where WebKit finds the web extension (`web-extension/collect.c`), if it is there:
/// installed, `/usr/lib/ponder/web-extension/` beside `/usr/bin/ponder`; run from its build,
/// `web-extension/` beside the program (`build.rs` puts it in both). Only these two, both
/// found from the program's own path: WebKit loads every module in the directory into the
/// page's process. `PONDER_WEB_EXTENSION=0` leaves it out (the page then falls back to
/// WebKit's own timer: `ui/src/lib/collector.ts`).
///
/// Why the page needs it: JavaScriptCore frees what has been live for a while only in a
/// whole collection, and WebKit times that after the last one's length, seconds after a
/// long thread has been scrolled. Measured on a release build, the 10,000-message thread
/// scrolled to its top and back and then left for a new chat: the web process was still
/// +76 MB over idle 3 s later, and +41 MB once the collection had come, 20 s later.
#[cfg(target_os = "linux")]
pub fn web_extension_dir(exe: &std::path::Path) -> Option<std::path::PathBuf> {
    if std::env::var_os("PONDER_WEB_EXTENSION").is_some_and(|v| v == "0") {
        return None;
    }
    web_extension_beside(exe)
}

#[cfg(target_os = "linux")]
fn web_extension_beside(exe: &std::path::Path) -> Option<std::path::PathBuf> {
    let beside = exe.parent()?;
    let installed = beside
        .parent()
        .map(|prefix| prefix.join("lib/ponder/web-extension"));
    installed
        .into_iter()
        .chain([beside.join("web-extension")])
        .find(|dir| dir.join(WEB_EXTENSION).is_file())
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

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// Builds `web-extension/footprint.c` with a `main` that prints `footprint_kb_from` of the
    /// file it is given, and runs it on each of `files`.
    fn footprints_counted_by_the_web_extension(files: &[&std::path::Path]) -> Vec<u64> {
        let dir = tempfile::tempdir().unwrap();
        let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let main = dir.path().join("main.c");
        std::fs::write(
            &main,
            "#include \"footprint.h\"\n\
             int main(int argc, char **argv) {\n\
               (void)argc;\n\
               FILE *file = fopen(argv[1], \"r\");\n\
               if (!file) return 2;\n\
               printf(\"%llu\\n\", (unsigned long long)footprint_kb_from(file));\n\
               return 0;\n\
             }\n",
        )
        .unwrap();
        let flags = std::process::Command::new("pkg-config")
            .args(["--cflags", "--libs", "glib-2.0"])
            .output()
            .unwrap();
        assert!(flags.status.success(), "pkg-config finds GLib");
        let program = dir.path().join("footprint");
        let built = std::process::Command::new("cc")
            .args(["-O2", "-Wall", "-Wextra", "-Werror", "-I"])
            .arg(manifest.join("web-extension"))
            .arg("-o")
            .arg(&program)
            .arg(&main)
            .arg(manifest.join("web-extension/footprint.c"))
            .args(String::from_utf8(flags.stdout).unwrap().split_whitespace())
            .output()
            .unwrap();
        assert!(
            built.status.success(),
            "footprint.c builds without a warning: {}",
            String::from_utf8_lossy(&built.stderr)
        );
        files
            .iter()
            .map(|file| {
                let run = std::process::Command::new(&program)
                    .arg(file)
                    .output()
                    .unwrap();
                assert!(run.status.success());
                String::from_utf8(run.stdout)
                    .unwrap()
                    .trim()
                    .parse()
                    .unwrap()
            })
            .collect()
    }

    /// WTF's `memoryFootprint()` on Linux, as WebKit 2.50 computes it: the `Private_Dirty` of
    /// the mappings whose header has no path, or whose path's first six characters (`%6s`)
    /// are `[heap]` or start with `[stack`.
    fn footprint_as_webkit_counts_it(smaps: &str) -> u64 {
        let mut counting = false;
        let mut total = 0;
        for line in smaps.lines() {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if fields
                .first()
                .is_some_and(|f| f.contains('-') && !f.ends_with(':'))
            {
                counting = match fields.get(5) {
                    None => true,
                    Some(path) => {
                        let path: String = path.chars().take(6).collect();
                        path == "[heap]" || path.starts_with("[stack")
                    }
                };
            } else if counting && fields.first() == Some(&"Private_Dirty:") {
                total += fields[1].parse::<u64>().unwrap();
            }
        }
        total
    }

    #[test]
    fn the_web_extension_counts_the_footprint_webkit_counts() {
        let manifest = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        // Mappings of every kind a web process has: anonymous ones with and without a
        // trailing space, one whose address starts with a letter, the heap, both kinds of
        // stack, a library, files with spaces in their names, a named anonymous one (glibc's
        // arenas), which WebKit does not count, and the kernel's own.
        let fixture = manifest.join("web-extension/testdata/smaps");
        let fixture_text = std::fs::read_to_string(&fixture).unwrap();
        assert_eq!(
            footprint_as_webkit_counts_it(&fixture_text),
            100 + 20 + 5 + 11 + 3
        );
        // A real process's maps, this test's own: hundreds of mappings as the kernel writes them.
        let snapshot = tempfile::NamedTempFile::new().unwrap();
        let real = std::fs::read_to_string("/proc/self/smaps").unwrap();
        std::fs::write(snapshot.path(), &real).unwrap();
        assert!(
            real.lines()
                .filter(|l| l.starts_with("Private_Dirty:"))
                .count()
                > 20
        );
        assert!(footprint_as_webkit_counts_it(&real) > 0);
        assert_eq!(
            footprints_counted_by_the_web_extension(&[&fixture, snapshot.path()]),
            vec![
                footprint_as_webkit_counts_it(&fixture_text),
                footprint_as_webkit_counts_it(&real)
            ]
        );
    }

    #[test]
    fn the_web_extension_is_found_where_the_package_or_the_build_puts_it_and_nowhere_else() {
        let root = tempfile::tempdir().unwrap();
        let put = |dir: &str| {
            let dir = root.path().join(dir);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(dir.join(WEB_EXTENSION), b"module").unwrap();
        };
        let exe = |dir: &str| root.path().join(dir).join("ponder");
        // Nothing there yet: no directory is given to WebKit.
        assert_eq!(web_extension_beside(&exe("usr/bin")), None);
        // Installed: /usr/lib/ponder/web-extension beside /usr/bin/ponder.
        put("usr/lib/ponder/web-extension");
        assert_eq!(
            web_extension_beside(&exe("usr/bin")),
            Some(root.path().join("usr/lib/ponder/web-extension"))
        );
        // Run from its build: web-extension/ beside the program.
        put("target/release/web-extension");
        assert_eq!(
            web_extension_beside(&exe("target/release")),
            Some(root.path().join("target/release/web-extension"))
        );
        // A directory without the module is not one (WebKit would load whatever is there).
        std::fs::create_dir_all(root.path().join("opt/bin/web-extension")).unwrap();
        std::fs::write(root.path().join("opt/bin/web-extension/other.so"), b"x").unwrap();
        assert_eq!(web_extension_beside(&exe("opt/bin")), None);
        // The program's own directory is never one, whatever lies in it.
        std::fs::write(root.path().join("opt/bin").join(WEB_EXTENSION), b"x").unwrap();
        assert_eq!(web_extension_beside(&exe("opt/bin")), None);
    }
}
