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
    kind: Kind,
}

/// Whose hosts these are: what decides where the token exchange may send the Copilot token.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    GitHub,
    /// A GitHub Enterprise Cloud tenant: `octo.ghe.com`.
    Tenant(String),
    /// A server on this machine that plays GitHub and Copilot (a test, a proxy).
    Local,
}

/// The GitHub token is only ever sent to the address it was signed in at, so the address
/// itself is held to the few that are GitHub: a page or a settings file that names another
/// could otherwise have a new sign-in (or a turn) send the token there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{0:?} is not a GitHub address Ponder signs in at: it takes https://github.com, a GitHub Enterprise Cloud address such as https://octo.ghe.com, or a server on this machine (http://127.0.0.1:PORT)"
)]
pub struct BadHost(pub String);

/// The token exchange named a Copilot API that is not Copilot's: the Copilot token is not
/// sent there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "GitHub's token exchange named {0:?} as the Copilot API, which is not a Copilot address (https, under githubcopilot.com or the Enterprise tenant's own): Ponder does not send the token there"
)]
pub struct BadEndpoint(pub String);

impl Hosts {
    /// The hosts of a GitHub address. GitHub's API lives at `api.` + its host; a loopback
    /// address serves everything itself.
    pub fn new(address: &str) -> Result<Self, BadHost> {
        let bad = || BadHost(address.to_owned());
        let trimmed = address.trim();
        let with_scheme = if trimmed.contains("://") {
            trimmed.to_owned()
        } else {
            format!("https://{trimmed}")
        };
        let url = reqwest::Url::parse(&with_scheme).map_err(|_| bad())?;
        if !is_bare_origin(&url) {
            return Err(bad());
        }
        let kind = if is_loopback(&url) {
            Kind::Local
        } else {
            // Beyond this machine the token travels only encrypted, to GitHub's own names
            // at their own port.
            let domain = url
                .domain()
                .filter(|_| url.scheme() == "https" && url.port().is_none());
            match domain {
                Some("github.com") => Kind::GitHub,
                Some(domain) => match domain.strip_suffix(".ghe.com") {
                    Some(tenant) if is_label(tenant) => Kind::Tenant(domain.to_owned()),
                    _ => return Err(bad()),
                },
                None => return Err(bad()),
            }
        };
        let web = url.origin().ascii_serialization();
        let api = match &kind {
            Kind::Local => web.clone(),
            Kind::GitHub => "https://api.github.com".to_owned(),
            Kind::Tenant(domain) => format!("https://api.{domain}"),
        };
        Ok(Self { web, api, kind })
    }

    pub fn github() -> Self {
        Self::new(GITHUB).expect("github.com is a GitHub address")
    }

    /// `https://github.com`.
    pub fn web(&self) -> &str {
        &self.web
    }

    /// Whether this is github.com itself (not an Enterprise tenant or a local server).
    pub fn is_github_com(&self) -> bool {
        self.kind == Kind::GitHub
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
        match self.kind {
            Kind::GitHub => "https://api.githubcopilot.com".to_owned(),
            _ => self.api.clone(),
        }
    }

    /// The Copilot API the token exchange named, if the Copilot token may go there: https
    /// under `githubcopilot.com`, or under the Enterprise tenant's own name; for a sign-in on
    /// this machine, this machine too. The Copilot token is a bearer token like any other:
    /// an exchange answer that could name any host would hand it to whoever the answer says.
    pub fn copilot_api(&self, named: &str) -> Result<String, BadEndpoint> {
        let bad = || BadEndpoint(named.to_owned());
        let url = reqwest::Url::parse(named.trim()).map_err(|_| bad())?;
        if !is_bare_origin(&url) {
            return Err(bad());
        }
        let accepted = if self.kind == Kind::Local && is_loopback(&url) {
            true
        } else {
            let domain = url
                .domain()
                .filter(|_| url.scheme() == "https" && url.port().is_none());
            domain.is_some_and(|domain| {
                is_under(domain, "githubcopilot.com")
                    || matches!(&self.kind, Kind::Tenant(tenant) if is_under(domain, tenant))
            })
        };
        if accepted {
            Ok(url.origin().ascii_serialization())
        } else {
            Err(bad())
        }
    }
}

/// An address that is only a scheme, a host and maybe a port: no user or password (which
/// would make `https://github.com@evil.com` read as GitHub), no path, query or fragment.
fn is_bare_origin(url: &reqwest::Url) -> bool {
    matches!(url.scheme(), "http" | "https")
        && url.host_str().is_some_and(|h| !h.is_empty())
        && url.username().is_empty()
        && url.password().is_none()
        && url.path().trim_end_matches('/').is_empty()
        && url.query().is_none()
        && url.fragment().is_none()
}

/// A loopback address, or `localhost` itself: not its subdomains, which a resolver may
/// well ask DNS about.
fn is_loopback(url: &reqwest::Url) -> bool {
    if let Some(name) = url.domain() {
        return name == "localhost";
    }
    url.host_str()
        .map(|h| h.trim_start_matches('[').trim_end_matches(']'))
        .and_then(|h| h.parse::<std::net::IpAddr>().ok())
        .is_some_and(|ip| ip.is_loopback())
}

