//! API keys: the environment (`PONDER_<PROVIDER>_API_KEY`) for scripts and development, else
//! the OS keyring. Never a file Ponder writes, never a log.

use std::collections::HashMap;

use crate::paths::APP_IDENTIFIER;

mod secret_service;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SecretError {
    #[error(
        "no API key for {provider}: set {env} or store one in the system keyring (Ponder's settings, or `secret-tool store --label=Ponder service {service} username {provider}`){detail}"
    )]
    Missing {
        provider: String,
        env: String,
        service: String,
        detail: String,
    },
    #[error("the system keyring is not available: {0}")]
    Unavailable(String),
}

/// The environment variable that holds a provider's key.
pub fn env_var(provider: &str) -> String {
    let id: String = provider
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("PONDER_{id}_API_KEY")
}

fn entry(provider: &str) -> Result<keyring::Entry, SecretError> {
    keyring::Entry::new(APP_IDENTIFIER, provider)
        .map_err(|e| SecretError::Unavailable(e.to_string()))
}

/// How long a keyring call may take: a locked keyring can wait forever on an unlock prompt
/// that nobody sees.
pub const KEYRING_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(3);

/// The key for a provider, from the environment or the keyring.
pub fn api_key(provider: &str) -> Result<String, SecretError> {
    let (_, found) = api_keys([provider])
        .pop()
        .expect("one key asked, one answer");
    found
}

/// Every given provider's key at once, in the order asked: the environment's first, the rest
/// from one keyring session. Each session costs the keyring (and this process) a
/// Diffie-Hellman key exchange for the secrets' transfer: a session per provider was ~15 of
/// them at every start, a core's worth of work for ~50 ms while the window was being drawn.
/// A locked keyring costs one [`KEYRING_TIMEOUT`] in all.
pub fn api_keys<'a>(
    providers: impl IntoIterator<Item = &'a str>,
) -> Vec<(String, Result<String, SecretError>)> {
    let ids: Vec<String> = providers.into_iter().map(str::to_owned).collect();
    let from_env: Vec<Option<String>> = ids
        .iter()
        .map(|id| {
            std::env::var(env_var(id))
                .ok()
                .map(|key| key.trim().to_owned())
                .filter(|key| !key.is_empty())
        })
        .collect();
    let wanted: Vec<String> = ids
        .iter()
        .zip(&from_env)
        .filter(|(_, env)| env.is_none())
        .map(|(id, _)| id.clone())
        .collect();
    let stored = if wanted.is_empty() {
        Ok(HashMap::new())
    } else {
        bounded(move || secret_service::stored(&wanted))
    };
    ids.into_iter()
        .zip(from_env)
        .map(|(id, env)| {
            let found = found_key(&id, env, &stored);
            (id, found)
        })
        .collect()
}

/// What the keyring holds for each provider with something stored (its secret, or why it
/// could not be read), or why the keyring could not be asked.
type Stored = Result<HashMap<String, Result<String, String>>, SecretError>;

/// One provider's key: the environment's, else what the keyring holds, else what to do.
fn found_key(id: &str, env: Option<String>, stored: &Stored) -> Result<String, SecretError> {
    match (env, stored) {
        (Some(key), _) => Ok(key),
        (None, Ok(stored)) => match stored.get(id) {
            Some(Ok(key)) if !key.trim().is_empty() => Ok(key.trim().to_owned()),
            Some(Ok(_)) | None => Err(missing(id, String::new())),
            Some(Err(why)) => Err(missing(id, unreadable(why))),
        },
        // Whatever went wrong with the keyring, the user's way out is the same: say both
        // routes.
        (None, Err(SecretError::Unavailable(why) | SecretError::Missing { detail: why, .. })) => {
            Err(missing(id, unreadable(why)))
        }
    }
}

fn missing(provider: &str, detail: String) -> SecretError {
    SecretError::Missing {
        provider: provider.to_owned(),
        env: env_var(provider),
        service: APP_IDENTIFIER.to_owned(),
        detail,
    }
}

fn unreadable(why: &str) -> String {
    format!(" (the keyring could not be read: {why})")
}

/// Runs a keyring call on its own thread and gives up after [`KEYRING_TIMEOUT`].
fn bounded<T: Send + 'static>(
    call: impl FnOnce() -> Result<T, SecretError> + Send + 'static,
) -> Result<T, SecretError> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(call());
    });
    rx.recv_timeout(KEYRING_TIMEOUT).unwrap_or_else(|_| {
        Err(SecretError::Unavailable(format!(
            "the system keyring did not answer within {} s (is it locked?)",
            KEYRING_TIMEOUT.as_secs()
        )))
    })
}

