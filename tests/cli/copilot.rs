//! `ponder-cli chat --provider copilot` and `ponder-cli login copilot` against the loopback
//! GitHub and Copilot API, as a user runs them.

use std::time::{Duration, Instant};

use ponder_core::paths::APP_IDENTIFIER;
use ponder_mock_provider::MockProvider;
use ponder_mock_provider::copilot::{GITHUB_TOKEN, Script};
use serde_json::Value;

use super::ponder_cli;

async fn chat(
    model: &str,
    script: Script,
    github_token: Option<&str>,
) -> (std::process::Output, MockProvider) {
    let mock = MockProvider::start().await.unwrap();
    mock.serve_copilot(script);
    let data = tempfile::tempdir().unwrap();
    let mut cmd = tokio::process::Command::from(ponder_cli());
    cmd.env("XDG_DATA_HOME", data.path())
        .env("XDG_CONFIG_HOME", data.path())
        .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
        .env_remove("PONDER_COPILOT_API_KEY")
        .args(["chat", "--provider", "copilot", "--model", model, "--json"])
        .args(["--base-url", &mock.url(), "--system", "Answer briefly."]);
    if let Some(token) = github_token {
        cmd.env("PONDER_COPILOT_API_KEY", token);
    }
    cmd.arg("What is 17 × 23?");
    let out = cmd.output().await.unwrap();
    (out, mock)
}

