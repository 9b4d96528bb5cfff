//! An image a message points at, fetched when the user asks for it ("Load image from …").
//!
//! The window's content security policy lets the page load no image from the network at all,
//! so that nothing in an answer, a thought or an imported file can make a request on its own
//! (and tell a server who reads what, and when). The one way an image arrives is this: the
//! user clicks, the app fetches the address, and the page gets the picture as a `data:` URL.
//! Only `https://` is fetched (plain `http://` to this machine too), redirects only to such
//! addresses, no cookie, referrer or credential is sent, and the answer must be an image of a
//! kind a browser shows, under `MAX_IMAGE_BYTES`.

use std::net::IpAddr;
use std::time::Duration;

use reqwest::Url;

/// The largest image fetched: a photograph is a few MiB; a bigger answer is refused.
pub const MAX_IMAGE_BYTES: usize = 16 * 1024 * 1024;
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);
const TIMEOUT: Duration = Duration::from_secs(60);
const MAX_REDIRECTS: usize = 5;

/// The image types a web view shows in an `<img>`; an SVG there runs no script and loads
/// nothing.
const IMAGE_TYPES: &[&str] = &[
    "image/apng",
    "image/avif",
    "image/bmp",
    "image/gif",
    "image/jpeg",
    "image/png",
    "image/svg+xml",
    "image/vnd.microsoft.icon",
    "image/webp",
    "image/x-icon",
];

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ImageError {
    #[error(
        "Ponder loads images from https:// addresses only (or http:// on this machine), not from “{0}”"
    )]
    Address(String),
    #[error("the image at {url} could not be fetched: {reason}")]
    Network { url: String, reason: String },
    #[error("the server answered {status} for the image at {url}")]
    Status { url: String, status: u16 },
    #[error("{url} is not an image (the server says it is “{content_type}”)")]
    NotAnImage { url: String, content_type: String },
    #[error("the image at {url} is over 16 MiB; Ponder stops reading at that size")]
    TooLarge { url: String },
}

/// Fetches the image at `address` and returns it as a `data:` URL for an `<img>`.
pub async fn fetch_as_data_url(address: &str) -> Result<String, ImageError> {
    let url = allowed(address).ok_or_else(|| ImageError::Address(address.trim().to_owned()))?;
    let network = |e: reqwest::Error| ImageError::Network {
        url: url.to_string(),
        reason: without_url(&e),
    };
    let client = reqwest::Client::builder()
        .connect_timeout(CONNECT_TIMEOUT)
        .timeout(TIMEOUT)
        .redirect(redirect_policy())
        .referer(false)
        .build()
        .map_err(network)?;
    let mut response = client
        .get(url.clone())
        .header(reqwest::header::ACCEPT, "image/*")
        .send()
        .await
        .map_err(network)?;
    let status = response.status();
    if !status.is_success() {
        return Err(ImageError::Status {
            url: url.to_string(),
            status: status.as_u16(),
        });
    }
    let content_type =
        image_type(response.headers()).map_err(|content_type| ImageError::NotAnImage {
            url: url.to_string(),
            content_type,
        })?;
    let too_large = || ImageError::TooLarge {
        url: url.to_string(),
    };
    if response
        .content_length()
        .is_some_and(|n| n > MAX_IMAGE_BYTES as u64)
    {
        return Err(too_large());
    }
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(network)? {
        if bytes.len() + chunk.len() > MAX_IMAGE_BYTES {
            return Err(too_large());
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(format!("data:{content_type};base64,{}", base64(&bytes)))
}

/// The address, when it is one Ponder fetches an image from: `https://` with a host, or
/// `http://` to this machine (a local server, where nothing crosses the network).
fn allowed(address: &str) -> Option<Url> {
    let url = Url::parse(address.trim()).ok()?;
    let fetched = match url.scheme() {
        "https" => url.host().is_some(),
        "http" => is_this_machine(&url),
        _ => false,
    };
    fetched.then_some(url)
}

fn is_this_machine(url: &Url) -> bool {
    let Some(host) = url.host_str() else {
        return false;
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = host.parse::<IpAddr>() {
        return ip.is_loopback();
    }
    host.eq_ignore_ascii_case("localhost")
}

/// A redirect is followed only to an address that would be fetched itself, a few times.
fn redirect_policy() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        if attempt.previous().len() > MAX_REDIRECTS {
            attempt.error("too many redirects")
        } else if allowed(attempt.url().as_str()).is_some() {
            attempt.follow()
        } else {
            let to = attempt.url().to_string();
            attempt.error(format!("it redirects to {to}, which is not https://"))
        }
    })
}

/// The answer's image type, or what it says it is instead.
fn image_type(headers: &reqwest::header::HeaderMap) -> Result<&'static str, String> {
    let said = headers
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_owned();
    let essence = said
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    IMAGE_TYPES
        .iter()
        .copied()
        .find(|t| *t == essence)
        .ok_or(if said.is_empty() {
            "nothing".to_owned()
        } else {
            said
        })
}

/// reqwest's message names the address again; the error already does.
fn without_url(err: &reqwest::Error) -> String {
    use std::error::Error as _;
    let mut reason = err.to_string();
    let mut source = err.source();
    while let Some(inner) = source {
        reason = inner.to_string();
        source = inner.source();
    }
    reason
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
