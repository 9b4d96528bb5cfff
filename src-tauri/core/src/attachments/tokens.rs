//! What an attached file costs in the model's context, estimated the way each provider's
//! documentation counts it, so the context meter and the fitting of a long conversation
//! into the window count images and PDFs too.

use super::Kind;
use crate::catalog::{ModelInfo, Protocol};
use crate::chat::{Attachment, Payload};

/// Anthropic: `width × height / 750` once the image fits 1568 px and about 1,600 tokens
/// (platform.claude.com/docs/en/build-with-claude/vision: 1092 × 1092 is taken as it is).
fn anthropic_image(width: u32, height: u32) -> u64 {
    let (w, h) = fit(width, height, 1568);
    let (w, h) = (f64::from(w), f64::from(h));
    let shrink = (1_200_000.0 / (w * h)).sqrt().min(1.0);
    ((w * shrink) * (h * shrink) / 750.0).ceil() as u64
}

/// OpenAI, high detail: fit 2048 px, then the short side at most 768, then 170 a 512-px tile
/// and 85 more (platform.openai.com/docs/guides/images-vision).
fn openai_image(width: u32, height: u32) -> u64 {
    let (w, h) = fit(width, height, 2048);
    let short = w.min(h);
    let (w, h) = if short > 768 {
        let scale = 768.0 / f64::from(short);
        (
            (f64::from(w) * scale).round() as u32,
            (f64::from(h) * scale).round() as u32,
        )
    } else {
        (w, h)
    };
    85 + 170 * u64::from(w.div_ceil(512)) * u64::from(h.div_ceil(512))
}

/// Gemini: 258 for an image of at most 384 px a side, else 258 a 768-px tile
/// (ai.google.dev/gemini-api/docs/tokens).
fn gemini_image(width: u32, height: u32) -> u64 {
    if width <= 384 && height <= 384 {
        return 258;
    }
    258 * u64::from(width.div_ceil(768)) * u64::from(height.div_ceil(768))
}

/// A size whose long edge is at most `edge`.
fn fit(width: u32, height: u32, edge: u32) -> (u32, u32) {
    let long = width.max(height).max(1);
    if long <= edge {
        return (width, height);
    }
    let scale = f64::from(edge) / f64::from(long);
    (
        (f64::from(width) * scale).round().max(1.0) as u32,
        (f64::from(height) * scale).round().max(1.0) as u32,
    )
}

/// A PDF page: Gemini counts 258 (a page is an image to it); Anthropic says 1,500 to 3,000
/// (its text and its picture), and OpenAI reads both too.
fn pdf_page(protocol: Protocol) -> u64 {
    match protocol {
        Protocol::Gemini => 258,
        _ => 2_250,
    }
}

/// The estimated tokens `file` costs `model`, as it will be sent.
pub fn estimate(file: &Attachment, model: &ModelInfo) -> u64 {
    let protocol = model.provider.protocol;
    match (&file.data, file.kind) {
        // Read as text (a text file, or a PDF's text): about four bytes a token.
        (Some(Payload::Text(text)), _) => text.len() as u64 / 4,
        (_, Kind::Text) => file.bytes / 4,
        (_, Kind::Pdf) => u64::from(file.pages.unwrap_or(1).max(1)) * pdf_page(protocol),
        (_, _) => {
            let (w, h) = file.pixels.unwrap_or((1092, 1092));
            match protocol {
                Protocol::Anthropic => anthropic_image(w, h),
                Protocol::Gemini => gemini_image(w, h),
                _ => openai_image(w, h),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_cost_what_each_provider_documents() {
        // The providers' own worked examples.
        let cases = [
            ("anthropic 200×200", anthropic_image(200, 200), 54),
            ("anthropic 1000×1000", anthropic_image(1000, 1000), 1334),
            ("anthropic 1092×1092", anthropic_image(1092, 1092), 1590),
            ("openai 1024×1024", openai_image(1024, 1024), 765),
            ("openai 2048×4096", openai_image(2048, 4096), 1105),
            ("gemini 300×300", gemini_image(300, 300), 258),
            ("gemini 1536×768", gemini_image(1536, 768), 516),
        ];
        for (what, got, want) in cases {
            assert!(
                got.abs_diff(want) <= want / 100 + 1,
                "{what}: {got}, documented {want}"
            );
        }
        // A photo larger than the edge costs what its scaled copy costs.
        assert_eq!(anthropic_image(4000, 3000), anthropic_image(1568, 1176));
    }
}
