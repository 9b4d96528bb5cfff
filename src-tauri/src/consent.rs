//! The page asks; Rust decides. A change of settings that would run a new or changed
//! program, send a stored secret to a new address, or let a tool run unasked is shown to the
//! user in a native dialog (not drawn by the page, so a script in the page can neither fake
//! nor answer it) naming exactly that, and happens only if they allow it.

use std::collections::BTreeSet;

use ponder_core::mcp::{ServerConfig, Transport};

use crate::settings::Settings;

/// One thing a change would do that the user must agree to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Consent {
    /// Start this program (an MCP server), with these arguments.
    RunProgram {
        server: String,
        command_line: String,
    },
    /// Send this stored secret to this address.
    SendSecret { secret: String, to: String },
    /// Run this tool in every conversation without asking.
    RunUnasked { tool: String },
}

impl Consent {
    fn line(&self) -> String {
        match self {
            Self::RunProgram {
                server,
                command_line,
            } => format!("• Run the program of the tool server “{server}”:\n    {command_line}"),
            Self::SendSecret { secret, to } => format!("• Send {secret} to {to}"),
            Self::RunUnasked { tool } => {
                format!("• Run the tool {tool} in every conversation without asking first")
            }
        }
    }
}

/// What going from `before` to `after` needs the user's consent for. `has_key` says whether
/// a provider (built in or the user's own) has a key stored.
pub fn needed(before: &Settings, after: &Settings, has_key: impl Fn(&str) -> bool) -> Vec<Consent> {
    let mut out = Vec::new();
    for server in &after.mcp_servers {
        let was = before.mcp_servers.iter().find(|s| s.id == server.id);
        out.extend(server_consent(was, server));
    }
    for (id, provider) in &after.providers {
        let new = provider
            .base_url
            .as_deref()
            .map(str::trim)
            .filter(|u| !u.is_empty());
        let old = before.base_url(id);
        if let Some(new) = new
            && Some(new) != old
            && has_key(id)
        {
            out.push(Consent::SendSecret {
                secret: format!(
                    "the {} API key stored in your keyring",
                    provider_name(after, id)
                ),
                to: new.to_owned(),
            });
        }
    }
    for custom in &after.custom_providers {
        let old = before
            .custom_providers
            .iter()
            .find(|c| c.id == custom.id)
            .map(|c| c.base_url.trim());
        if old != Some(custom.base_url.trim()) && has_key(&custom.id) {
            out.push(Consent::SendSecret {
                secret: format!("the {} API key stored in your keyring", custom.name),
                to: custom.base_url.trim().to_owned(),
            });
        }
    }
    let already: BTreeSet<&String> = before.always_allowed_tools.iter().collect();
    for tool in &after.always_allowed_tools {
        if !already.contains(tool) {
            out.push(Consent::RunUnasked { tool: tool.clone() });
        }
    }
    out
}

fn provider_name(settings: &Settings, id: &str) -> String {
    settings
        .catalog()
        .provider(id)
        .map_or_else(|_| id.to_owned(), |p| p.name.clone())
}

/// A server that is new or changed: its program runs (whether or not it is switched on, a
/// Test starts it), and its secret headers go to its address.
fn server_consent(was: Option<&ServerConfig>, now: &ServerConfig) -> Option<Consent> {
    match &now.transport {
        Transport::Stdio {
            command,
            args,
            env,
            cwd,
            ..
        } => {
            let same = was.is_some_and(|w| match &w.transport {
                Transport::Stdio {
                    command: c,
                    args: a,
                    env: e,
                    cwd: d,
                    ..
                } => c == command && a == args && e == env && d == cwd,
                Transport::Http { .. } => false,
            });
            (!same).then(|| Consent::RunProgram {
                server: now.name.trim().to_owned(),
                command_line: command_line(command, args, env, cwd.as_deref()),
            })
        }
        Transport::Http {
            url,
            secret_headers,
            ..
        } => {
            let same_place = was.is_some_and(|w| match &w.transport {
                Transport::Http { url: u, .. } => u.trim() == url.trim(),
                Transport::Stdio { .. } => false,
            });
            (!secret_headers.is_empty() && !same_place).then(|| Consent::SendSecret {
                secret: format!(
                    "the secret header{} {} of the tool server “{}”",
                    if secret_headers.len() == 1 { "" } else { "s" },
                    secret_headers.join(", "),
                    now.name.trim()
                ),
                to: url.trim().to_owned(),
            })
        }
    }
}

