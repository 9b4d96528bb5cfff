use std::path::Path;

fn main() {
    link_startup_code_together();
    tauri_build::build();
}

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
