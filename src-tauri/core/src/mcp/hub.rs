//! The servers of one Ponder process: each started on first use, kept while Ponder runs,
//! started again once if it dies, and stopped on quit.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;
use serde_json::{Map, Value};

use super::{CallOutput, Connection, McpError, ServerConfig, ServerTool};
use crate::sync::Locked;

/// Where a server's secret values come from (the keyring in the app and the CLI).
pub type SecretSource =
    Arc<dyn Fn(&ServerConfig) -> Result<BTreeMap<String, String>, McpError> + Send + Sync>;

/// What the user sees of a server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum ServerState {
    /// Not started yet (it starts when a conversation needs it), or switched off.
    Stopped,
    Starting,
    Connected {
        tools: Vec<String>,
    },
    Failed {
        reason: String,
        stderr: Vec<String>,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ServerStatus {
    pub id: String,
    pub state: ServerState,
}

enum Life {
    Idle,
    Running(Arc<Connection>),
    Failed(McpError),
}

struct Slot {
    config: ServerConfig,
    life: tokio::sync::Mutex<Life>,
    /// Set while a start is under way, for the status (the lock above is held meanwhile).
    starting: std::sync::atomic::AtomicBool,
    /// A server that died is started again once; dying again leaves it failed.
    restarted: std::sync::atomic::AtomicBool,
}

pub struct Hub {
    slots: Mutex<BTreeMap<String, Arc<Slot>>>,
    secrets: SecretSource,
    start_deadline: Duration,
}

impl std::fmt::Debug for Hub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hub").finish_non_exhaustive()
    }
}

/// How long a server may take to start and list its tools (npx may download first).
pub const START_DEADLINE: Duration = Duration::from_secs(60);

impl Hub {
    pub fn new(secrets: SecretSource, start_deadline: Duration) -> Self {
        Self {
            slots: Mutex::new(BTreeMap::new()),
            secrets,
            start_deadline,
        }
    }

