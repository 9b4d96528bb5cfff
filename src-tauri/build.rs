use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    link_startup_code_together();
    build_web_extension();
    tauri_build::build();
}

/// The module WebKit loads into the web process so the page can ask for a whole collection
/// (`web-extension/collect.c`; why in `src/webview.rs`), and which makes WebKit's periodic
/// check of that process's memory off its main thread (`web-extension/footprint.c`). It is C
/// because WebKit's web-process API is (no Rust bindings of it are maintained), and small.
///
/// Written to two places: beside the built program (`target/<profile>/web-extension/`,
/// where the app looks when it runs from its build) and to `gen/web-extension/`, which the
/// package takes it from (`tauri.conf.json`, installed under `/usr/lib/ponder/`).
fn build_web_extension() {
    if std::env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("linux") {
        return;
    }
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap());
    let sources: Vec<PathBuf> = ["collect.c", "footprint.c", "footprint.h"]
        .iter()
        .map(|file| manifest.join("web-extension").join(file))
        .collect();
    for source in &sources {
        println!("cargo:rerun-if-changed={}", source.display());
    }
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let built = out.join(WEB_EXTENSION);
    let flags = Command::new("pkg-config")
        .args(["--cflags", "--libs", "webkit2gtk-web-extension-4.1"])
        .output()
        .expect("pkg-config runs (it is among the build packages)");
    assert!(
        flags.status.success(),
        "pkg-config finds webkit2gtk-web-extension-4.1 (libwebkit2gtk-4.1-dev): {}",
        String::from_utf8_lossy(&flags.stderr)
    );
    let flags = String::from_utf8(flags.stdout).unwrap();
    let compiler = cc::Build::new().opt_level(2).get_compiler();
    let status = compiler
        .to_command()
        .args([
            "-shared",
            "-fPIC",
            "-Wall",
            "-Wl,-z,relro,-z,now",
            "-s",
            "-o",
        ])
        .arg(&built)
        .args(
            sources
                .iter()
                .filter(|source| source.extension() == Some("c".as_ref())),
        )
        .args(flags.split_whitespace())
        .status()
        .expect("the C compiler runs");
    assert!(status.success(), "the web extension compiles");
    // OUT_DIR is target/<profile>/build/ponder-<hash>/out.
    let profile_dir = out
        .ancestors()
        .nth(3)
        .expect("OUT_DIR is inside the target directory");
    for dir in [
        profile_dir.join("web-extension"),
        manifest.join("gen/web-extension"),
    ] {
        std::fs::create_dir_all(&dir).expect("the web extension's directory can be made");
        std::fs::copy(&built, dir.join(WEB_EXTENSION)).expect("the web extension is copied");
    }
}

/// The web extension's file name (the app looks for it by this name: `src/webview.rs`).
const WEB_EXTENSION: &str = "libponder_web_extension.so";

/// The kernel maps an executable's code 64 KB at a time around each first use, so the ~2,500
/// functions that start-up runs, spread over 21 MB of code, kept ~10 MB of it resident; laid
/// out first and together they take ~4 MB. `startup-order.txt` lists them (written by
/// `./.ci/startup-order`); lld places them in that order and skips names it does not find.
/// Release builds only (a debug build's names differ), and only where the linker is the
/// toolchain's lld: the default for x86_64 Linux, unless the build picks another linker.
fn link_startup_code_together() {
    let order = Path::new(&std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("startup-order.txt");
    println!("cargo:rerun-if-changed={}", order.display());
    println!("cargo:rerun-if-env-changed=CARGO_ENCODED_RUSTFLAGS");
    let release = std::env::var("PROFILE").as_deref() == Ok("release");
    let lld = std::env::var("TARGET").as_deref() == Ok("x86_64-unknown-linux-gnu")
        && !std::env::var("CARGO_ENCODED_RUSTFLAGS").is_ok_and(|flags| flags.contains("link"));
    if release && lld && order.exists() {
        println!(
            "cargo:rustc-link-arg-bin=ponder=-Wl,--symbol-ordering-file={}",
            order.display()
        );
        println!("cargo:rustc-link-arg-bin=ponder=-Wl,--no-warn-symbol-ordering");
    }
    // The ~30,000 pointers that loading fixes up were a 712 KB table read at every start and
    // kept mapped; packed (DT_RELR, glibc 2.36 and later: Debian 12's) they take a few KB.
    if release && lld {
        println!("cargo:rustc-link-arg-bin=ponder=-Wl,-z,pack-relative-relocs");
    }
}