/// The program as a shell would show it: each word quoted where it needs to be, so the user
/// reads exactly what runs.
fn command_line(
    command: &str,
    args: &[String],
    env: &std::collections::BTreeMap<String, String>,
    cwd: Option<&str>,
) -> String {
    let quote = |word: &str| {
        if !word.is_empty()
            && word
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c))
        {
            word.to_owned()
        } else {
            format!("'{}'", word.replace('\'', r"'\''"))
        }
    };
    let mut words: Vec<String> = env
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| format!("{k}={}", quote(v)))
        .collect();
    words.push(quote(command));
    words.extend(args.iter().map(|a| quote(a)));
    let mut line = words.join(" ");
    if let Some(dir) = cwd.filter(|d| !d.trim().is_empty()) {
        line.push_str(&format!("\n    (in {})", quote(dir)));
    }
    line
}

/// Shows the native dialog listing `consents`; true only if the user chose to allow them.
/// Blocks until answered: call it off the async runtime's threads.
pub fn ask(app: &tauri::AppHandle, consents: &[Consent]) -> bool {
    use tauri_plugin_dialog::{DialogExt, MessageDialogButtons, MessageDialogKind};
    if consents.is_empty() {
        return true;
    }
    let lines: Vec<String> = consents.iter().map(Consent::line).collect();
    let text = format!(
        "Ponder is asked to make a change that will:\n\n{}\n\nAllow it only if you made this change yourself.",
        lines.join("\n")
    );
    app.dialog()
        .message(text)
        .title(TITLE)
        .kind(MessageDialogKind::Warning)
        // The underscores make Alt+A and Alt+C answer from the keyboard.
        .buttons(MessageDialogButtons::OkCancelCustom(
            "_Allow".to_owned(),
            "_Cancel".to_owned(),
        ))
        .blocking_show()
}