pub fn set_api_key(provider: &str, key: &str) -> Result<(), SecretError> {
    let (provider, key) = (provider.to_owned(), key.trim().to_owned());
    bounded(move || {
        entry(&provider)?
            .set_password(&key)
            .map_err(|e| SecretError::Unavailable(e.to_string()))
    })
}

pub fn clear_api_key(provider: &str) -> Result<(), SecretError> {
    let provider = provider.to_owned();
    bounded(move || match entry(&provider)?.delete_credential() {
        Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
        Err(e) => Err(SecretError::Unavailable(e.to_string())),
    })
}

/// A secret an MCP server needs (an environment value or a header), by its keyring account
/// (see `mcp::config::secret_account`). `Ok(None)`: nothing stored.
pub fn secret(account: &str) -> Result<Option<String>, SecretError> {
    let account = account.to_owned();
    bounded(move || match entry(&account)?.get_password() {
        Ok(value) => Ok(Some(value)),
        Err(keyring::Error::NoEntry) => Ok(None),
        Err(e) => Err(SecretError::Unavailable(e.to_string())),
    })
}

pub fn set_secret(account: &str, value: &str) -> Result<(), SecretError> {
    let (account, value) = (account.to_owned(), value.to_owned());
    bounded(move || {
        entry(&account)?
            .set_password(&value)
            .map_err(|e| SecretError::Unavailable(e.to_string()))
    })
}

pub fn clear_secret(account: &str) -> Result<(), SecretError> {
    clear_api_key(account)
}

/// Whether the keyring can be reached at all (a missing entry is fine).
pub fn probe() -> Result<(), SecretError> {
    bounded(secret_service::reachable)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_comes_from_the_environment_then_the_keyring_else_says_what_to_do() {
        let held: HashMap<String, Result<String, String>> = [
            ("anthropic", Ok(" FAKE-a-not-real \n")),
            ("openai", Ok("   ")),
            (
                "qwen",
                Err("2 keyring items are stored for it; remove all but one"),
            ),
        ]
        .into_iter()
        .map(|(id, found)| {
            (
                id.to_owned(),
                found.map(str::to_owned).map_err(str::to_owned),
            )
        })
        .collect();
        let locked: Stored = Err(SecretError::Unavailable("the keyring is locked".into()));
        let cases = [
            ("anthropic", None, &Ok(held.clone()), Ok("FAKE-a-not-real")),
            (
                "anthropic",
                Some("FAKE-env-not-real"),
                &Ok(held.clone()),
                Ok("FAKE-env-not-real"),
            ),
            (
                "google",
                Some("FAKE-env-not-real"),
                &locked,
                Ok("FAKE-env-not-real"),
            ),
            // A blank secret is no key, and nothing went wrong reading it.
            ("openai", None, &Ok(held.clone()), Err("")),
            ("google", None, &Ok(held.clone()), Err("")),
            (
                "qwen",
                None,
                &Ok(held.clone()),
                Err(
                    " (the keyring could not be read: 2 keyring items are stored for it; remove all but one)",
                ),
            ),
            (
                "google",
                None,
                &locked,
                Err(" (the keyring could not be read: the keyring is locked)"),
            ),
        ];
        for (id, env, stored, expected) in cases {
            let found = found_key(id, env.map(str::to_owned), stored);
            match (found, expected) {
                (Ok(key), Ok(want)) => assert_eq!(key, want, "{id}"),
                (
                    Err(SecretError::Missing {
                        provider,
                        env,
                        detail,
                        ..
                    }),
                    Err(want),
                ) => {
                    assert_eq!(
                        (provider.as_str(), env, detail.as_str()),
                        (id, env_var(id), want)
                    );
                }
                (found, want) => panic!("{id}: {found:?}, expected {want:?}"),
            }
        }
    }

    #[test]
    fn env_var_names_are_upper_snake() {
        assert_eq!(env_var("anthropic"), "PONDER_ANTHROPIC_API_KEY");
        assert_eq!(env_var("llamacpp"), "PONDER_LLAMACPP_API_KEY");
        assert_eq!(env_var("z.ai"), "PONDER_Z_AI_API_KEY");
    }

    #[test]
    fn a_missing_key_names_the_variable_and_the_keyring() {
        let err = SecretError::Missing {
            provider: "openai".into(),
            env: env_var("openai"),
            service: APP_IDENTIFIER.into(),
            detail: String::new(),
        };
        let text = err.to_string();
        assert!(
            text.contains("PONDER_OPENAI_API_KEY") && text.contains("keyring"),
            "{text}"
        );
    }
}
