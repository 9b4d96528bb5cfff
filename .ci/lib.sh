# Shared by the scripts in this folder: find the tree, install what is missing, run GUI
# programs headless. Every ensure_* step is idempotent and silent when nothing is missing.

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
export PATH="$HOME/.cargo/bin:$PATH"

# What building the app needs (Tauri's Debian list, less the downloaders it never uses here).
BUILD_PACKAGES=(build-essential pkg-config file libwebkit2gtk-4.1-dev libssl-dev libxdo-dev
  libayatana-appindicator3-dev librsvg2-dev)
# What running it without a display needs.
HEADLESS_PACKAGES=(xvfb xauth dbus dbus-x11)
# What the tests need besides: WebKit's WebDriver, Chromium, a Secret Service, X tools, GNU time,
# Python (the real-app import test packs its .zip with it).
TEST_PACKAGES=(webkit2gtk-driver chromium fonts-dejavu-core gnome-keyring libsecret-tools
  x11-utils xdotool imagemagick desktop-file-utils time python3)

MIN_NODE="20.19.0"
MIN_RUST="1.95.0"

say() { printf '\033[1m==> %s\033[0m\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

version_at_least() { # have want
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}

ensure_apt() { # packages...
  local missing=() pkg
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
  done
  [ "${#missing[@]}" -eq 0 ] && return 0
  command -v apt-get >/dev/null || die "missing system packages (${missing[*]}) and no apt-get to install them"
  say "Installing system packages: ${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

ensure_rust() {
  command -v cargo >/dev/null ||
    die "Rust is not installed. Install it with rustup (https://rustup.rs), then run this again."
  local have
  have="$(rustc --version | awk '{print $2}')"
  version_at_least "$have" "$MIN_RUST" ||
    die "Rust $have is too old; Ponder needs $MIN_RUST or newer (rustup update)."
  if ! cargo fmt --version >/dev/null 2>&1 || ! cargo clippy --version >/dev/null 2>&1; then
    command -v rustup >/dev/null || die "cargo fmt and cargo clippy are missing and there is no rustup to add them"
    say "Adding rustfmt and clippy"
    rustup component add rustfmt clippy
  fi
}

ensure_node() {
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    ensure_apt nodejs npm
  fi
  local have
  have="$(node --version | sed 's/^v//')"
  version_at_least "$have" "$MIN_NODE" ||
    die "Node.js $have is too old; the UI build needs $MIN_NODE or newer. Install a newer Node.js and run this again."
}

# Installs DIR's npm packages from its lock file when that changed since the last install.
# `npm install` rather than `npm ci`: the npm registry we install from lacks the other platforms'
# optional builds of the Tauri CLI, so no lock file written here passes `npm ci`'s check.
ensure_npm() { # dir
  local dir="$ROOT/$1" marker
  marker="$dir/node_modules/.ponder-installed"
  [ -f "$marker" ] && [ "$(cat "$marker")" = "$(lock_sum "$dir")" ] && return 0
  say "Installing npm packages in $1/"
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error)
  lock_sum "$dir" >"$marker"
}

lock_sum() { cat "$1/package.json" "$1/package-lock.json" | sha256sum | cut -d' ' -f1; }

# A virtual environment at tests/<folder>/.venv with the packages its requirements.txt pins,
# made again only when that file changes.
ensure_venv() { # folder what
  local dir="$ROOT/tests/$1" marker want
  marker="$dir/.venv/.ponder-installed"
  want="$(sha256sum <"$dir/requirements.txt" | cut -d' ' -f1)"
  [ -f "$marker" ] && [ "$(cat "$marker")" = "$want" ] && return 0
  ensure_apt python3 python3-venv
  say "Installing $2 for the tests"
  rm -rf "$dir/.venv"
  python3 -m venv "$dir/.venv"
  "$dir/.venv/bin/pip" install --quiet --disable-pip-version-check -r "$dir/requirements.txt"
  echo "$want" >"$marker"
}

# The Python MCP server the tests talk to (the npm ones come with tests/'s packages).
ensure_mcp_python() {
  ensure_venv mcp "the Python MCP server"
}

# The providers' official Python SDKs that tests/sdk/check_bodies.py checks the golden request
# bodies with.
ensure_sdk_python() {
  ensure_venv sdk "the providers' Python SDKs"
}

ensure_tauri_driver() {
  command -v tauri-driver >/dev/null && return 0
  say "Installing tauri-driver"
  CARGO_TARGET_DIR="$CARGO_TARGET_DIR/tools" cargo install tauri-driver --locked --version '^2' --quiet
}

build_ui() {
  (cd "$ROOT/ui" && npm run --silent build -- --logLevel warn)
}

# Packs a .deb again in place: its programs stripped of their symbols, its files compressed
# with xz, its checksums and installed size made true again (see .ci/package).
repack_deb() { # deb
  local deb="$1" work
  work="$(mktemp -d)"
  dpkg-deb -R "$deb" "$work/root"
  find "$work/root/usr/bin" -type f -exec strip --strip-all {} +
  if [ -f "$work/root/DEBIAN/md5sums" ]; then
    (cd "$work/root" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | LC_ALL=C sort -z |
      xargs -0 md5sum >DEBIAN/md5sums)
  fi
  local size
  size="$(du -sk --exclude=DEBIAN "$work/root" | cut -f1)"
  sed -i "s/^Installed-Size: .*/Installed-Size: $size/" "$work/root/DEBIAN/control"
  dpkg-deb --root-owner-group -Zxz --build "$work/root" "$deb" >/dev/null
  rm -rf "$work"
}

HEADLESS=(xvfb-run -a -s "-screen 0 1280x800x24 -nolisten tcp" dbus-run-session --)

# Runs a command on a private X display and D-Bus session that end with it.
headless() {
  NO_AT_BRIDGE=1 "${HEADLESS[@]}" "$@"
}

# The same for a test run, which may not take longer than 15 minutes: a GUI test that hangs
# must fail the run, not stall it.
headless_bounded() {
  NO_AT_BRIDGE=1 timeout --kill-after=20 900 "${HEADLESS[@]}" "$@"
}

# A test run's own Secret Service: writes, under DIR, a D-Bus session configuration whose
# org.freedesktop.secrets is a gnome-keyring unlocked with a throwaway password, its files in
# DIR, and prints the configuration's path. D-Bus starts it when something first asks, and
# again, unlocked and holding what it held, whenever it stops: gnome-keyring has been seen to
# abort mid-run (a GLib trap when a client leaves mid-call), and the system's own service
# file would then start a locked keyring that answers no one. Its output goes to LOG.
keyring_session() {
  local dir="$1" log="$2"
  mkdir -p "$dir/services" "$dir/data"
  cat >"$dir/start-keyring" <<SCRIPT
#!/bin/sh
echo "--- started \$(date +%T)" >>"$log"
echo -n test-password-not-real | XDG_DATA_HOME="$dir/data" exec gnome-keyring-daemon --unlock --foreground --components=secrets >>"$log" 2>&1
SCRIPT
  chmod +x "$dir/start-keyring"
  printf '[D-BUS Service]\nName=org.freedesktop.secrets\nExec=%s\n' "$dir/start-keyring" \
    >"$dir/services/org.freedesktop.secrets.service"
  # Our services directory comes first, so it wins over the system's for the same name.
  cat >"$dir/session.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <servicedir>$dir/services</servicedir>
  <include>/usr/share/dbus-1/session.conf</include>
</busconfig>
CONF
  echo "$dir/session.conf"
}

# headless_bounded with the Secret Service of keyring_session's configuration CONF.
headless_keyring_bounded() {
  local conf="$1"
  shift
  # BOUND_SECONDS: a longer limit for a run that is long by design (the full app figures).
  NO_AT_BRIDGE=1 timeout --kill-after=20 "${BOUND_SECONDS:-900}" xvfb-run -a -s "-screen 0 1280x800x24 -nolisten tcp" \
    dbus-run-session --config-file="$conf" -- "$@"
}
