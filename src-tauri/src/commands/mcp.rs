//! MCP servers for the window: where each stands, testing one, the tools of each, their
//! secrets (to the keyring only), and the user's answer to a waiting tool call.

use serde::Serialize;
use tauri::{AppHandle, State};

use ponder_core::mcp::{ServerConfig, ServerStatus, ServerTool};
use ponder_core::sync::Locked;
use ponder_core::tools::Decision;

use crate::error::{IpcError, IpcErrorCode};
use crate::state::AppState;

/// A tool as the window lists it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ToolInfo {
    pub name: String,
    pub description: String,
}

impl From<&ServerTool> for ToolInfo {
    fn from(tool: &ServerTool) -> Self {
        Self {
            name: tool.name.clone(),
            description: tool.description.clone(),
        }
    }
}

/// A server's tools, or why there are none.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct ServerTools {
    pub id: String,
    pub name: String,
    pub tools: Vec<ToolInfo>,
    pub error: Option<String>,
}

/// Takes the servers of the settings (after a change): removed, switched-off and changed
/// servers stop; the others keep running.
pub fn configure(app: &AppHandle, servers: &[ServerConfig]) {
    let hub = tauri::Manager::state::<AppState>(app).hub.clone();
    // The new list holds at once; stopping a server that left it may take a moment, and
    // nobody needs to wait for that (blocking here, on the async runtime, would stall it).
    tauri::async_runtime::spawn(hub.configure(servers));
}

/// Whether a list of servers can be saved: each reads, is valid, and has an id of its own.
pub fn check_servers(value: &serde_json::Value) -> Result<(), IpcError> {
    let bad = |message: String| IpcError::new(IpcErrorCode::InvalidInput, message);
    let servers: Vec<ServerConfig> = serde_json::from_value(value.clone())
        .map_err(|e| bad(format!("invalid MCP server: {e}")))?;
    let mut ids = std::collections::BTreeSet::new();
    for server in &servers {
        server
            .validate()
            .map_err(|e| bad(format!("{}: {e}", server.name.trim())))?;
        if !ids.insert(server.id.as_str()) {
            return Err(bad(format!("two servers have the id {:?}", server.id)));
        }
    }
    Ok(())
}

#[tauri::command(async)]
#[tracing::instrument(skip_all)]
pub fn mcp_status(state: State<'_, AppState>) -> Vec<ServerStatus> {
    state.hub.status()
}

/// Starts a server afresh and lists its tools (the "Test" button).
#[tauri::command]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub async fn mcp_test(state: State<'_, AppState>, id: String) -> Result<Vec<ToolInfo>, IpcError> {
    let hub = state.hub.clone();
    let tools = hub.restart(&id).await?;
    Ok(tools.iter().map(ToolInfo::from).collect())
}

/// Every switched-on server's tools, starting the servers that are not running.
#[tauri::command]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub async fn mcp_tools(app: AppHandle) -> Result<Vec<ServerTools>, IpcError> {
    let settings = crate::settings::load(&app)?;
    let hub = tauri::Manager::state::<AppState>(&app).hub.clone();
    let mut out = Vec::new();
    for server in settings.mcp_servers.iter().filter(|s| s.enabled) {
        let (tools, error) = match hub.connection(&server.id).await {
            Ok(connection) => (
                connection.tools().iter().map(ToolInfo::from).collect(),
                None,
            ),
            Err(e) => (Vec::new(), Some(e.to_string())),
        };
        out.push(ServerTools {
            id: server.id.clone(),
            name: server.name.clone(),
            tools,
            error,
        });
    }
    Ok(out)
}

/// Stores a server's secret value (an environment value or a header) in the keyring.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn set_mcp_secret(server_id: String, name: String, value: String) -> Result<(), IpcError> {
    let account = ponder_core::mcp::config::secret_account(&server_id, &name);
    ponder_core::secrets::set_secret(&account, &value)?;
    Ok(())
}

#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn clear_mcp_secret(server_id: String, name: String) -> Result<(), IpcError> {
    let account = ponder_core::mcp::config::secret_account(&server_id, &name);
    ponder_core::secrets::clear_secret(&account)?;
    Ok(())
}

/// The user's answer to a tool call waiting on its approval card.
#[tauri::command(async)]
#[tracing::instrument(skip_all, err(level = "warn"))]
pub fn answer_tool_call(
    state: State<'_, AppState>,
    run_id: String,
    call_id: String,
    decision: Decision,
) -> Result<(), IpcError> {
    let waiting = state.approvals.locked().remove(&(run_id, call_id));
    match waiting {
        Some(sender) => {
            // The run may have been stopped meanwhile; then nobody waits for the answer.
            let _ = sender.send(decision);
            Ok(())
        }
        None => Err(IpcError::new(
            IpcErrorCode::NotFound,
            "That tool call is no longer waiting for an answer.",
        )),
    }
}
