//! Accepting connections and writing replies, byte for byte.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinSet;

use crate::reply::{Ending, Reply, is_sse};
use crate::request::{ReadError, Reader, RecordedRequest};
use crate::{IO_TIMEOUT, Shared};

/// Resolves once shutdown was asked for (or the handle is gone).
async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|stop| *stop).await;
}

pub(crate) async fn accept_loop(
    listener: TcpListener,
    shared: Arc<Shared>,
    mut stop: watch::Receiver<bool>,
) {
    let mut connections = JoinSet::new();
    loop {
        tokio::select! {
            () = stopped(&mut stop) => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => {
                    let shared = shared.clone();
                    shared.open.fetch_add(1, Ordering::SeqCst);
                    let mut stop = stop.clone();
                    connections.spawn(async move {
                        let counted = shared.clone();
                        tokio::select! {
                            () = serve(stream, shared) => {}
                            () = stopped(&mut stop) => {}
                        }
                        counted.open.fetch_sub(1, Ordering::SeqCst);
                    });
                }
                // Out of file descriptors and the like: do not spin.
                Err(_) => tokio::time::sleep(Duration::from_millis(20)).await,
            },
            Some(_) = connections.join_next(), if !connections.is_empty() => {}
        }
    }
    drop(listener);
    while connections.join_next().await.is_some() {}
}

async fn write(stream: &mut TcpStream, bytes: &[u8]) -> std::io::Result<()> {
    tokio::time::timeout(IO_TIMEOUT, async {
        stream.write_all(bytes).await?;
        stream.flush().await
    })
    .await
    .map_err(|_| std::io::Error::from(std::io::ErrorKind::TimedOut))?
}

async fn serve(stream: TcpStream, shared: Arc<Shared>) {
    let _ = stream.set_nodelay(true);
    let mut reader = Reader::new(stream, IO_TIMEOUT);
    let request = match read_request(&mut reader).await {
        Ok(request) => request,
        Err(ReadError::Io) => return,
        Err(ReadError::Bad(status, message)) => {
            let mut stream = reader.into_inner();
            let reply = error_reply(status, "mock_provider_bad_request", &message);
            let _ = send(&mut stream, &reply, &shared).await;
            return;
        }
    };
    let what = format!("{} {}", request.method, request.path);
    let reply = shared.take_reply(request);
    let mut stream = reader.into_inner();
    match reply {
        Some(reply) if reply.refuse => {
            // A zero linger turns the close into a reset, like a dying proxy.
            let _ = stream.set_zero_linger();
            drop(stream);
        }
        Some(reply) => {
            let _ = send(&mut stream, &reply, &shared).await;
        }
        None => {
            let message = format!(
                "ponder-mock-provider: no reply was queued for {what} (push a Reply or set a default)"
            );
            let reply = error_reply(404, "mock_provider_no_reply", &message);
            let _ = send(&mut stream, &reply, &shared).await;
        }
    }
}

async fn read_request(reader: &mut Reader<TcpStream>) -> Result<RecordedRequest, ReadError> {
    let mut request = reader.head().await?;
    let expects_continue = request
        .header("expect")
        .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"));
    if expects_continue && reader.body_pending(&request) {
        write(reader.get_mut(), b"HTTP/1.1 100 Continue\r\n\r\n").await?;
    }
    reader.body(&mut request).await?;
    Ok(request)
}

fn error_reply(status: u16, kind: &str, message: &str) -> Reply {
    Reply::json(
        status,
        serde_json::json!({"error": {"type": kind, "message": message}}),
    )
}

/// Writes the reply: head, body pieces with the configured delay, then the configured ending.
async fn send(stream: &mut TcpStream, reply: &Reply, shared: &Shared) -> std::io::Result<()> {
    let body = reply.served_body();
    let chunked = reply.is_chunked();
    let ending = reply.ending();

    let mut head = format!("HTTP/1.1 {} {}\r\n", reply.status, reason(reply.status));
    if !reply.content_type.is_empty() {
        head.push_str(&format!("content-type: {}\r\n", reply.content_type));
    }
    if chunked {
        head.push_str("transfer-encoding: chunked\r\n");
    } else {
        head.push_str(&format!("content-length: {}\r\n", body.len()));
    }
    head.push_str("connection: close\r\n");
    if is_sse(&reply.content_type) {
        head.push_str("cache-control: no-cache\r\n");
    }
    for (name, value) in &reply.headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    write(stream, head.as_bytes()).await?;

    let limit = match ending {
        Ending::Complete => body.len(),
        Ending::Cut(n) | Ending::Stall(n) => n.min(body.len()),
    };
    let piece_size = reply.chunk_size.unwrap_or(body.len()).max(1);
    let burst = reply.burst.min(limit);
    let pieces = (burst > 0)
        .then(|| &body[..burst])
        .into_iter()
        .chain(body[burst..limit].chunks(piece_size));
    for (i, piece) in pieces.enumerate() {
        if i > 0 && !reply.delay.is_zero() {
            tokio::time::sleep(reply.delay).await;
        }
        if chunked {
            let mut frame = format!("{:x}\r\n", piece.len()).into_bytes();
            frame.extend_from_slice(piece);
            frame.extend_from_slice(b"\r\n");
            write(stream, &frame).await?;
        } else {
            write(stream, piece).await?;
        }
        shared.piece_sent(piece.len());
    }

    match ending {
        Ending::Complete => {
            if chunked {
                write(stream, b"0\r\n\r\n").await?;
            }
            let _ = stream.shutdown().await;
        }
        Ending::Cut(_) => {
            let _ = stream.shutdown().await;
        }
        Ending::Stall(_) => {
            // Silent until the client goes away (EOF or error) or the timeout; shutdown of the
            // server drops this future, and with it the socket.
            let _ = tokio::time::timeout(IO_TIMEOUT, async {
                let mut sink = [0u8; 1024];
                while let Ok(n) = stream.read(&mut sink).await {
                    if n == 0 {
                        break;
                    }
                }
            })
            .await;
        }
    }
    Ok(())
}

fn reason(status: u16) -> &'static str {
    match status {
        100 => "Continue",
        200 => "OK",
        201 => "Created",
        202 => "Accepted",
        204 => "No Content",
        301 => "Moved Permanently",
        302 => "Found",
        304 => "Not Modified",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        401 => "Unauthorized",
        402 => "Payment Required",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        413 => "Content Too Large",
        422 => "Unprocessable Content",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        499 => "Client Closed Request",
        500 => "Internal Server Error",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        504 => "Gateway Timeout",
        505 => "HTTP Version Not Supported",
        529 => "Overloaded",
        _ => "Status",
    }
}
