//! `ponder-cli login copilot`: GitHub's device flow in the terminal. The code is printed, the
//! user enters it on GitHub, and the GitHub token goes to the system keyring (where the
//! desktop app finds it too) once the account is known to have Copilot.

use std::io::Write;

use clap::{Args, ValueEnum};
use ponder_core::providers::copilot::device::{self, Waiting};
use ponder_core::providers::copilot::{Session, TokenCache, hosts_for};
use ponder_core::providers::http::{self, HttpConfig};
use tokio_util::sync::CancellationToken;

use crate::{Interrupted, Usage};

#[derive(Debug, Args)]
pub struct LoginArgs {
    /// What to sign in to.
    pub(crate) service: Service,
    /// The GitHub address (GitHub Enterprise); github.com without it, or the desktop app's.
    #[arg(long, value_name = "URL")]
    pub(crate) github_url: Option<String>,
    /// Sign out instead: remove the GitHub token from the keyring.
    #[arg(long)]
    pub(crate) logout: bool,
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum Service {
    Copilot,
}

const PROVIDER: &str = ponder_core::providers::copilot::error::PROVIDER;

pub fn login(args: LoginArgs, settings: &crate::chat::AppSettings) -> anyhow::Result<()> {
    let Service::Copilot = args.service;
    if args.logout {
        ponder_core::secrets::clear_api_key(PROVIDER)?;
        eprintln!("Signed out of GitHub Copilot: the GitHub token is gone from the keyring.");
        return Ok(());
    }
    let address = args
        .github_url
        .as_deref()
        .or(settings.base_url(PROVIDER))
        .map(str::to_owned);
    let hosts = hosts_for(address.as_deref()).map_err(|e| Usage(e.to_string()))?;
    let client = http::client(&HttpConfig::default())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let token = runtime.block_on(async {
        let code = device::request_code(&client, &hosts).await?;
        let mut err = std::io::stderr().lock();
        writeln!(err, "Open {} and enter the code:", code.verification_uri)?;
        writeln!(err)?;
        writeln!(err, "    {}", code.user_code)?;
        writeln!(err)?;
        writeln!(
            err,
            "Waiting for GitHub (the code expires in {} minutes; Ctrl+C stops)…",
            code.expires_in.as_secs().div_ceil(60)
        )?;
        drop(err);
        let cancel = CancellationToken::new();
        let stop = cancel.clone();
        tokio::spawn(async move {
            if tokio::signal::ctrl_c().await.is_ok() {
                stop.cancel();
            }
        });
        let token = device::wait_for_token(&client, &hosts, &code, &cancel, |wait| {
            if let Waiting::SlowedDown { interval } = wait {
                eprintln!(
                    "GitHub asked to check less often: every {} s now.",
                    interval.as_secs()
                );
            }
        })
        .await
        .map_err(|e| match e {
            ponder_core::providers::copilot::CopilotError::Cancelled => {
                anyhow::Error::from(Interrupted("the sign-in was stopped".into()))
            }
            other => anyhow::Error::from(Usage(other.to_string())),
        })?;
        // Only a sign-in that can use Copilot is kept.
        Session::start(&TokenCache::new(), &client, address.as_deref(), &token)
            .await
            .map_err(|e| Usage(e.to_string()))?;
        anyhow::Ok(token)
    })?;
    ponder_core::secrets::set_api_key(PROVIDER, &token)?;
    eprintln!("Signed in to GitHub Copilot. The GitHub token is in the system keyring.");
    Ok(())
}
