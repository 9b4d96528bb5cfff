//! `ponder-cli login copilot`: GitHub's device flow in the terminal. The code is printed, the
//! user enters it on GitHub, and the GitHub token goes to the system keyring (where the
//! desktop app finds it too) once the account is known to have Copilot.

use crate::terminal::inert;
use std::io::Write;

use clap::{Args, ValueEnum};
use ponder_core::providers::copilot::device::{self, Waiting};
use ponder_core::providers::copilot::{CopilotError, Session, TokenCache, hosts_for};
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

pub fn login(args: LoginArgs, settings: &crate::settings::AppSettings) -> anyhow::Result<()> {
    let Service::Copilot = args.service;
    let address = args.github_url.as_deref().or(settings.base_url(PROVIDER));
    let hosts = hosts_for(address).map_err(|e| Usage(e.to_string()))?;
    if args.logout {
        ponder_core::secrets::clear_github_token(&hosts)?;
        eprintln!(
            "Signed out of GitHub Copilot at {}: its GitHub token is gone from the keyring.",
            hosts.web()
        );
        return Ok(());
    }
    let config = HttpConfig::default();
    let client = http::client(&config)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let token = runtime.block_on(async {
        let code = device::request_code(&client, &hosts).await?;
        let mut err = std::io::stderr().lock();
        // Both come from the server: shown as text, never as terminal sequences.
        writeln!(
            err,
            "Open {} and enter the code:",
            inert(&code.verification_uri)
        )?;
        writeln!(err)?;
        writeln!(err, "    {}", inert(&code.user_code))?;
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
        .map_err(sign_in_failed)?;
        // Only a sign-in that can use Copilot is kept, and only for the address it was made
        // at.
        Session::start(
            &TokenCache::new(),
            &client,
            hosts.clone(),
            &token,
            &config,
            &cancel,
        )
        .await
        .map_err(sign_in_failed)?;
        anyhow::Ok(token)
    })?;
    ponder_core::secrets::set_github_token(&hosts, &token)?;
    eprintln!(
        "Signed in to GitHub Copilot at {}. The GitHub token is in the system keyring.",
        hosts.web()
    );
    Ok(())
}

/// Ctrl+C is an interruption; anything else, what the user must do.
fn sign_in_failed(error: CopilotError) -> anyhow::Error {
    match error {
        CopilotError::Cancelled => Interrupted("the sign-in was stopped".into()).into(),
        other => Usage(other.to_string()).into(),
    }
}
