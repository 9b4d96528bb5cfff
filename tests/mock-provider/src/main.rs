//! `ponder-mock-provider`: serve recorded replies until killed — the `--first` ones to the
//! first requests, in order, then one reply to every request after.

use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use clap::Parser;
use ponder_mock_provider::{MockProvider, Reply, copilot};

/// A loopback HTTP server that plays an LLM provider: it serves the same recorded reply to
/// every request, with the faults asked for, until killed. Prints
/// `listening on http://127.0.0.1:PORT` once bound.
#[derive(Parser, Debug)]
#[command(name = "ponder-mock-provider", version)]
struct Args {
    /// Port on 127.0.0.1 (0 = any free port; read it from the first line of output).
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// The reply: a .sse, .jsonl (served as SSE), .ndjson, .json or .eventstream file.
    /// Relative paths not found from here are looked up under tests/fixtures/real.
    #[arg(long, required_unless_present = "copilot")]
    fixture: Option<PathBuf>,
    /// Play GitHub and the Copilot API instead: the device flow (approved after
    /// `--copilot-pending-polls` polls), the token exchange, the model list, and the
    /// recorded streams on `/chat/completions` and `/responses`.
    #[arg(long)]
    copilot: bool,
    #[arg(long, default_value_t = 2)]
    copilot_pending_polls: usize,
    /// How the sign-in ends: approve, deny or expire.
    #[arg(long, default_value = "approve")]
    copilot_sign_in: String,
    /// The device code's polling interval, in seconds.
    #[arg(long, default_value_t = 1)]
    copilot_interval: u64,
    /// How long each Copilot token is good for, in seconds.
    #[arg(long, default_value_t = 1800)]
    copilot_token_lifetime: u64,
    /// The token exchange refuses the GitHub token (401, revoked).
    #[arg(long)]
    copilot_revoked: bool,
    /// The first N chat or responses calls answer 401 (the Copilot token expired).
    #[arg(long, default_value_t = 0)]
    copilot_expire_api_calls: usize,
    /// Replies for the first POST requests, in order, before `--fixture` answers the rest
    /// (repeatable; a tool loop: the tool call first, then the answer). Each is served as
    /// recorded, with `--chunk-size` and `--delay-ms`.
    #[arg(long = "first", value_name = "FIXTURE")]
    first: Vec<PathBuf>,
    /// Send the body in pieces of this many bytes (each its own HTTP chunk for streams).
    #[arg(long)]
    chunk_size: Option<usize>,
    /// Send this many bytes of the body as its first piece, then `--chunk-size` pieces.
    #[arg(long, default_value_t = 0)]
    burst_bytes: usize,
    /// Milliseconds to wait between two pieces.
    #[arg(long, default_value_t = 0)]
    delay_ms: u64,
    /// HTTP status (default 200).
    #[arg(long)]
    status: Option<u16>,
    /// Close the connection after this many body bytes.
    #[arg(long)]
    cut_after: Option<usize>,
    /// Go silent after this many body bytes, keeping the connection open.
    #[arg(long)]
    stall_after: Option<usize>,
    /// Insert a malformed line after this many SSE events (or NDJSON lines).
    #[arg(long)]
    malformed_after: Option<usize>,
    /// Append `data: [DONE]` to an SSE body (for .jsonl Chat Completions fixtures).
    #[arg(long)]
    done: bool,
    /// Extra response header, `NAME: VALUE` (repeatable).
    #[arg(long = "header", value_name = "NAME: VALUE")]
    headers: Vec<String>,
    /// Append each request as one JSON line {method,path,query,headers,body} to this file.
    #[arg(long)]
    record: Option<PathBuf>,
}

fn copilot_script(args: &Args) -> anyhow::Result<copilot::Script> {
    let sign_in = match args.copilot_sign_in.as_str() {
        "approve" => copilot::SignIn::Approve,
        "deny" => copilot::SignIn::Deny,
        "expire" => copilot::SignIn::Expire,
        other => anyhow::bail!("--copilot-sign-in {other:?}: expected approve, deny or expire"),
    };
    Ok(copilot::Script {
        pending_polls: args.copilot_pending_polls,
        sign_in,
        interval: args.copilot_interval,
        token_lifetime: Duration::from_secs(args.copilot_token_lifetime),
        revoked: args.copilot_revoked,
        expire_api_calls: args.copilot_expire_api_calls,
        chunk_size: args.chunk_size,
        delay: Duration::from_millis(args.delay_ms),
        ..copilot::Script::default()
    })
}

fn build_reply(args: &Args, fixture: &std::path::Path) -> anyhow::Result<Reply> {
    let mut reply = Reply::fixture(fixture)?;
    if let Some(status) = args.status {
        reply = reply.status(status);
    }
    if let Some(size) = args.chunk_size {
        reply = reply.chunk_size(size);
    }
    if args.delay_ms > 0 {
        reply = reply.delay(Duration::from_millis(args.delay_ms));
    }
    if args.burst_bytes > 0 {
        reply = reply.burst(args.burst_bytes);
    }
    if let Some(n) = args.cut_after {
        reply = reply.cut_after(n);
    }
    if let Some(n) = args.stall_after {
        reply = reply.stall_after(n);
    }
    if let Some(n) = args.malformed_after {
        reply = reply.malformed_line_after(n);
    }
    if args.done {
        reply = reply.with_done();
    }
    for header in &args.headers {
        let Some((name, value)) = header.split_once(':') else {
            anyhow::bail!("--header {header:?}: expected `NAME: VALUE`");
        };
        reply = reply.header(name.trim(), value.trim());
    }
    Ok(reply)
}

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let args = Args::parse();
    let mock = MockProvider::start_on(args.port).await?;
    if args.copilot {
        mock.serve_copilot(copilot_script(&args)?);
    }
    if let Some(fixture) = &args.fixture {
        mock.set_default(build_reply(&args, fixture)?);
    }
    for path in &args.first {
        let mut first = Reply::fixture(path)?;
        if let Some(size) = args.chunk_size {
            first = first.chunk_size(size);
        }
        if args.delay_ms > 0 {
            first = first.delay(Duration::from_millis(args.delay_ms));
        }
        mock.push_for_post(first);
    }

    if let Some(path) = &args.record {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| anyhow::anyhow!("opening --record {}: {e}", path.display()))?;
        let file = Mutex::new(file);
        mock.on_request(move |request| {
            let mut line = request.to_json().to_string();
            line.push('\n');
            let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
            if let Err(e) = file.write_all(line.as_bytes()).and_then(|()| file.flush()) {
                eprintln!("ponder-mock-provider: writing the record file: {e}");
            }
        });
    }

    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "listening on {}", mock.url())?;
    stdout.flush()?;
    drop(stdout);

    std::future::pending::<()>().await;
    Ok(())
}
