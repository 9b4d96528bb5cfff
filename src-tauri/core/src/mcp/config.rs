//! How the user described an MCP server: what to run (stdio) or where it answers
//! (Streamable HTTP), and which of its environment values and headers are secrets. A secret's
//! value lives in the OS keyring; the configuration holds only its name.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ServerConfig {
    /// Stable, short and safe in tool names: lowercase letters, digits, `-` and `_`.
    pub id: String,
    /// What the user calls it.
    pub name: String,
    #[serde(default = "enabled")]
    pub enabled: bool,
    pub transport: Transport,
}

fn enabled() -> bool {
    true
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum Transport {
    /// A program Ponder starts and talks to over its standard input and output.
    Stdio {
        command: String,
        #[serde(default)]
        args: Vec<String>,
        /// Plain values; a secret's entry is its name with an empty value here.
        #[serde(default)]
        env: BTreeMap<String, String>,
        /// Names in `env` whose values are in the keyring.
        #[serde(default, rename = "secretEnv")]
        secret_env: Vec<String>,
        #[serde(default)]
        cwd: Option<String>,
    },
    /// A server that answers Streamable HTTP at a URL.
    Http {
        url: String,
        #[serde(default)]
        headers: BTreeMap<String, String>,
        /// Names in `headers` whose values are in the keyring.
        #[serde(default, rename = "secretHeaders")]
        secret_headers: Vec<String>,
    },
}

/// Why a server's description cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    #[error(
        "the server id {0:?} must be 1–32 lowercase letters, digits, '-' or '_', starting with a letter"
    )]
    BadId(String),
    #[error("the server needs a name")]
    NoName,
    #[error("the server needs a command to run")]
    NoCommand,
    #[error("the URL {0:?} is not an http:// or https:// address")]
    BadUrl(String),
    #[error("{0:?} is not a valid name for an environment variable")]
    BadEnvName(String),
    #[error("{0:?} is not a valid HTTP header name")]
    BadHeaderName(String),
}

impl ServerConfig {
    pub fn validate(&self) -> Result<(), ConfigError> {
        let id_ok = (1..=32).contains(&self.id.len())
            && self.id.starts_with(|c: char| c.is_ascii_lowercase())
            && self
                .id
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '_');
        if !id_ok {
            return Err(ConfigError::BadId(self.id.clone()));
        }
        if self.name.trim().is_empty() {
            return Err(ConfigError::NoName);
        }
        match &self.transport {
            Transport::Stdio { command, env, .. } => {
                if command.trim().is_empty() {
                    return Err(ConfigError::NoCommand);
                }
                if let Some(bad) = env.keys().find(|k| !env_name_ok(k)) {
                    return Err(ConfigError::BadEnvName(bad.clone()));
                }
            }
            Transport::Http { url, headers, .. } => {
                let scheme_ok = reqwest::Url::parse(url)
                    .is_ok_and(|u| matches!(u.scheme(), "http" | "https") && u.has_host());
                if !scheme_ok {
                    return Err(ConfigError::BadUrl(url.clone()));
                }
                if let Some(bad) = headers
                    .keys()
                    .find(|k| reqwest::header::HeaderName::from_bytes(k.as_bytes()).is_err())
                {
                    return Err(ConfigError::BadHeaderName(bad.clone()));
                }
            }
        }
        Ok(())
    }

    /// The names of this server's secrets, as the keyring knows them.
    pub fn secret_names(&self) -> Vec<&str> {
        match &self.transport {
            Transport::Stdio { secret_env, .. } => secret_env.iter().map(String::as_str).collect(),
            Transport::Http { secret_headers, .. } => {
                secret_headers.iter().map(String::as_str).collect()
            }
        }
    }

    /// Whether the server's secret headers would cross the network unencrypted: plain
    /// `http://` to anything but this machine, as for a provider's key
    /// (`providers::http::key_travels_in_clear`).
    pub fn secrets_travel_in_clear(&self) -> bool {
        match &self.transport {
            Transport::Http {
                url,
                secret_headers,
                ..
            } => !secret_headers.is_empty() && crate::providers::http::key_travels_in_clear(url),
            Transport::Stdio { .. } => false,
        }
    }

    /// The warning for a server whose secrets travel in clear, the same as for a provider's key.
    pub fn in_clear_warning(&self) -> Option<String> {
        self.secrets_travel_in_clear().then(|| {
            format!(
                "{}: {} is plain http to another machine: its secret headers cross the network unencrypted",
                self.id,
                self.summary()
            )
        })
    }

    /// One line saying what runs: `npx -y @modelcontextprotocol/server-everything` or the URL.
    pub fn summary(&self) -> String {
        match &self.transport {
            Transport::Stdio { command, args, .. } => std::iter::once(command.as_str())
                .chain(args.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" "),
            Transport::Http { url, .. } => url.clone(),
        }
    }
}

