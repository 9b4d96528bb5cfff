//! What a provider accepts of attached files (`limits.json`, from each provider's own
//! documentation), and the checks that refuse a file before anything is sent.

use std::collections::HashMap;
use std::sync::OnceLock;

use serde::Deserialize;

use super::Kind;

/// One provider's documented limits; `None` where it documents none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Limits {
    /// The long edge past which the provider scales an image down itself: Ponder sends a
    /// copy this size instead, which costs the same tokens and less time.
    pub image_long_edge: Option<u32>,
    pub image_max_side: Option<u32>,
    pub image_max_bytes: Option<u64>,
    pub image_max_base64_bytes: Option<u64>,
    pub images_per_request: Option<u32>,
    pub image_bytes_per_request: Option<u64>,
    pub pdf_pages_per_request: Option<u32>,
    pub request_max_bytes: Option<u64>,
    /// Whether the API has a place for a PDF at all (Ollama's has none).
    pub takes_pdfs: Option<bool>,
    #[serde(default)]
    pub sources: Vec<String>,
}

#[derive(Deserialize)]
struct LimitsFile {
    providers: HashMap<String, Limits>,
}

fn all() -> &'static HashMap<String, Limits> {
    static ALL: OnceLock<HashMap<String, Limits>> = OnceLock::new();
    ALL.get_or_init(|| {
        serde_json::from_str::<LimitsFile>(include_str!("limits.json"))
            .expect("the embedded limits.json is valid (a unit test checks)")
            .providers
    })
}

/// The limits of a provider by its catalog id; none for one that documents none (a local
/// server: there the only limit is Ponder's own cap on a file).
pub fn of(provider: &str) -> Limits {
    all().get(provider).cloned().unwrap_or_default()
}

/// A file as it will be sent, for the checks.
#[derive(Debug, Clone, Copy)]
pub struct Sent<'a> {
    pub name: &'a str,
    pub kind: Kind,
    pub bytes: u64,
    pub pages: Option<u32>,
    /// The long edge of an image as sent.
    pub long_edge: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum OverLimit {
    #[error("{name} is {size} as sent; {provider} takes images of at most {max}")]
    ImageBytes {
        name: String,
        provider: String,
        size: String,
        max: String,
    },
    #[error(
        "{name} is {side} pixels on its long side; {provider} takes images of at most {max} pixels a side"
    )]
    ImageSide {
        name: String,
        provider: String,
        side: u32,
        max: u32,
    },
    #[error(
        "this request would hold {count} images; {provider} takes at most {max} in one request"
    )]
    Images {
        provider: String,
        count: usize,
        max: u32,
    },
    #[error(
        "this request would hold {pages} PDF pages; {provider} takes at most {max} in one request"
    )]
    Pages {
        provider: String,
        pages: u32,
        max: u32,
    },
    #[error(
        "this request would be {size} with its files; {provider} takes requests of at most {max}"
    )]
    Request {
        provider: String,
        size: String,
        max: String,
    },
}

/// Base64's size for `bytes` bytes.
pub fn base64_len(bytes: u64) -> u64 {
    bytes.div_ceil(3) * 4
}

/// Megabytes as providers write them (10^6 bytes), one decimal.
fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1_000_000.0)
}

