//! A turn's whole life as one object, which the desktop app and the command line both drive:
//! `prepare` (the model, the key, the conversation) → `authorize` (a signed-in provider's
//! short-lived key) → `with_tools` (what the turn offers, and which servers could not start)
//! → `run` (the stored turn, with one terminal outcome). Each face keeps only its own I/O:
//! the window's batches and approval cards, the terminal's printing and prompts.

use std::sync::Arc;

use tokio_util::sync::CancellationToken;

use super::{
    Ask, Outcome, RecordError, RecordOptions, RecordedEvent, RunEvent, Runner, SetupError,
    TurnSetup, run_recorded_with_tools, setup,
};
use crate::catalog::Catalog;
use crate::mcp::{Hub, ServerConfig};
use crate::providers::copilot::{self, CopilotError, TokenCache};
use crate::providers::http::HttpConfig;
use crate::reasoning::overrides::Overrides;
use crate::store::Store;
use crate::tools::{Approver, Limits, McpTools, ToolChoice, ToolHost, Toolbox};

/// One turn, from what the user asked to its stored outcome.
#[derive(Debug)]
pub struct Session {
    turn: TurnSetup,
    signed_in: Option<SignedIn>,
    tools: Option<Offered>,
    /// Why a server's tools are missing; said under the answer once it has started.
    unavailable: Vec<String>,
}

/// A signed-in provider's key for this turn, and where a new one comes from.
#[derive(Debug)]
struct SignedIn {
    session: copilot::Session,
    tokens: Arc<TokenCache>,
}

/// The tools a turn offers, on the servers that started.
struct Offered {
    hub: Arc<Hub>,
    toolbox: Toolbox,
    limits: Limits,
}

impl std::fmt::Debug for Offered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Offered")
            .field("tools", &self.toolbox.specs().len())
            .field("limits", &self.limits)
            .finish_non_exhaustive()
    }
}

impl Session {
    /// Checks everything the turn needs — the message, the model, its key, the place in the
    /// conversation — then finds or starts the conversation. Nothing of the turn is stored
    /// yet, so a refusal here loses nothing.
    pub fn prepare(
        store: &Store,
        catalog: &Catalog,
        overrides: &Overrides,
        ask: Ask<'_>,
    ) -> Result<Self, SetupError> {
        Ok(Self {
            turn: setup(store, catalog, overrides, ask)?,
            signed_in: None,
            tools: None,
            unavailable: Vec::new(),
        })
    }

    /// The turn as set up: its model, conversation, settings and level.
    pub fn turn(&self) -> &TurnSetup {
        &self.turn
    }

    /// For a provider one signs in to (Copilot): the GitHub token signed in at the turn's
    /// address is exchanged for the provider's key (or the last exchange reused) before
    /// anything is stored, so that a sign-in that no longer works is said at once and the
    /// question kept. The exchange keeps to the stall timeout and `cancel` stops it. Other
    /// providers have nothing to do here.
    pub async fn authorize(
        &mut self,
        tokens: &Arc<TokenCache>,
        client: &reqwest::Client,
        http: &HttpConfig,
        cancel: &CancellationToken,
    ) -> Result<(), CopilotError> {
        if !self.turn.signs_in() {
            return Ok(());
        }
        let hosts = copilot::hosts_for(self.turn.sign_in_at())?;
        let github_token = self.turn.api_key.as_deref().unwrap_or_default();
        let session =
            copilot::Session::start(tokens, client, hosts, github_token, http, cancel).await?;
        self.signed_in = Some(SignedIn {
            session,
            tokens: tokens.clone(),
        });
        Ok(())
    }

    /// Offers the tools `choice` switches on, of those `servers` that start (each starts
    /// once per hub). A server that cannot start is named under the answer, and the turn goes
    /// on with the others.
    pub async fn with_tools(
        &mut self,
        hub: &Arc<Hub>,
        servers: &[ServerConfig],
        choice: &ToolChoice,
        limits: Limits,
    ) {
        let mut offered = Vec::new();
        for server in servers.iter().filter(|s| choice.servers.contains(&s.id)) {
            match hub.connection(&server.id).await {
                Ok(connection) => offered.extend(
                    connection
                        .tools()
                        .iter()
                        .filter(|t| choice.offers(&server.id, &t.name))
                        .cloned()
                        .map(|t| (server.id.clone(), t)),
                ),
                Err(e) => self
                    .unavailable
                    .push(format!("{}'s tools are not available: {e}", server.name)),
            }
        }
        self.tools = (!offered.is_empty()).then(|| Offered {
            hub: hub.clone(),
            toolbox: Toolbox::new(offered),
            limits,
        });
    }

    /// What `with_tools` could not offer, one line a server.
    pub fn unavailable(&self) -> &[String] {
        &self.unavailable
    }

    /// Runs the turn into the history: the question and the answer's row are stored as it
    /// starts, the answer is saved as it streams, each call the model makes waits for
    /// `approver`, and the one terminal outcome is on disk before `on_event` hears it.
    pub async fn run(
        self,
        runner: Runner<'_>,
        approver: &dyn Approver,
        mut options: RecordOptions,
        cancel: CancellationToken,
        mut on_event: impl FnMut(RecordedEvent<'_>) + Send,
    ) -> Result<(String, Outcome), RecordError> {
        let Self {
            turn,
            signed_in,
            tools,
            mut unavailable,
        } = self;
        let renewer = signed_in.as_ref().map(|s| {
            s.session
                .renewer(&s.tokens, runner.client, runner.http, &cancel)
        });
        let mut request = turn.request();
        if let (Some(signed_in), Some(renewer)) = (&signed_in, &renewer) {
            let credentials = &signed_in.session.credentials;
            request.api_key = Some(&credentials.token);
            request.base_url = Some(&credentials.api_base);
            request.renew_key = Some(renewer);
        }
        let hub;
        let host = match tools {
            Some(offered) => {
                hub = offered.hub;
                options.max_steps = offered.limits.max_steps;
                Some(McpTools {
                    hub: &hub,
                    toolbox: offered.toolbox,
                    approver,
                    limits: offered.limits,
                })
            }
            None => None,
        };
        run_recorded_with_tools(
            runner,
            &turn.conversation.id,
            turn.question(),
            request,
            host.as_ref().map(|h| h as &dyn ToolHost),
            options,
            cancel,
            |event| {
                let started = matches!(event, RecordedEvent::Started { .. });
                on_event(event);
                if started {
                    for text in unavailable.drain(..) {
                        on_event(RecordedEvent::Run(RunEvent::Notice(text)));
                    }
                }
            },
        )
        .await
    }
}
