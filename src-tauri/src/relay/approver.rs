//! Asking the window before a tool runs: the approval card's event goes out in order with
//! the run's other events, and the call waits for `answer_tool_call` (or for the run to be
//! stopped, which denies it). Answers that reach further are remembered where they belong:
//! "for this conversation" in the conversation's settings, "always" in the app's settings.

use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};

use ponder_core::sync::Locked;
use ponder_core::tools::{ApprovalRequest, Approver, Decision, Permissions};
use tauri::{AppHandle, Manager};
use tokio_util::sync::CancellationToken;

use super::batch::Batch;
use crate::ipc::StreamEvent;
use crate::settings::Settings;
use crate::state::AppState;

pub struct WindowApprover {
    app: AppHandle,
    run_id: String,
    conversation_id: String,
    batch: Arc<Mutex<Batch>>,
    cancel: CancellationToken,
    permissions: Mutex<Permissions>,
}

impl WindowApprover {
    /// Asks in the window of `app` for the run `run_id`, remembering answers for the
    /// conversation; what is already allowed (always, or in this conversation) is not asked.
    pub fn new(
        app: &AppHandle,
        run: &super::Run,
        turn: &ponder_core::run::TurnSetup,
        batch: Arc<Mutex<Batch>>,
        settings: &Settings,
    ) -> Self {
        Self {
            app: app.clone(),
            run_id: run.id.clone(),
            conversation_id: turn.conversation.id.clone(),
            batch,
            cancel: run.cancel.clone(),
            permissions: Mutex::new(Permissions {
                always: settings.always_allowed_tools.iter().cloned().collect(),
                conversation: turn.settings.tools.allowed.iter().cloned().collect(),
            }),
        }
    }
}

impl Approver for WindowApprover {
    fn approve<'a>(
        &'a self,
        request: &'a ApprovalRequest,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>> {
        Box::pin(async move {
            if self
                .permissions
                .locked()
                .allowed(&request.server, &request.tool)
            {
                return Decision::AllowOnce;
            }
            let (tx, rx) = tokio::sync::oneshot::channel();
            let state = self.app.state::<AppState>();
            state
                .approvals
                .locked()
                .insert((self.run_id.clone(), request.call_id.clone()), tx);
            self.batch.locked().push_event(StreamEvent::ApprovalNeeded {
                call_id: request.call_id.clone(),
                server: request.server.clone(),
                tool: request.tool.clone(),
                arguments: serde_json::to_string_pretty(&request.arguments).unwrap_or_default(),
            });
            let decision = tokio::select! {
                answer = rx => answer.unwrap_or(Decision::Deny),
                () = self.cancel.cancelled() => Decision::Deny,
            };
            state
                .approvals
                .locked()
                .remove(&(self.run_id.clone(), request.call_id.clone()));
            // "Always" reaches past this conversation: the user confirms it in a native
            // dialog, which a script in the page cannot answer. Without that, the call still
            // runs this once, as the click asked.
            let decision = if decision == Decision::AlwaysAllow {
                let app = self.app.clone();
                let consent = crate::consent::Consent::RunUnasked {
                    tool: Permissions::key(&request.server, &request.tool),
                };
                let allowed = tauri::async_runtime::spawn_blocking(move || {
                    crate::consent::ask(&app, &[consent])
                })
                .await
                .unwrap_or(false);
                if allowed {
                    Decision::AlwaysAllow
                } else {
                    Decision::AllowOnce
                }
            } else {
                decision
            };
            self.remember(request, decision);
            decision
        })
    }
}

impl WindowApprover {
    fn remember(&self, request: &ApprovalRequest, decision: Decision) {
        self.permissions
            .locked()
            .remember(&request.server, &request.tool, decision);
        let key = Permissions::key(&request.server, &request.tool);
        match decision {
            Decision::AllowConversation => {
                // A failed write costs only the asking again next time.
                let state = self.app.state::<AppState>();
                if let Ok(store) = state.store()
                    && let Ok(conversation) = store.conversation(&self.conversation_id)
                {
                    let mut settings = conversation.settings;
                    if !settings.tools.allowed.contains(&key) {
                        settings.tools.allowed.push(key);
                        let _ = store.set_conversation_settings(&self.conversation_id, &settings);
                    }
                }
            }
            // Confirmed in `approve` already.
            Decision::AlwaysAllow => {
                if let Ok(settings) = crate::settings::load(&self.app) {
                    let mut always = settings.always_allowed_tools;
                    if !always.contains(&key) {
                        always.push(key);
                        let _ = crate::settings::update(
                            &self.app,
                            &serde_json::json!({ "alwaysAllowedTools": always }),
                        );
                    }
                }
            }
            Decision::AllowOnce | Decision::Deny => {}
        }
    }
}
