//! MCP servers the tests run: real ones from the npm registry (installed by `./.ci/test`) and
//! commands of the tests' own.

use std::collections::BTreeMap;
use std::future::Future;
use std::path::PathBuf;
use std::pin::Pin;

use ponder_core::mcp::{ServerConfig, Transport};
use ponder_core::tools::{ApprovalRequest, Approver, Decision};

/// Allows every call once, as a user who clicks Allow on each card.
pub struct AllowEveryCall;

impl Approver for AllowEveryCall {
    fn approve<'a>(
        &'a self,
        _: &'a ApprovalRequest,
    ) -> Pin<Box<dyn Future<Output = Decision> + Send + 'a>> {
        Box::pin(async { Decision::AllowOnce })
    }
}

/// A server started as `command args…` with `env` set, named after its id.
pub fn stdio(id: &str, command: &str, args: &[&str], env: &[(&str, &str)]) -> ServerConfig {
    ServerConfig {
        id: id.into(),
        name: id.into(),
        enabled: true,
        transport: Transport::Stdio {
            command: command.into(),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            env: env
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect::<BTreeMap<_, _>>(),
            secret_env: Vec::new(),
            cwd: None,
        },
    }
}

/// A Node.js server from its script, over stdio.
pub fn node_server(id: &str, script: &std::path::Path) -> ServerConfig {
    assert!(
        script.exists(),
        "`./.ci/test` installs the MCP servers the tests use: {} is missing",
        script.display()
    );
    stdio(id, "node", &[&script.display().to_string(), "stdio"], &[])
}

/// The reference "everything" server of the MCP project (echo, add, get-env, …).
pub fn everything_js() -> PathBuf {
    crate::workspace_root()
        .join("tests/node_modules/@modelcontextprotocol/server-everything/dist/index.js")
}

pub fn everything() -> ServerConfig {
    node_server("everything", &everything_js())
}
