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