fn env_name_ok(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The keyring account that holds one secret of one server.
pub fn secret_account(server_id: &str, name: &str) -> String {
    format!("mcp:{server_id}:{name}")
}

/// A server's secret values, from the OS keyring. A secret with nothing stored is left out
/// (the server then starts without it, and says what it misses on stderr).
pub fn keyring_secrets(config: &ServerConfig) -> Result<BTreeMap<String, String>, super::McpError> {
    let mut values = BTreeMap::new();
    for name in config.secret_names() {
        match crate::secrets::secret(&secret_account(&config.id, name)) {
            Ok(Some(value)) => {
                values.insert(name.to_owned(), value);
            }
            Ok(None) => {}
            Err(e) => {
                return Err(super::McpError::Secret {
                    name: name.to_owned(),
                    reason: e.to_string(),
                });
            }
        }
    }
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stdio(id: &str, command: &str) -> ServerConfig {
        ServerConfig {
            id: id.into(),
            name: "Everything".into(),
            enabled: true,
            transport: Transport::Stdio {
                command: command.into(),
                args: vec![
                    "-y".into(),
                    "@modelcontextprotocol/server-everything".into(),
                ],
                env: BTreeMap::from([("API_TOKEN".into(), String::new())]),
                secret_env: vec!["API_TOKEN".into()],
                cwd: None,
            },
        }
    }

    #[test]
    fn the_stored_form_is_camel_case_with_a_transport_tag() {
        let json = serde_json::to_value(stdio("everything", "npx")).unwrap();
        assert_eq!(json["transport"]["type"], "stdio");
        assert_eq!(
            json["transport"]["secretEnv"],
            serde_json::json!(["API_TOKEN"])
        );
        let back: ServerConfig = serde_json::from_value(json).unwrap();
        assert_eq!(back, stdio("everything", "npx"));
        let minimal: ServerConfig = serde_json::from_str(
            r#"{"id":"time","name":"Time","transport":{"type":"http","url":"http://127.0.0.1:3001/mcp"}}"#,
        )
        .unwrap();
        assert!(minimal.enabled, "a server is on unless switched off");
    }

    #[test]
    fn bad_descriptions_say_what_is_wrong() {
        let cases: &[(ServerConfig, Option<ConfigError>)] = &[
            (stdio("everything", "npx"), None),
            (
                stdio("Everything", "npx"),
                Some(ConfigError::BadId("Everything".into())),
            ),
            (stdio("1st", "npx"), Some(ConfigError::BadId("1st".into()))),
            (stdio("everything", "  "), Some(ConfigError::NoCommand)),
            (
                ServerConfig {
                    transport: Transport::Http {
                        url: "file:///etc/passwd".into(),
                        headers: BTreeMap::new(),
                        secret_headers: Vec::new(),
                    },
                    ..stdio("web", "x")
                },
                Some(ConfigError::BadUrl("file:///etc/passwd".into())),
            ),
            (
                ServerConfig {
                    transport: Transport::Http {
                        url: "https://mcp.example.com/mcp".into(),
                        headers: BTreeMap::from([("Bad Header".into(), "x".into())]),
                        secret_headers: Vec::new(),
                    },
                    ..stdio("web", "x")
                },
                Some(ConfigError::BadHeaderName("Bad Header".into())),
            ),
        ];
        for (config, expected) in cases {
            assert_eq!(config.validate().err(), *expected, "{config:?}");
        }
    }

    fn http(url: &str, secret: bool) -> ServerConfig {
        ServerConfig {
            transport: Transport::Http {
                url: url.into(),
                headers: BTreeMap::from([("X-Api-Key".into(), String::new())]),
                secret_headers: if secret {
                    vec!["X-Api-Key".into()]
                } else {
                    Vec::new()
                },
            },
            ..stdio("web", "x")
        }
    }

    #[test]
    fn secret_headers_in_clear_are_plain_http_beyond_this_machine() {
        for (config, clear) in [
            (http("http://mcp.example.com/mcp", true), true),
            (http("http://192.168.1.20:8080/mcp", true), true),
            (http("https://mcp.example.com/mcp", true), false),
            (http("http://127.0.0.1:3001/mcp", true), false),
            (http("http://localhost:3001/mcp", true), false),
            (http("http://[::1]:3001/mcp", true), false),
            (http("http://mcp.example.com/mcp", false), false),
            (stdio("everything", "npx"), false),
        ] {
            assert_eq!(
                config.secrets_travel_in_clear(),
                clear,
                "{}",
                config.summary()
            );
            assert_eq!(config.in_clear_warning().is_some(), clear);
        }
        let warning = http("http://mcp.example.com/mcp", true)
            .in_clear_warning()
            .unwrap();
        assert!(warning.contains("unencrypted") && warning.contains("http://mcp.example.com/mcp"));
    }

    #[test]
    fn the_summary_is_the_command_line_or_the_url() {
        assert_eq!(
            stdio("everything", "npx").summary(),
            "npx -y @modelcontextprotocol/server-everything"
        );
        assert_eq!(
            secret_account("web", "Authorization"),
            "mcp:web:Authorization"
        );
    }
}
