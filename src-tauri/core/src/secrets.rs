//! API keys: the environment (`PONDER_<PROVIDER>_API_KEY`) for scripts and development, else
//! the OS keyring. Never a file Ponder writes, never a log.

use std::collections::HashMap;

use crate::paths::APP_IDENTIFIER;
use crate::providers::copilot::Hosts;

/// The provider a GitHub token is for.
const COPILOT: &str = crate::providers::copilot::error::PROVIDER;

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

/// The keyring account of the GitHub token signed in at `hosts`: `copilot@https://github.com`.
/// Each GitHub address has its own, so that a token is only ever read for the address it was
/// signed in at: changing the address finds no token, rather than sending the old one there.
pub fn github_account(hosts: &Hosts) -> String {
    format!("{COPILOT}@{}", hosts.web())
}

/// The accounts a GitHub token for `hosts` is looked for under, in order: its own, then, for
/// github.com only, `copilot`, the one account every sign-in was kept under before tokens
/// were tied to their address. Which address such a token came from cannot be known; nearly
/// always it is github.com's, and taken as github.com's it can only ever reach GitHub's own
/// API, never an address the settings name (a tenant, a server on this machine, or one a
/// page or a file put there). A token from elsewhere is refused there, and the user signs in
/// again.
fn github_accounts(hosts: &Hosts) -> Vec<String> {
    let mut accounts = vec![github_account(hosts)];
    if hosts.is_github_com() {
        accounts.push(COPILOT.to_owned());
    }
    accounts
}

/// The GitHub token for `hosts`: the environment's (`PONDER_COPILOT_API_KEY`, which the
/// user gives for whatever address they run with), else the one signed in at that address.
/// `Ok(None)`: not signed in there.
pub fn github_token(hosts: &Hosts) -> Result<Option<String>, SecretError> {
    if let Some(token) = std::env::var(env_var(COPILOT))
        .ok()
        .map(|token| token.trim().to_owned())
        .filter(|token| !token.is_empty())
    {
        return Ok(Some(token));
    }
    let accounts = github_accounts(hosts);
    let wanted = accounts.clone();
    let stored = bounded(move || secret_service::stored(&wanted))?;
    Ok(first_token(&accounts, &stored))
}

/// The first of `accounts` with a token stored (one that cannot be read is passed over).
fn first_token(
    accounts: &[String],
    stored: &HashMap<String, Result<String, String>>,
) -> Option<String> {
    accounts
        .iter()
        .filter_map(|account| stored.get(account)?.as_ref().ok())
        .map(|token| token.trim())
        .find(|token| !token.is_empty())
        .map(str::to_owned)
}

/// Keeps the GitHub token signed in at `hosts`, for that address only. A github.com sign-in
/// replaces the token kept the old way.
pub fn set_github_token(hosts: &Hosts, token: &str) -> Result<(), SecretError> {
    set_secret(&github_account(hosts), token.trim())?;
    if hosts.is_github_com() {
        clear_api_key(COPILOT)?;
    }
    Ok(())
}

/// Signs out of `hosts`: its GitHub token is removed (for github.com, the one kept the old
/// way too). Other addresses' sign-ins stay.
pub fn clear_github_token(hosts: &Hosts) -> Result<(), SecretError> {
    for account in github_accounts(hosts) {
        clear_api_key(&account)?;
    }
    Ok(())
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
    fn a_github_token_is_kept_per_address_and_the_old_one_is_only_github_coms() {
        let github = Hosts::github();
        let tenant = Hosts::new("https://octo.ghe.com").unwrap();
        let local = Hosts::new("http://127.0.0.1:4010").unwrap();
        assert_eq!(github_account(&github), "copilot@https://github.com");
        assert_eq!(github_account(&tenant), "copilot@https://octo.ghe.com");
        assert_eq!(github_account(&local), "copilot@http://127.0.0.1:4010");
        assert_eq!(
            github_accounts(&github),
            ["copilot@https://github.com", "copilot"]
        );
        assert_eq!(github_accounts(&tenant), ["copilot@https://octo.ghe.com"]);
        assert_eq!(github_accounts(&local), ["copilot@http://127.0.0.1:4010"]);

        let stored: HashMap<String, Result<String, String>> = [
            ("copilot", Ok("gho_FAKE-old-not-real")),
            (
                "copilot@https://octo.ghe.com",
                Ok(" gho_FAKE-octo-not-real\n"),
            ),
            ("copilot@http://127.0.0.1:4010", Err("2 keyring items")),
        ]
        .into_iter()
        .map(|(a, t)| (a.to_owned(), t.map(str::to_owned).map_err(str::to_owned)))
        .collect();
        let token = |hosts: &Hosts| first_token(&github_accounts(hosts), &stored);
        assert_eq!(token(&github).as_deref(), Some("gho_FAKE-old-not-real"));
        assert_eq!(token(&tenant).as_deref(), Some("gho_FAKE-octo-not-real"));
        assert_eq!(token(&local), None, "no other address's token, old or new");
        let mut own = stored.clone();
        own.insert(
            "copilot@https://github.com".into(),
            Ok("gho_FAKE-new-not-real".into()),
        );
        assert_eq!(
            first_token(&github_accounts(&github), &own).as_deref(),
            Some("gho_FAKE-new-not-real"),
            "the address's own comes first"
        );
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