#[tokio::test(flavor = "multi_thread")]
async fn gpt5_at_high_streams_its_thoughts_through_responses() {
    let (out, mock) = chat("gpt-5.4/high", Script::default(), Some(GITHUB_TOKEN)).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["provider"], "copilot");
    let parts = v["parts"].as_array().unwrap();
    assert_eq!(parts[0]["type"], "thinking", "{parts:?}");
    assert!(parts.iter().any(|p| p["type"] == "text"));
    let sent = mock
        .requests()
        .into_iter()
        .find(|r| r.path == "/responses")
        .expect("the turn went to Responses");
    assert_eq!(sent.json()["reasoning"]["effort"], "high");
    assert_eq!(sent.json()["reasoning"]["summary"], "auto");
    assert!(
        sent.header("authorization")
            .unwrap()
            .starts_with("Bearer tid=FAKE-copilot-token")
    );
    assert!(
        !stderr.contains(GITHUB_TOKEN)
            && !String::from_utf8_lossy(&out.stdout).contains("FAKE-copilot-token")
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn claude_answers_through_chat_completions_and_says_no_thoughts_come_back() {
    let (out, mock) = chat(
        "claude-sonnet-4.6/max",
        Script::default(),
        Some(GITHUB_TOKEN),
    )
    .await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let sent = mock
        .requests()
        .into_iter()
        .find(|r| r.path == "/chat/completions")
        .expect("the turn went to Chat Completions");
    assert_eq!(
        sent.json()["reasoning_effort"],
        "high",
        "max is clamped to high"
    );
    assert!(
        stderr.contains("GitHub Copilot takes at most high: max is sent as high"),
        "{stderr}"
    );
    assert!(
        stderr.contains("does not return Claude's thoughts"),
        "{stderr}"
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn without_a_sign_in_or_with_a_revoked_one_it_says_what_to_do() {
    let (out, _) = chat("gpt-5.4/high", Script::default(), None).await;
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("ponder-cli login copilot"), "{stderr}");

    let revoked = Script {
        revoked: true,
        ..Script::default()
    };
    let (out, _) = chat("gpt-5.4/high", revoked, Some(GITHUB_TOKEN)).await;
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("sign in to GitHub Copilot again"),
        "{stderr}"
    );
}

/// A Secret Service of the test's own: a private D-Bus session bus whose
/// `org.freedesktop.secrets` is a gnome-keyring unlocked with a throwaway password, its files
/// in a temporary folder (as `keyring_session` in `.ci/lib.sh` sets one up for the app's
/// tests). The keyring stops with the bus, when this is dropped.
struct Keyring {
    _dir: tempfile::TempDir,
    bus: std::process::Child,
    address: String,
}

impl Keyring {
    fn start() -> Keyring {
        use std::io::BufRead;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for sub in ["services", "data", "run"] {
            std::fs::create_dir(root.join(sub)).unwrap();
        }
        std::fs::set_permissions(
            root.join("run"),
            std::os::unix::fs::PermissionsExt::from_mode(0o700),
        )
        .unwrap();
        let start = root.join("start-keyring");
        std::fs::write(
            &start,
            format!(
                "#!/bin/sh\necho -n test-password-not-real | XDG_RUNTIME_DIR={run} XDG_DATA_HOME={data} exec gnome-keyring-daemon --unlock --foreground --components=secrets >>{log} 2>&1\n",
                run = root.join("run").display(),
                data = root.join("data").display(),
                log = root.join("keyring.log").display(),
            ),
        )
        .unwrap();
        std::fs::set_permissions(&start, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        std::fs::write(
            root.join("services/org.freedesktop.secrets.service"),
            format!(
                "[D-BUS Service]\nName=org.freedesktop.secrets\nExec={}\n",
                start.display()
            ),
        )
        .unwrap();
        let conf = root.join("session.conf");
        std::fs::write(
            &conf,
            format!(
                r#"<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <servicedir>{}</servicedir>
  <include>/usr/share/dbus-1/session.conf</include>
</busconfig>
"#,
                root.join("services").display()
            ),
        )
        .unwrap();
        let mut bus = std::process::Command::new("dbus-daemon")
            .arg(format!("--config-file={}", conf.display()))
            .args(["--nofork", "--print-address=1"])
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("dbus-daemon (package dbus) runs the test's own Secret Service");
        let mut address = String::new();
        std::io::BufReader::new(bus.stdout.take().unwrap())
            .read_line(&mut address)
            .unwrap();
        let keyring = Keyring {
            _dir: dir,
            bus,
            address: address.trim().to_owned(),
        };
        assert!(
            !keyring.address.is_empty(),
            "dbus-daemon printed no address"
        );
        // Stored and read back: the keyring answers (gnome-keyring is installed).
        keyring.store("ponder-test-probe", "probe-not-a-secret");
        assert_eq!(
            keyring.lookup("ponder-test-probe").as_deref(),
            Some("probe-not-a-secret"),
            "the test's gnome-keyring (packages gnome-keyring, libsecret-tools) does not answer"
        );
        keyring
    }

    /// `secret-tool` on this keyring.
    fn secret_tool(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new("secret-tool");
        cmd.env("DBUS_SESSION_BUS_ADDRESS", &self.address);
        cmd
    }

    /// What Ponder keeps under `account`, as keyring-rs stores it.
    fn lookup(&self, account: &str) -> Option<String> {
        let out = self
            .secret_tool()
            .args(["lookup", "service", APP_IDENTIFIER, "username", account])
            .output()
            .unwrap();
        let found = String::from_utf8_lossy(&out.stdout).into_owned();
        (out.status.success() && !found.is_empty()).then_some(found)
    }

    /// Stores a secret under `account` as keyring-rs would.
    fn store(&self, account: &str, secret: &str) {
        use std::io::Write;
        let mut store = self
            .secret_tool()
            .args(["store", "--label=Ponder test", "service", APP_IDENTIFIER])
            .args(["username", account, "target", "default"])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        store
            .stdin
            .take()
            .unwrap()
            .write_all(secret.as_bytes())
            .unwrap();
        assert!(store.wait().unwrap().success(), "secret-tool store");
    }
}

impl Drop for Keyring {
    fn drop(&mut self) {
        let _ = self.bus.kill();
        let _ = self.bus.wait();
    }
}

/// `ponder-cli` with a data and settings folder of its own, the keyring's bus, and no GitHub
/// token in the environment.
fn cli_in(home: &std::path::Path, keyring: &Keyring) -> tokio::process::Command {
    let mut cmd = tokio::process::Command::from(ponder_cli());
    cmd.env("XDG_DATA_HOME", home)
        .env("XDG_CONFIG_HOME", home)
        .env("DBUS_SESSION_BUS_ADDRESS", &keyring.address)
        .env_remove("PONDER_COPILOT_API_KEY");
    cmd
}

/// The GitHub address the app's settings give Copilot, as the desktop app writes it.
fn set_github_address(home: &std::path::Path, address: &str) {
    let dir = home.join(APP_IDENTIFIER);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join(ponder_core::paths::SETTINGS_FILE),
        serde_json::json!({"providers": {"copilot": {"enabled": true, "baseUrl": address}}})
            .to_string(),
    )
    .unwrap();
}

/// A loopback GitHub whose sign-in is approved at the first check.
async fn github() -> MockProvider {
    let mock = MockProvider::start().await.unwrap();
    mock.serve_copilot(Script {
        pending_polls: 0,
        interval: 0,
        ..Script::default()
    });
    mock
}

async fn login(home: &std::path::Path, keyring: &Keyring, address: &str) -> std::process::Output {
    cli_in(home, keyring)
        .args(["login", "copilot", "--github-url", address])
        .output()
        .await
        .unwrap()
}

/// Every request that carried the GitHub token, in any header.
fn carrying_the_github_token(mock: &MockProvider) -> Vec<String> {
    mock.requests()
        .into_iter()
        .filter(|r| r.headers.iter().any(|(_, v)| v.contains(GITHUB_TOKEN)))
        .map(|r| format!("{} {}", r.method, r.path))
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_github_token_is_kept_per_address_and_never_sent_to_another() {
    let keyring = Keyring::start();
    let home = tempfile::tempdir().unwrap();
    let (a, b) = (github().await, github().await);
    let signed_in = login(home.path(), &keyring, &a.url()).await;
    assert!(
        signed_in.status.success(),
        "{}",
        String::from_utf8_lossy(&signed_in.stderr)
    );
    assert_eq!(
        keyring.lookup(&format!("copilot@{}", a.url())).as_deref(),
        Some(GITHUB_TOKEN),
        "kept under the address it was signed in at"
    );
    assert_eq!(
        keyring.lookup("copilot"),
        None,
        "not under one account for all"
    );

    // The address changes (in Settings, or by whatever wrote the settings file): the token
    // signed in at A goes nowhere, and B is not signed in.
    set_github_address(home.path(), &b.url());
    let chat = cli_in(home.path(), &keyring)
        .args([
            "chat",
            "--provider",
            "copilot",
            "--model",
            "gpt-5.4/low",
            "Hi",
        ])
        .output()
        .await
        .unwrap();
    let stderr = String::from_utf8_lossy(&chat.stderr);
    assert_eq!(chat.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("not signed in to GitHub Copilot"),
        "{stderr}"
    );
    assert_eq!(carrying_the_github_token(&b), Vec::<String>::new());
    assert!(b.requests().is_empty(), "nothing at all went to B");

    // Back at A, its own sign-in still works.
    let chat = cli_in(home.path(), &keyring)
        .args(["chat", "--provider", "copilot", "--model", "gpt-5.4/low"])
        .args(["--base-url", &a.url(), "Hi"])
        .output()
        .await
        .unwrap();
    assert!(
        chat.status.success(),
        "{}",
        String::from_utf8_lossy(&chat.stderr)
    );

    // Signing out of B leaves A's sign-in; signing out of A removes it.
    let out = cli_in(home.path(), &keyring)
        .args(["login", "copilot", "--logout"])
        .output()
        .await
        .unwrap();
    assert!(out.status.success());
    assert!(keyring.lookup(&format!("copilot@{}", a.url())).is_some());
    let out = cli_in(home.path(), &keyring)
        .args(["login", "copilot", "--logout", "--github-url", &a.url()])
        .output()
        .await
        .unwrap();
    assert!(out.status.success());
    assert_eq!(keyring.lookup(&format!("copilot@{}", a.url())), None);
}

#[tokio::test(flavor = "multi_thread")]
async fn a_token_kept_the_old_way_is_never_sent_to_an_address_the_settings_name() {
    let keyring = Keyring::start();
    let home = tempfile::tempdir().unwrap();
    // One account for every address, as Ponder kept it before: whoever writes an address
    // into the settings would have been sent it.
    keyring.store("copilot", GITHUB_TOKEN);
    let elsewhere = github().await;
    set_github_address(home.path(), &elsewhere.url());
    let chat = cli_in(home.path(), &keyring)
        .args([
            "chat",
            "--provider",
            "copilot",
            "--model",
            "gpt-5.4/low",
            "Hi",
        ])
        .output()
        .await
        .unwrap();
    let stderr = String::from_utf8_lossy(&chat.stderr);
    assert_eq!(chat.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("not signed in to GitHub Copilot"),
        "{stderr}"
    );
    assert_eq!(carrying_the_github_token(&elsewhere), Vec::<String>::new());
}

#[tokio::test(flavor = "multi_thread")]
async fn times_of_2_to_the_64_from_github_are_no_crash() {
    let keyring = Keyring::start();
    let home = tempfile::tempdir().unwrap();
    let mock = MockProvider::start().await.unwrap();
    mock.serve_copilot(Script {
        pending_polls: 0,
        interval: 0,
        huge_numbers: true,
        ..Script::default()
    });
    let signed_in = login(home.path(), &keyring, &mock.url()).await;
    assert!(
        signed_in.status.success(),
        "{}",
        String::from_utf8_lossy(&signed_in.stderr)
    );
    let chat = cli_in(home.path(), &keyring)
        .args([
            "chat",
            "--provider",
            "copilot",
            "--model",
            "gpt-5.4/low",
            "--json",
        ])
        .args(["--base-url", &mock.url(), "Hi"])
        .output()
        .await
        .unwrap();
    assert!(
        chat.status.success(),
        "{}",
        String::from_utf8_lossy(&chat.stderr)
    );
}

/// `chat` against a GitHub whose token exchange sends its headers and then nothing, with its
/// data folder.
fn silent_chat(
    mock: &MockProvider,
    idle_timeout: &str,
) -> (tokio::process::Child, tempfile::TempDir) {
    let data = tempfile::tempdir().unwrap();
    let mut cmd = tokio::process::Command::from(ponder_cli());
    cmd.env("XDG_DATA_HOME", data.path())
        .env("XDG_CONFIG_HOME", data.path())
        .env("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent")
        .env("PONDER_COPILOT_API_KEY", GITHUB_TOKEN)
        .args(["chat", "--provider", "copilot", "--model", "gpt-5.4/low"])
        .args([
            "--base-url",
            &mock.url(),
            "--idle-timeout",
            idle_timeout,
            "Hi",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true);
    (cmd.spawn().unwrap(), data)
}

async fn exchange_asked(mock: &MockProvider) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !mock
        .requests()
        .iter()
        .any(|r| r.path == "/copilot_internal/v2/token")
    {
        assert!(Instant::now() < deadline, "the exchange was never asked");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_silent_token_exchange_is_given_up_after_the_idle_timeout() {
    let mock = MockProvider::start().await.unwrap();
    mock.serve_copilot(Script {
        silent_exchange: true,
        ..Script::default()
    });
    let (child, _data) = silent_chat(&mock, "1");
    exchange_asked(&mock).await;
    let asked = Instant::now();
    let out = tokio::time::timeout(Duration::from_secs(10), child.wait_with_output())
        .await
        .expect("the exchange was given up within the idle timeout")
        .unwrap();
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "{:?}",
        asked.elapsed()
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("silent for 1 s"), "{stderr}");
}

#[tokio::test(flavor = "multi_thread")]
async fn ctrl_c_stops_a_silent_token_exchange_at_once() {
    let mock = MockProvider::start().await.unwrap();
    mock.serve_copilot(Script {
        silent_exchange: true,
        ..Script::default()
    });
    let (child, _data) = silent_chat(&mock, "60");
    exchange_asked(&mock).await;
    let pid = child.id().unwrap().to_string();
    let stopped = Instant::now();
    let kill = std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = tokio::time::timeout(Duration::from_secs(10), child.wait_with_output())
        .await
        .expect("Ctrl+C ended the wait")
        .unwrap();
    assert!(
        stopped.elapsed() < Duration::from_secs(3),
        "{:?}",
        stopped.elapsed()
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_token_exchange_answer_over_a_mebibyte_is_refused_with_a_clear_error() {
    let padded = Script {
        exchange_padding: 2 << 20,
        ..Script::default()
    };
    let (out, _) = chat("gpt-5.4/low", padded, Some(GITHUB_TOKEN)).await;
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "the Copilot token exchange was over 1 MiB; Ponder stops reading at that size"
        ),
        "{stderr}"
    );
}
