//! API keys: the environment (`PONDER_<PROVIDER>_API_KEY`) for scripts and development, else
//! the OS keyring. Never a file Ponder writes, never a log.

use crate::paths::APP_IDENTIFIER;

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
    let env = env_var(provider);
    if let Ok(key) = std::env::var(&env)
        && !key.trim().is_empty()
    {
        return Ok(key.trim().to_owned());
    }
    let owned = provider.to_owned();
    // Whatever went wrong with the keyring, the user's way out is the same: say both routes.
    bounded(move || keyring_key(&owned)).map_err(|err| match err {
        SecretError::Unavailable(why) => SecretError::Missing {
            provider: provider.to_owned(),
            env,
            service: APP_IDENTIFIER.to_owned(),
            detail: format!(" (the keyring could not be read: {why})"),
        },
        missing => missing,
    })
}

/// Every given provider's key at once. Each lookup runs on its own thread, so a locked
/// keyring costs one [`KEYRING_TIMEOUT`] in all, not one per provider.
pub fn api_keys<'a>(
    providers: impl IntoIterator<Item = &'a str>,
) -> Vec<(String, Result<String, SecretError>)> {
    look_up_all(providers, api_key)
}

fn look_up_all<'a, T: Send>(
    providers: impl IntoIterator<Item = &'a str>,
    lookup: impl Fn(&str) -> T + Sync,
) -> Vec<(String, T)> {
    let ids: Vec<&str> = providers.into_iter().collect();
    let lookup = &lookup;
    std::thread::scope(|scope| {
        let running: Vec<_> = ids
            .iter()
            .map(|id| scope.spawn(move || lookup(id)))
            .collect();
        ids.iter()
            .zip(running)
            .map(|(id, thread)| {
                let found = thread
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                ((*id).to_owned(), found)
            })
            .collect()
    })
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

fn keyring_key(provider: &str) -> Result<String, SecretError> {
    let env = env_var(provider);
    let detail = match entry(provider).and_then(|e| {
        e.get_password()
            .map_err(|e| SecretError::Unavailable(e.to_string()))
    }) {
        Ok(key) if !key.trim().is_empty() => return Ok(key.trim().to_owned()),
        Ok(_) => String::new(),
        Err(SecretError::Unavailable(why)) if !why.contains("No matching entry") => {
            format!(" (the keyring could not be read: {why})")
        }
        Err(_) => String::new(),
    };
    Err(SecretError::Missing {
        provider: provider.to_owned(),
        env,
        service: APP_IDENTIFIER.to_owned(),
        detail,
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
    bounded(|| match entry("ponder-probe")?.get_password() {
        Ok(_) | Err(keyring::Error::NoEntry) => Ok(()),
        Err(e) => Err(SecretError::Unavailable(e.to_string())),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_looked_up_at_once_not_one_after_another() {
        let slow = |id: &str| {
            std::thread::sleep(std::time::Duration::from_millis(300));
            id.len()
        };
        let ids = [
            "anthropic",
            "openai",
            "google",
            "deepseek",
            "moonshot",
            "qwen",
            "xai",
            "zai",
        ];
        let started = std::time::Instant::now();
        let found = look_up_all(ids, slow);
        // One after another this takes 2.4 s; at once, about 0.3 s.
        assert!(
            started.elapsed() < std::time::Duration::from_millis(1_500),
            "{:?}",
            started.elapsed()
        );
        let expected: Vec<_> = ids.iter().map(|id| ((*id).to_owned(), id.len())).collect();
        assert_eq!(found, expected, "in the order asked");
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
