//! What can go wrong signing in to Copilot and getting its token, in the words the user
//! reads: each says what happened and what to do.

use crate::providers::error::{ErrorKind, ProviderError};

pub const PROVIDER: &str = "copilot";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CopilotError {
    #[error(
        "not signed in to GitHub Copilot: sign in with GitHub in Settings → Providers → GitHub Copilot, or run `ponder-cli login copilot`"
    )]
    NotSignedIn,
    #[error(
        "GitHub no longer accepts Ponder's sign-in (it was revoked or has expired): sign in to GitHub Copilot again"
    )]
    SignInRevoked,
    #[error("this GitHub account cannot use Copilot: {0}")]
    NoCopilot(String),
    #[error("the code was not entered on GitHub in time: start the sign-in again")]
    CodeExpired,
    #[error("the sign-in was declined on GitHub: start it again to connect Copilot")]
    Denied,
    #[error(
        "this GitHub host does not allow signing in with a code (device flow is disabled): ask its administrator"
    )]
    DeviceFlowDisabled,
    #[error("GitHub refused the sign-in ({code}): {description}")]
    Refused { code: String, description: String },
    /// Stopped (Stop, Ctrl+C, quitting) while GitHub or Copilot was being waited for.
    #[error("stopped while waiting for GitHub")]
    Cancelled,
    #[error(transparent)]
    BadHost(#[from] super::hosts::BadHost),
    #[error(transparent)]
    BadEndpoint(#[from] super::hosts::BadEndpoint),
    #[error(transparent)]
    Http(#[from] ProviderError),
}

impl CopilotError {
    /// The same failure as a provider error, for a turn or a model list to report.
    pub fn into_provider_error(self) -> ProviderError {
        match self {
            Self::Http(error) => error,
            other => ProviderError::new(PROVIDER, ErrorKind::Auth, other.to_string()),
        }
    }
}
