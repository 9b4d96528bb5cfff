//! Many keys read in one Secret Service session.
//!
//! The items are the ones `keyring::Entry` writes (attributes `service` = Ponder's identifier,
//! `username` = the provider, `target` = `default`), found the way it finds them: first by all
//! three in every collection, then, for a provider with none, by service and username in the
//! default collection (items stored without a target: keyring 1, or by hand with
//! `secret-tool`). Locked items are unlocked together, so a locked keyring asks once.

use std::collections::HashMap;

use super::SecretError;
use crate::paths::APP_IDENTIFIER;

/// What the keyring holds for each of `wanted` that has something stored: its secret, or why
/// it could not be read.
#[cfg(target_os = "linux")]
pub(super) fn stored(
    wanted: &[String],
) -> Result<HashMap<String, Result<String, String>>, SecretError> {
    use dbus_secret_service::{EncryptionType, Item, SecretService};

    let ss = SecretService::connect(EncryptionType::Dh).map_err(unavailable)?;
    let search = ss
        .search_items(HashMap::from([
            ("service", APP_IDENTIFIER),
            ("target", "default"),
        ]))
        .map_err(unavailable)?;
    let items = (search.unlocked.into_iter().map(|item| (item, false)))
        .chain(search.locked.into_iter().map(|item| (item, true)));
    let mut found = by_provider(items, wanted);
    // Its items borrow it: it lives as long as they do.
    let default = wanted
        .iter()
        .any(|id| !found.contains_key(id))
        .then(|| ss.get_default_collection().ok())
        .flatten();
    if let Some(default) = &default {
        let locked = default.is_locked().unwrap_or(true);
        let items = default
            .search_items(HashMap::from([("service", APP_IDENTIFIER)]))
            .map_err(unavailable)?;
        for (id, items) in by_provider(items.into_iter().map(|item| (item, locked)), wanted) {
            found.entry(id).or_insert(items);
        }
    }
    let locked: Vec<&Item<'_>> = found
        .values()
        .flatten()
        .filter(|(_, locked)| *locked)
        .map(|(item, _)| item)
        .collect();
    if !locked.is_empty() {
        ss.unlock_all(&locked).map_err(unavailable)?;
    }
    Ok(found
        .into_iter()
        .map(|(user, items)| {
            let secret = match items.as_slice() {
                [(item, _)] => item
                    .get_secret()
                    .map_err(|e| e.to_string())
                    .and_then(|bytes| {
                        String::from_utf8(bytes).map_err(|_| "its secret is not text".to_owned())
                    }),
                more => Err(format!(
                    "{} keyring items are stored for it; remove all but one",
                    more.len()
                )),
            };
            (user, secret)
        })
        .collect())
}

/// The items of each wanted provider (their `username`), each with whether it is locked.
#[cfg(target_os = "linux")]
fn by_provider<'a>(
    items: impl Iterator<Item = (dbus_secret_service::Item<'a>, bool)>,
    wanted: &[String],
) -> HashMap<String, Vec<(dbus_secret_service::Item<'a>, bool)>> {
    let mut found: HashMap<String, Vec<_>> = HashMap::new();
    for (item, locked) in items {
        let user = item
            .get_attributes()
            .ok()
            .and_then(|mut a| a.remove("username"));
        if let Some(user) = user.filter(|u| wanted.contains(u)) {
            found.entry(user).or_default().push((item, locked));
        }
    }
    found
}

/// Elsewhere the platform's store is asked once per provider.
#[cfg(not(target_os = "linux"))]
pub(super) fn stored(
    wanted: &[String],
) -> Result<HashMap<String, Result<String, String>>, SecretError> {
    let mut found = HashMap::new();
    for id in wanted {
        let entry = keyring::Entry::new(APP_IDENTIFIER, id).map_err(unavailable)?;
        match entry.get_password() {
            Ok(key) => {
                found.insert(id.clone(), Ok(key));
            }
            Err(keyring::Error::NoEntry) => {}
            Err(e) => {
                found.insert(id.clone(), Err(e.to_string()));
            }
        }
    }
    Ok(found)
}

/// Whether the keyring answers. No secret is read, so the session needs no key exchange.
#[cfg(target_os = "linux")]
pub(super) fn reachable() -> Result<(), SecretError> {
    use dbus_secret_service::{EncryptionType, SecretService};

    let ss = SecretService::connect(EncryptionType::Plain).map_err(unavailable)?;
    ss.search_items(HashMap::from([("service", APP_IDENTIFIER)]))
        .map(|_| ())
        .map_err(unavailable)
}

#[cfg(not(target_os = "linux"))]
pub(super) fn reachable() -> Result<(), SecretError> {
    match keyring::Entry::new(APP_IDENTIFIER, "ponder-probe").and_then(|entry| entry.get_password())
    {
        Ok(_) | Err(keyring::Error::NoEntry) => Ok(()),
        Err(e) => Err(unavailable(e)),
    }
}

fn unavailable(err: impl std::fmt::Display) -> SecretError {
    SecretError::Unavailable(err.to_string())
}