/// One DNS label: what a GitHub Enterprise Cloud tenant's name is.
fn is_label(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 63
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !name.starts_with('-')
        && !name.ends_with('-')
}

/// Whether `domain` is a name under `parent` (not `parent` itself).
fn is_under(domain: &str, parent: &str) -> bool {
    domain
        .strip_suffix(parent)
        .and_then(|head| head.strip_suffix('.'))
        .is_some_and(|head| !head.is_empty() && !head.starts_with('.'))
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
    fn only_github_com_its_enterprise_tenants_and_this_machine_are_github_addresses() {
        let accepted = [
            ("https://github.com", "https://github.com"),
            ("github.com", "https://github.com"),
            ("GitHub.COM/", "https://github.com"),
            ("https://octo.ghe.com", "https://octo.ghe.com"),
            ("OCTO.GHE.COM", "https://octo.ghe.com"),
            ("http://127.0.0.1:4010", "http://127.0.0.1:4010"),
            ("https://127.0.0.1:4010", "https://127.0.0.1:4010"),
            ("http://[::1]:4010", "http://[::1]:4010"),
            ("http://localhost:8080", "http://localhost:8080"),
            // Full-width letters are the same name once mapped (IDNA): github.com itself.
            ("https://\u{ff47}ithub.com", "https://github.com"),
        ];
        for (address, web) in accepted {
            let hosts = Hosts::new(address).unwrap_or_else(|e| panic!("{address:?}: {e}"));
            assert_eq!(hosts.web(), web, "{address:?}");
        }
        let refused = [
            "https://evil.com",
            "http://github.com",
            "http://octo.ghe.com",
            "https://github.com.evil.com",
            "https://evilgithub.com",
            "https://ghe.com",
            "https://.ghe.com",
            "https://a.b.ghe.com",
            "https://octo.ghe.com.evil.com",
            "https://github.com@evil.com",
            "https://user:pass@github.com",
            "https://evil.com#@github.com",
            "https://evil.com?github.com",
            "https://github.com:8443",
            "https://github.com.",
            "https://octo.ghe.com.",
            "https://www.github.com",
            "https://api.github.com",
            // IDN look-alikes are other names.
            "https://g\u{ed}thub.com",
            "https://octo.gh\u{e9}.com",
            "https://192.168.1.10",
            "http://10.0.0.1:4010",
            "http://evil.localhost:4010",
            "http://[::ffff:10.0.0.1]:4010",
        ];
        for address in refused {
            assert!(Hosts::new(address).is_err(), "{address:?} was accepted");
        }
    }

    #[test]
    fn the_copilot_api_may_only_be_copilots_or_the_tenants_own() {
        let github = Hosts::github();
        let tenant = Hosts::new("https://octo.ghe.com").unwrap();
        let local = Hosts::new("http://127.0.0.1:4010").unwrap();
        let cases: [(&Hosts, &str, Option<&str>); 22] = [
            (
                &github,
                "https://api.individual.githubcopilot.com/",
                Some("https://api.individual.githubcopilot.com"),
            ),
            (
                &github,
                "https://API.githubcopilot.com",
                Some("https://api.githubcopilot.com"),
            ),
            (&github, "http://api.githubcopilot.com", None),
            (&github, "https://githubcopilot.com", None),
            (&github, "https://api.githubcopilot.com.evil.com", None),
            (&github, "https://evilgithubcopilot.com", None),
            (&github, "https://api.githubcopilot.com@evil.com", None),
            (&github, "https://api.githubcopilot.com:8443", None),
            (&github, "https://api.githubcopilot.com./", None),
            (&github, "https://api.githubcopilot.com/v1", None),
            (&github, "https://copilot-api.octo.ghe.com", None),
            (&github, "http://127.0.0.1:4010", None),
            (&github, "ftp://api.githubcopilot.com", None),
            (&github, "api.githubcopilot.com", None),
            (
                &tenant,
                "https://copilot-api.octo.ghe.com",
                Some("https://copilot-api.octo.ghe.com"),
            ),
            (
                &tenant,
                "https://api.business.githubcopilot.com",
                Some("https://api.business.githubcopilot.com"),
            ),
            (&tenant, "https://copilot-api.other.ghe.com", None),
            (&tenant, "https://octo.ghe.com.evil.com", None),
            (&tenant, "http://copilot-api.octo.ghe.com", None),
            (
                &local,
                "http://127.0.0.1:4011/",
                Some("http://127.0.0.1:4011"),
            ),
            (&local, "http://10.0.0.1:4010", None),
            (&local, "http://evil.com", None),
        ];
        for (hosts, named, expected) in cases {
            assert_eq!(
                hosts.copilot_api(named).ok().as_deref(),
                expected,
                "{} naming {named:?}",
                hosts.web()
            );
        }
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
