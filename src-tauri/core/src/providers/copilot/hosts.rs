//! Where GitHub's sign-in and the Copilot token live for a GitHub host: github.com, a GitHub
//! Enterprise Cloud tenant (`https://octo.ghe.com`), or a local server that plays all of it
//! at one address (a test, a proxy).

/// The OAuth app Copilot's own editor extensions sign in with; the token exchange only
/// accepts tokens of the apps Copilot knows.
pub const CLIENT_ID: &str = "Iv1.b507a08c87ecfe98";

/// The GitHub address sign-in goes to when none is configured.
pub const GITHUB: &str = "https://github.com";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hosts {
    /// `https://github.com`, without a trailing slash.
    web: String,
    /// `https://api.github.com`: where the Copilot token is exchanged.
    api: String,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a GitHub address: give one like https://github.com or https://octo.ghe.com")]
pub struct BadHost(pub String);

impl Hosts {
    /// The hosts of a GitHub address. GitHub's API lives at `api.` + its host; a loopback
    /// address serves everything itself.
    pub fn new(address: &str) -> Result<Self, BadHost> {
        let trimmed = address.trim();
        let with_scheme = if trimmed.contains("://") {
            trimmed.to_owned()
        } else {
            format!("https://{trimmed}")
        };
        let url = reqwest::Url::parse(&with_scheme).map_err(|_| BadHost(address.to_owned()))?;
        let host = url
            .host_str()
            .filter(|h| !h.is_empty())
            .ok_or_else(|| BadHost(address.to_owned()))?;
        if !matches!(url.scheme(), "http" | "https") || !url.path().trim_end_matches('/').is_empty()
        {
            return Err(BadHost(address.to_owned()));
        }
        let origin = url.origin().ascii_serialization();
        let api = if is_local(host) {
            origin.clone()
        } else {
            let port = url.port().map(|p| format!(":{p}")).unwrap_or_default();
            let host = host.strip_prefix("www.").unwrap_or(host);
            format!("{}://api.{host}{port}", url.scheme())
        };
        Ok(Self { web: origin, api })
    }

    pub fn github() -> Self {
        Self::new(GITHUB).expect("github.com is a GitHub address")
    }

    /// `https://github.com`.
    pub fn web(&self) -> &str {
        &self.web
    }

    pub fn device_code_url(&self) -> String {
        format!("{}/login/device/code", self.web)
    }

    pub fn access_token_url(&self) -> String {
        format!("{}/login/oauth/access_token", self.web)
    }

    pub fn copilot_token_url(&self) -> String {
        format!("{}/copilot_internal/v2/token", self.api)
    }

    /// The Copilot API when the exchange names none: github.com's own. An Enterprise
    /// tenant's exchange always names its own.
    pub fn default_api(&self) -> String {
        if self.web == GITHUB {
            "https://api.githubcopilot.com".to_owned()
        } else {
            self.api.clone()
        }
    }
}

fn is_local(host: &str) -> bool {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    host.parse::<std::net::IpAddr>()
        .is_ok_and(|ip| ip.is_loopback())
        || host == "localhost"
        || host.ends_with(".localhost")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_address_has_its_sign_in_and_exchange_urls() {
        let cases = [
            (
                "https://github.com",
                "https://github.com/login/device/code",
                "https://api.github.com/copilot_internal/v2/token",
            ),
            (
                "github.com/",
                "https://github.com/login/device/code",
                "https://api.github.com/copilot_internal/v2/token",
            ),
            (
                "https://octo.ghe.com",
                "https://octo.ghe.com/login/device/code",
                "https://api.octo.ghe.com/copilot_internal/v2/token",
            ),
            (
                "http://127.0.0.1:4010",
                "http://127.0.0.1:4010/login/device/code",
                "http://127.0.0.1:4010/copilot_internal/v2/token",
            ),
            (
                "http://localhost:8080/",
                "http://localhost:8080/login/device/code",
                "http://localhost:8080/copilot_internal/v2/token",
            ),
        ];
        for (address, device, exchange) in cases {
            let hosts = Hosts::new(address).unwrap();
            assert_eq!(hosts.device_code_url(), device, "{address}");
            assert_eq!(hosts.copilot_token_url(), exchange, "{address}");
            assert!(
                hosts
                    .access_token_url()
                    .ends_with("/login/oauth/access_token")
            );
        }
        assert_eq!(
            Hosts::github().default_api(),
            "https://api.githubcopilot.com"
        );
    }

    #[test]
    fn what_is_not_a_github_address_is_refused() {
        for address in [
            "",
            "ftp://github.com",
            "https://github.com/login",
            "https://",
        ] {
            assert!(Hosts::new(address).is_err(), "{address:?}");
        }
    }
}