/// The dialog's window title (tests find the dialog by it).
pub const TITLE: &str = "Allow this change?";

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::settings::ProviderSettings;

    fn stdio(id: &str, command: &str, args: &[&str]) -> ServerConfig {
        ServerConfig {
            id: id.into(),
            name: format!("{id} server"),
            enabled: false,
            transport: Transport::Stdio {
                command: command.into(),
                args: args.iter().map(|a| (*a).to_owned()).collect(),
                env: BTreeMap::new(),
                secret_env: Vec::new(),
                cwd: None,
            },
        }
    }

    fn http(id: &str, url: &str, secret: bool) -> ServerConfig {
        ServerConfig {
            id: id.into(),
            name: format!("{id} server"),
            enabled: true,
            transport: Transport::Http {
                url: url.into(),
                headers: BTreeMap::from([("X-Api-Key".to_owned(), String::new())]),
                secret_headers: if secret {
                    vec!["X-Api-Key".into()]
                } else {
                    Vec::new()
                },
            },
        }
    }

    fn with(edit: impl FnOnce(&mut Settings)) -> Settings {
        let mut s = Settings::default();
        edit(&mut s);
        s
    }

    #[test]
    fn what_needs_the_users_word_and_what_does_not() {
        let base = with(|s| {
            s.mcp_servers = vec![
                stdio("time", "uvx", &["mcp-server-time"]),
                http("web", "https://mcp.example/mcp", true),
            ];
            s.always_allowed_tools = vec!["time/now".into()];
            s.providers.insert(
                "anthropic".into(),
                ProviderSettings {
                    enabled: true,
                    base_url: Some("https://proxy.example".into()),
                    models: vec![],
                },
            );
        });
        let keyed = |id: &str| id == "anthropic" || id == "openai";
        let cases: Vec<(&str, Settings, Vec<Consent>)> = vec![
            ("nothing changed", base.clone(), vec![]),
            (
                "the theme",
                with(|s| {
                    *s = Settings {
                        theme: crate::settings::Theme::Dark,
                        ..base.clone()
                    }
                }),
                vec![],
            ),
            (
                "a new program, even switched off",
                with(|s| {
                    *s = base.clone();
                    s.mcp_servers
                        .push(stdio("marker", "sh", &["-c", "touch /tmp/marker"]));
                }),
                vec![Consent::RunProgram {
                    server: "marker server".into(),
                    command_line: "sh -c 'touch /tmp/marker'".into(),
                }],
            ),
            (
                "a changed argument",
                with(|s| {
                    *s = base.clone();
                    s.mcp_servers[0] = stdio(
                        "time",
                        "uvx",
                        &["mcp-server-time", "--local-timezone=UTC; rm -rf ~"],
                    );
                }),
                vec![Consent::RunProgram {
                    server: "time server".into(),
                    command_line: "uvx mcp-server-time '--local-timezone=UTC; rm -rf ~'".into(),
                }],
            ),
            (
                "switching a server on or off runs nothing new",
                with(|s| {
                    *s = base.clone();
                    s.mcp_servers[0].enabled = true;
                    s.mcp_servers[1].enabled = false;
                }),
                vec![],
            ),
            (
                "a secret header to a new address",
                with(|s| {
                    *s = base.clone();
                    s.mcp_servers[1] = http("web", "https://attacker.example/mcp", true);
                }),
                vec![Consent::SendSecret {
                    secret: "the secret header X-Api-Key of the tool server “web server”".into(),
                    to: "https://attacker.example/mcp".into(),
                }],
            ),
            (
                "a new address with no secret",
                with(|s| {
                    *s = base.clone();
                    s.mcp_servers[1] = http("web", "https://elsewhere.example/mcp", false);
                }),
                vec![],
            ),
            (
                "a key to a new base URL",
                with(|s| {
                    *s = base.clone();
                    s.providers.insert(
                        "openai".into(),
                        ProviderSettings {
                            enabled: true,
                            base_url: Some(" http://203.0.113.9:8080/v1 ".into()),
                            models: vec![],
                        },
                    );
                }),
                vec![Consent::SendSecret {
                    secret: "the OpenAI API key stored in your keyring".into(),
                    to: "http://203.0.113.9:8080/v1".into(),
                }],
            ),
            (
                "a base URL for a provider without a key, or back to the provider's own",
                with(|s| {
                    *s = base.clone();
                    s.providers.insert(
                        "google".into(),
                        ProviderSettings {
                            enabled: true,
                            base_url: Some("http://127.0.0.1:9".into()),
                            models: vec![],
                        },
                    );
                    s.providers.get_mut("anthropic").unwrap().base_url = None;
                }),
                vec![],
            ),
            (
                "a tool allowed everywhere",
                with(|s| {
                    *s = base.clone();
                    s.always_allowed_tools.push("files/write_file".into());
                }),
                vec![Consent::RunUnasked {
                    tool: "files/write_file".into(),
                }],
            ),
            (
                "a tool no longer allowed",
                with(|s| {
                    *s = base.clone();
                    s.always_allowed_tools.clear();
                }),
                vec![],
            ),
        ];
        for (what, after, expected) in cases {
            assert_eq!(needed(&base, &after, keyed), expected, "{what}");
        }
    }

    #[test]
    fn the_command_line_shows_exactly_what_runs() {
        let env = BTreeMap::from([
            ("TOKEN".to_owned(), String::new()),
            ("MODE".to_owned(), "a b".to_owned()),
        ]);
        assert_eq!(
            command_line(
                "npx",
                &[
                    "-y".into(),
                    "@scope/server".into(),
                    "it's".into(),
                    String::new()
                ],
                &env,
                Some("/tmp/x y")
            ),
            "MODE='a b' npx -y @scope/server 'it'\\''s' ''\n    (in '/tmp/x y')"
        );
    }
}
