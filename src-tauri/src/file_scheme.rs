//! The `ponder-file` scheme: how the window draws attached images without carrying them
//! through the command channel as base64. A URL names a size and a hash
//! (`ponder-file://localhost/thumb%2F<sha256>`); only images in Ponder's own store are
//! answered, so a URL can name no other file, and a PDF or an SVG is never drawn.

use std::borrow::Cow;

use ponder_core::attachments::shown::Size;
use tauri::http::{Request, Response, StatusCode, header};
use tauri::{Manager, Runtime, UriSchemeContext, UriSchemeResponder};

use crate::state::AppState;

pub const SCHEME: &str = "ponder-file";

/// What a URL's path asks for: `thumb/<sha256>` or `full/<sha256>`, percent-encoded or not.
fn asked(path: &str) -> Option<(Size, String)> {
    let path = percent_encoding::percent_decode_str(path.trim_start_matches('/'))
        .decode_utf8()
        .ok()?;
    let (size, sha256) = path.split_once('/')?;
    let size = match size {
        "thumb" => Size::Thumb,
        "full" => Size::Full,
        _ => return None,
    };
    Some((size, sha256.to_owned()))
}

fn status(code: StatusCode) -> Response<Cow<'static, [u8]>> {
    Response::builder()
        .status(code)
        .body(Cow::Borrowed(&[][..]))
        .expect("a bare status is a valid response")
}

/// How many images are read (and, once each, shrunk) at a time: a thread of a hundred photos
/// must not decode a hundred at once, each up to hundreds of megabytes of pixels.
static READING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

/// Answers one request, off the thread that asked: reading (and, once, shrinking) an image
/// takes longer than a frame.
pub fn handle<R: Runtime>(
    ctx: UriSchemeContext<'_, R>,
    request: Request<Vec<u8>>,
    responder: UriSchemeResponder,
) {
    let app = ctx.app_handle().clone();
    tauri::async_runtime::spawn(async move {
        let _turn = READING.acquire().await;
        let response = tauri::async_runtime::spawn_blocking(move || answer(&app, &request))
            .await
            .unwrap_or_else(|_| status(StatusCode::INTERNAL_SERVER_ERROR));
        responder.respond(response);
    });
}

fn answer<R: Runtime>(
    app: &tauri::AppHandle<R>,
    request: &Request<Vec<u8>>,
) -> Response<Cow<'static, [u8]>> {
    if request.method() != tauri::http::Method::GET {
        return status(StatusCode::METHOD_NOT_ALLOWED);
    }
    let Some((size, sha256)) = asked(request.uri().path()) else {
        return status(StatusCode::NOT_FOUND);
    };
    let Some(files) = app
        .try_state::<AppState>()
        .and_then(|state| state.store().ok())
        .and_then(|store| store.attachments().cloned())
    else {
        return status(StatusCode::NOT_FOUND);
    };
    match files.shown(&sha256, size) {
        Ok(Some(shown)) => Response::builder()
            .header(header::CONTENT_TYPE, shown.kind.media_type())
            .header(header::X_CONTENT_TYPE_OPTIONS, "nosniff")
            // Named by its content: what a URL names never changes.
            .header(header::CACHE_CONTROL, "max-age=31536000, immutable")
            .body(Cow::Owned(shown.bytes))
            .unwrap_or_else(|_| status(StatusCode::INTERNAL_SERVER_ERROR)),
        Ok(None) => status(StatusCode::NOT_FOUND),
        Err(err) => {
            tracing::warn!(%err, "an attached image could not be shown");
            status(StatusCode::UNPROCESSABLE_ENTITY)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_names_a_size_and_a_hash_and_nothing_else() {
        let sha = "a".repeat(64);
        assert_eq!(
            asked(&format!("/thumb%2F{sha}")),
            Some((Size::Thumb, sha.clone()))
        );
        assert_eq!(
            asked(&format!("/full/{sha}")),
            Some((Size::Full, sha.clone()))
        );
        assert_eq!(asked(&format!("/large/{sha}")), None);
        assert_eq!(asked("/thumb"), None);
        // A path that climbs out is still only a "hash" the store refuses to look up.
        assert_eq!(
            asked("/full%2F..%2F..%2Fetc%2Fpasswd"),
            Some((Size::Full, "../../etc/passwd".to_owned()))
        );
    }
}
