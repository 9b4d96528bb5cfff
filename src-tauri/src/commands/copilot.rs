//! Signing in to GitHub Copilot: GitHub's device flow, with the code shown in the window and
//! the waiting done here. The GitHub token goes to the keyring and nowhere else; the UI only
//! hears that the account is signed in.

use ponder_core::providers::copilot::device::{self, Waiting};
use ponder_core::providers::copilot::{CopilotError, Hosts, Session, hosts_for};
use ponder_core::providers::http::HttpConfig;
use ponder_core::sync::Locked;
use serde::Serialize;
use tauri::ipc::Channel;
use tauri::{AppHandle, Manager, State};
use tokio_util::sync::CancellationToken;

use crate::error::IpcError;
use crate::ipc::ProviderView;
use crate::state::AppState;

/// The provider the device flow signs in to.
const PROVIDER: &str = ponder_core::providers::copilot::error::PROVIDER;

/// The code to enter on GitHub, and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct DeviceCodeView {
    pub user_code: String,
    pub verification_uri: String,
    #[cfg_attr(test, ts(type = "number"))]
    pub expires_in_secs: u64,
}

/// What the waiting window hears, until `signedIn` or `failed` ends it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[cfg_attr(test, derive(ts_rs::TS))]
pub enum SignInEvent {
    /// The next check is this far off.
    Waiting {
        #[cfg_attr(test, ts(type = "number"))]
        next_in_secs: u64,
    },
    /// GitHub asked Ponder to check less often.
    SlowedDown {
        #[cfg_attr(test, ts(type = "number"))]
        interval_secs: u64,
    },
    SignedIn {
        provider: ProviderView,
    },
    Failed {
        error: IpcError,
    },
}

/// Starts GitHub's device flow and returns the code to show; the wait for the user goes on
/// in a task that reports to `on_event`. A sign-in already waiting is stopped first.
#[tauri::command]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub async fn copilot_sign_in(
    app: AppHandle,
    state: State<'_, AppState>,
    on_event: Channel<SignInEvent>,
) -> Result<DeviceCodeView, IpcError> {
    let settings = crate::settings::load(&app)?;
    let hosts = hosts_for(settings.base_url(PROVIDER))?;
    let code = device::request_code(&state.client, &hosts).await?;
    let cancel = CancellationToken::new();
    if let Some(previous) = state.sign_in.locked().replace(cancel.clone()) {
        previous.cancel();
    }
    let view = DeviceCodeView {
        user_code: code.user_code.clone(),
        verification_uri: code.verification_uri.clone(),
        expires_in_secs: code.expires_in.as_secs(),
    };
    let client = state.client.clone();
    tauri::async_runtime::spawn(async move {
        let waited = device::wait_for_token(&client, &hosts, &code, &cancel, |wait| {
            let _ = on_event.send(match wait {
                Waiting::Polling { next_in } => SignInEvent::Waiting {
                    next_in_secs: next_in.as_secs(),
                },
                Waiting::SlowedDown { interval } => SignInEvent::SlowedDown {
                    interval_secs: interval.as_secs(),
                },
            });
        })
        .await;
        if matches!(waited, Err(CopilotError::Cancelled)) {
            return;
        }
        let state = app.state::<AppState>();
        // This sign-in is over: nothing is left to stop. (One that was superseded leaves the
        // newer one's token in place.)
        if !cancel.is_cancelled() {
            state.sign_in.locked().take();
        }
        let event = match finish(&app, &state, &client, hosts, &cancel, waited).await {
            Ok(provider) => SignInEvent::SignedIn { provider },
            Err(error) => SignInEvent::Failed { error },
        };
        let _ = on_event.send(event);
    });
    Ok(view)
}

/// Keeps the GitHub token for the address the sign-in started at (whatever the settings
/// say by now), and checks, with a first exchange, that the account has Copilot: a sign-in
/// that cannot be used is not kept. A newer sign-in stops the check.
async fn finish(
    app: &AppHandle,
    state: &AppState,
    client: &reqwest::Client,
    hosts: Hosts,
    cancel: &CancellationToken,
    waited: Result<String, CopilotError>,
) -> Result<ProviderView, IpcError> {
    let token = waited?;
    let settings = crate::settings::load(app)?;
    let http = HttpConfig {
        idle_timeout: settings.stall_timeout(),
        ..state.http.clone()
    };
    state.copilot.forget();
    let checked =
        Session::start(&state.copilot, client, hosts.clone(), &token, &http, cancel).await;
    if let Err(err) = checked {
        state.copilot.forget();
        return Err(err.into());
    }
    let account = ponder_core::secrets::github_account(&hosts);
    tokio::task::spawn_blocking(move || ponder_core::secrets::set_github_token(&hosts, &token))
        .await
        .map_err(|e| IpcError::new(crate::error::IpcErrorCode::Internal, e.to_string()))??;
    state.note_key(&account, true);
    let catalog = settings.catalog();
    let entry = catalog.provider(PROVIDER)?;
    Ok(super::secrets::provider_view(entry, &settings, state))
}

/// Stops a sign-in that is waiting for its code.
#[tauri::command(async)]
#[tracing::instrument(skip_all)]
pub fn copilot_cancel_sign_in(state: State<'_, AppState>) {
    if let Some(waiting) = state.sign_in.locked().take() {
        waiting.cancel();
    }
}