impl Limits {
    /// The first limit `files` break in one request to `provider` (named for the message), or
    /// none. `other_bytes` is the rest of the request (the words and the history's text).
    pub fn check(
        &self,
        provider: &str,
        files: &[Sent<'_>],
        other_bytes: u64,
    ) -> Result<(), OverLimit> {
        let provider = provider.to_owned();
        let mut images = 0usize;
        let mut image_bytes = 0u64;
        let mut pages = 0u32;
        let mut total = other_bytes;
        for file in files {
            let sent = if file.kind == Kind::Text {
                file.bytes
            } else {
                base64_len(file.bytes)
            };
            total += sent;
            if file.kind.is_image() {
                images += 1;
                image_bytes += file.bytes;
                let too_big = |max: u64, size: u64| OverLimit::ImageBytes {
                    name: file.name.to_owned(),
                    provider: provider.clone(),
                    size: mb(size),
                    max: mb(max),
                };
                if let Some(max) = self.image_max_bytes.filter(|max| file.bytes > *max) {
                    return Err(too_big(max, file.bytes));
                }
                if let Some(max) = self.image_max_base64_bytes.filter(|max| sent > *max) {
                    return Err(too_big(max, sent));
                }
                if let (Some(max), Some(side)) = (self.image_max_side, file.long_edge)
                    && side > max
                {
                    return Err(OverLimit::ImageSide {
                        name: file.name.to_owned(),
                        provider,
                        side,
                        max,
                    });
                }
            }
            if file.kind == Kind::Pdf {
                pages += file.pages.unwrap_or(0);
            }
        }
        if let Some(max) = self.images_per_request.filter(|max| images > *max as usize) {
            return Err(OverLimit::Images {
                provider,
                count: images,
                max,
            });
        }
        if let Some(max) = self
            .image_bytes_per_request
            .filter(|max| image_bytes > *max)
        {
            return Err(OverLimit::Request {
                provider,
                size: mb(image_bytes),
                max: mb(max),
            });
        }
        if let Some(max) = self.pdf_pages_per_request.filter(|max| pages > *max) {
            return Err(OverLimit::Pages {
                provider,
                pages,
                max,
            });
        }
        if let Some(max) = self.request_max_bytes.filter(|max| total > *max) {
            return Err(OverLimit::Request {
                provider,
                size: mb(total),
                max: mb(max),
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(name: &str, bytes: u64, long_edge: u32) -> Sent<'_> {
        Sent {
            name,
            kind: Kind::Png,
            bytes,
            pages: None,
            long_edge: Some(long_edge),
        }
    }

    fn pdf(name: &str, bytes: u64, pages: u32) -> Sent<'_> {
        Sent {
            name,
            kind: Kind::Pdf,
            bytes,
            pages: Some(pages),
            long_edge: None,
        }
    }

    #[test]
    fn every_provider_entry_reads_and_names_its_source() {
        assert!(!all().is_empty());
        for (id, limits) in all() {
            assert!(!limits.sources.is_empty(), "{id} names no source");
            assert!(
                crate::catalog::Catalog::builtin().provider(id).is_ok(),
                "{id} is not a provider of the catalog"
            );
        }
        assert_eq!(of("anthropic").image_long_edge, Some(1568));
        assert_eq!(of("ollama").takes_pdfs, Some(false));
        assert_eq!(of("vllm"), Limits::default());
    }

    #[test]
    fn a_file_over_a_documented_limit_is_refused_naming_the_limit() {
        let anthropic = of("anthropic");
        let cases: Vec<(Vec<Sent<'_>>, Option<&str>)> = vec![
            (vec![image("a.png", 1_000_000, 1568)], None),
            (
                vec![image("a.png", 4_000_000, 1568)],
                Some("a.png is 5.3 MB as sent; anthropic takes images of at most 5.2 MB"),
            ),
            (
                vec![image("tall.png", 100_000, 9000)],
                Some(
                    "tall.png is 9000 pixels on its long side; anthropic takes images of at most 8000 pixels a side",
                ),
            ),
            (
                (0..101).map(|_| image("i.png", 1000, 100)).collect(),
                Some(
                    "this request would hold 101 images; anthropic takes at most 100 in one request",
                ),
            ),
            (
                vec![pdf("a.pdf", 1000, 60), pdf("b.pdf", 1000, 41)],
                Some(
                    "this request would hold 101 PDF pages; anthropic takes at most 100 in one request",
                ),
            ),
            (
                vec![pdf("big.pdf", 24_000_000, 10)],
                Some(
                    "this request would be 32.0 MB with its files; anthropic takes requests of at most 32.0 MB",
                ),
            ),
        ];
        for (files, want) in cases {
            let got = anthropic
                .check("anthropic", &files, 1000)
                .err()
                .map(|e| e.to_string());
            assert_eq!(got.as_deref(), want);
        }
        // Where nothing is documented, nothing is refused here.
        assert!(
            of("ollama")
                .check("ollama", &[pdf("big.pdf", 90_000_000, 5000)], 0)
                .is_ok()
        );
    }
}
