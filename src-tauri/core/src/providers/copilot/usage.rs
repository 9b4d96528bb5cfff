//! What Copilot says of the account's allowance with each answer: its
//! `x-quota-snapshot-*` headers (premium requests, or the free plan's chats) and
//! `x-usage-ratelimit-*` (session and weekly limits), each a small form-encoded record:
//! `ent` (entitlement, -1 unlimited), `ov` (overage used), `ovPerm` (overage allowed),
//! `rem` (percent remaining) and `rst` (when it resets).

/// The headers read, and what each counts, in the order they are told.
const SNAPSHOTS: [(&str, &str); 5] = [
    ("x-quota-snapshot-premium_models", "premium requests"),
    ("x-quota-snapshot-premium_interactions", "premium requests"),
    ("x-quota-snapshot-chat", "chat messages"),
    ("x-usage-ratelimit-session", "session limit"),
    ("x-usage-ratelimit-weekly", "weekly limit"),
];

/// One snapshot as Copilot sends it.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// How many the plan gives; `None` when unlimited.
    pub entitlement: Option<u64>,
    pub percent_remaining: f64,
    pub overage_used: f64,
    pub overage_permitted: bool,
    /// The day it resets (YYYY-MM-DD), when given.
    pub resets: Option<String>,
}

/// Reads one header's value; `None` when it says nothing usable.
pub fn read(value: &str) -> Option<Snapshot> {
    let mut entitlement = None;
    let mut remaining = None;
    let mut overage_used = 0.0;
    let mut overage_permitted = false;
    let mut resets = None;
    let url = reqwest::Url::parse(&format!("http://quota.invalid/?{value}")).ok()?;
    for (key, value) in url.query_pairs() {
        match key.as_ref() {
            "ent" => entitlement = value.parse::<i64>().ok(),
            "rem" => remaining = value.parse::<f64>().ok().filter(|r| r.is_finite()),
            "ov" => {
                overage_used = value
                    .parse::<f64>()
                    .ok()
                    .filter(|o| o.is_finite())
                    .unwrap_or(0.0)
            }
            "ovPerm" => overage_permitted = value == "true",
            "rst" => resets = value.get(..10).map(str::to_owned),
            _ => {}
        }
    }
    Some(Snapshot {
        entitlement: match entitlement? {
            n if n < 0 => None,
            n => Some(u64::try_from(n).ok()?),
        },
        percent_remaining: remaining?.clamp(0.0, 100.0),
        overage_used,
        overage_permitted,
        resets,
    })
}

/// The lines to show under an answer, from its response's headers.
pub fn notices(headers: &reqwest::header::HeaderMap) -> Vec<String> {
    let mut out = Vec::new();
    let mut told_premium = false;
    for (name, what) in SNAPSHOTS {
        let Some(snapshot) = headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .and_then(read)
        else {
            continue;
        };
        if what == "premium requests" && std::mem::replace(&mut told_premium, true) {
            continue;
        }
        if let Some(line) = describe(what, &snapshot) {
            out.push(line);
        }
    }
    out
}

fn describe(what: &str, s: &Snapshot) -> Option<String> {
    let total = s.entitlement?;
    let left = s.percent_remaining;
    let resets = s
        .resets
        .as_deref()
        .map(|day| format!(", resets {day}"))
        .unwrap_or_default();
    let line = if what.ends_with("limit") {
        format!("GitHub Copilot {what}: {:.0}% used{resets}", 100.0 - left)
    } else if left <= 0.0 && s.overage_permitted {
        format!(
            "GitHub Copilot {what}: the {total} included are used; {} more billed as overage{resets}",
            s.overage_used
        )
    } else {
        format!("GitHub Copilot {what}: {left:.0}% of {total} left{resets}")
    };
    Some(line)
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::{HeaderMap, HeaderValue};

    #[test]
    fn each_snapshot_is_read_and_said() {
        let cases = [
            (
                "x-quota-snapshot-premium_interactions",
                "ent=300&ov=0.0&ovPerm=false&rem=83.5&rst=2025-09-01T00%3A00%3A00Z",
                Some("GitHub Copilot premium requests: 84% of 300 left, resets 2025-09-01"),
            ),
            (
                "x-quota-snapshot-premium_models",
                "ent=300&ov=12.0&ovPerm=true&rem=0&rst=2025-09-01",
                Some(
                    "GitHub Copilot premium requests: the 300 included are used; 12 more billed as overage, resets 2025-09-01",
                ),
            ),
            (
                "x-quota-snapshot-chat",
                "ent=50&ov=0.0&ovPerm=false&rem=10",
                Some("GitHub Copilot chat messages: 10% of 50 left"),
            ),
            (
                "x-usage-ratelimit-weekly",
                "ent=100&ov=0.0&ovPerm=false&rem=25.0&rst=2025-08-25T10%3A00%3A00Z",
                Some("GitHub Copilot weekly limit: 75% used, resets 2025-08-25"),
            ),
            // Unlimited, or nothing readable: nothing said.
            (
                "x-quota-snapshot-premium_interactions",
                "ent=-1&ov=0.0&ovPerm=false&rem=100",
                None,
            ),
            (
                "x-quota-snapshot-premium_interactions",
                "ent=300&rem=NaN",
                None,
            ),
            ("x-quota-snapshot-premium_interactions", "garbage", None),
        ];
        for (name, value, said) in cases {
            let mut headers = HeaderMap::new();
            headers.insert(name, HeaderValue::from_str(value).unwrap());
            assert_eq!(
                notices(&headers).first().map(String::as_str),
                said,
                "{value}"
            );
        }
    }

    #[test]
    fn premium_requests_are_told_once() {
        let mut headers = HeaderMap::new();
        for name in [
            "x-quota-snapshot-premium_models",
            "x-quota-snapshot-premium_interactions",
        ] {
            headers.insert(
                name,
                HeaderValue::from_static("ent=300&ov=0.0&ovPerm=false&rem=50"),
            );
        }
        assert_eq!(notices(&headers).len(), 1);
    }
}