    fn slots(&self) -> std::sync::MutexGuard<'_, BTreeMap<String, Arc<Slot>>> {
        self.slots.locked()
    }

    /// Takes the user's list of servers: servers that were removed, switched off or changed
    /// are stopped; the others keep running. The list takes effect at once; the returned
    /// future stops the servers that left it (await it, or run it in the background).
    pub fn configure(
        &self,
        configs: &[ServerConfig],
    ) -> impl std::future::Future<Output = ()> + Send + 'static {
        let mut stopped = Vec::new();
        {
            let mut slots = self.slots();
            let wanted: BTreeMap<&str, &ServerConfig> =
                configs.iter().map(|c| (c.id.as_str(), c)).collect();
            slots.retain(|id, slot| {
                let keep = wanted
                    .get(id.as_str())
                    .is_some_and(|c| **c == slot.config && c.enabled);
                if !keep {
                    stopped.push(slot.clone());
                }
                keep
            });
            for config in configs.iter().filter(|c| c.enabled) {
                slots.entry(config.id.clone()).or_insert_with(|| {
                    Arc::new(Slot {
                        config: config.clone(),
                        life: tokio::sync::Mutex::new(Life::Idle),
                        starting: false.into(),
                        restarted: false.into(),
                    })
                });
            }
        }
        async move {
            for slot in stopped {
                stop(&slot).await;
            }
        }
    }

    /// The running connection to a server, started if it is not.
    pub async fn connection(&self, id: &str) -> Result<Arc<Connection>, McpError> {
        let slot = self
            .slots()
            .get(id)
            .cloned()
            .ok_or_else(|| McpError::UnknownServer(id.to_owned()))?;
        let mut life = slot.life.lock().await;
        if let Life::Running(connection) = &*life {
            if !connection.is_closed() {
                return Ok(connection.clone());
            }
            if slot
                .restarted
                .swap(true, std::sync::atomic::Ordering::SeqCst)
            {
                let error = McpError::Closed("it stopped again after being restarted".into())
                    .with_stderr(connection.stderr().lines());
                *life = Life::Failed(error.clone());
                return Err(error);
            }
        }
        if let Life::Failed(error) = &*life
            && !matches!(error, McpError::Closed(_))
        {
            // A server that could not start is tried again only when asked to (Test, or
            // the user changing its settings): starting it on every call would stall turns.
            return Err(error.clone());
        }
        slot.starting
            .store(true, std::sync::atomic::Ordering::SeqCst);
        let opened = match (self.secrets)(&slot.config) {
            Ok(secrets) => Connection::open(&slot.config, &secrets, self.start_deadline).await,
            Err(error) => Err(error),
        };
        slot.starting
            .store(false, std::sync::atomic::Ordering::SeqCst);
        match opened {
            Ok(connection) => {
                let connection = Arc::new(connection);
                *life = Life::Running(connection.clone());
                Ok(connection)
            }
            Err(error) => {
                *life = Life::Failed(error.clone());
                Err(error)
            }
        }
    }

    /// The tools of a server that is running now, without starting it or waiting for it:
    /// `None` when it is not running (or busy starting).
    pub fn running_tools(&self, id: &str) -> Option<Vec<ServerTool>> {
        let slot = self.slots().get(id).cloned()?;
        let life = slot.life.try_lock().ok()?;
        match &*life {
            Life::Running(connection) if !connection.is_closed() => {
                Some(connection.tools().to_vec())
            }
            _ => None,
        }
    }

    /// Tries a server afresh: stops it, starts it and lists its tools.
    pub async fn restart(&self, id: &str) -> Result<Vec<ServerTool>, McpError> {
        let slot = self
            .slots()
            .get(id)
            .cloned()
            .ok_or_else(|| McpError::UnknownServer(id.to_owned()))?;
        stop(&slot).await;
        slot.restarted
            .store(false, std::sync::atomic::Ordering::SeqCst);
        Ok(self.connection(id).await?.tools().to_vec())
    }

    /// Calls a tool of a server, starting the server if needed.
    pub async fn call(
        &self,
        id: &str,
        tool: &str,
        arguments: Map<String, Value>,
        deadline: Duration,
    ) -> Result<CallOutput, McpError> {
        let connection = self.connection(id).await?;
        connection.call(tool, arguments, deadline).await
    }

    /// Where each server stands, in id order.
    pub fn status(&self) -> Vec<ServerStatus> {
        let slots: Vec<Arc<Slot>> = self.slots().values().cloned().collect();
        slots
            .iter()
            .map(|slot| ServerStatus {
                id: slot.config.id.clone(),
                state: state_of(slot),
            })
            .collect()
    }

    /// Stops every server; returns when they are gone.
    pub async fn stop_all(&self) {
        let slots: Vec<Arc<Slot>> = std::mem::take(&mut *self.slots()).into_values().collect();
        let mut stopping = tokio::task::JoinSet::new();
        for slot in slots {
            stopping.spawn(async move { stop(&slot).await });
        }
        while stopping.join_next().await.is_some() {}
    }
}

fn state_of(slot: &Slot) -> ServerState {
    if slot.starting.load(std::sync::atomic::Ordering::SeqCst) {
        return ServerState::Starting;
    }
    let Ok(life) = slot.life.try_lock() else {
        return ServerState::Starting;
    };
    match &*life {
        Life::Idle => ServerState::Stopped,
        Life::Running(connection) if connection.is_closed() => ServerState::Failed {
            reason: "the server stopped".into(),
            stderr: connection.stderr().lines(),
        },
        Life::Running(connection) => ServerState::Connected {
            tools: connection.tools().iter().map(|t| t.name.clone()).collect(),
        },
        Life::Failed(error) => failed(error),
    }
}

fn failed(error: &McpError) -> ServerState {
    match error {
        McpError::WithStderr { error, stderr } => ServerState::Failed {
            reason: error.to_string(),
            stderr: stderr.lines().map(str::to_owned).collect(),
        },
        other => ServerState::Failed {
            reason: other.to_string(),
            stderr: Vec::new(),
        },
    }
}

async fn stop(slot: &Slot) {
    let mut life = slot.life.lock().await;
    if let Life::Running(connection) = std::mem::replace(&mut *life, Life::Idle) {
        match Arc::try_unwrap(connection) {
            Ok(connection) => connection.close().await,
            // A call still holds it: it is stopped when that call lets go.
            Err(shared) => shared.cancel(),
        }
    }
}
