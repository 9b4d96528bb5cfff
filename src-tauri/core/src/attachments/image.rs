//! Attached images: how large they are, read from their header, and a smaller copy for a
//! provider that takes less. Decoding an image someone sent is bounded: a small file can
//! declare 60,000 × 60,000 pixels, which would be gigabytes before a pixel is read.

use std::io::Cursor;

use image::codecs::jpeg::JpegEncoder;
use image::imageops::FilterType;
use image::{ImageFormat, ImageReader, Limits};

use super::Kind;

/// The largest image Ponder decodes, each side: above any provider's limit.
const MAX_SIDE: u32 = 16_384;
/// The most a decode may allocate.
const MAX_ALLOC: u64 = 512 * 1024 * 1024;
/// JPEG quality of a smaller copy of a photo.
const JPEG_QUALITY: u8 = 85;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dimensions {
    pub width: u32,
    pub height: u32,
}

impl Dimensions {
    pub fn long_edge(self) -> u32 {
        self.width.max(self.height)
    }
}

/// A copy of an image made smaller to send.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Smaller {
    pub bytes: Vec<u8>,
    pub kind: Kind,
    pub dimensions: Dimensions,
}

#[derive(Debug, thiserror::Error)]
pub enum ImageError {
    #[error("the image is damaged or not what it says it is ({0})")]
    Damaged(String),
    #[error(
        "the image is {width} × {height} pixels; Ponder reads images of at most {MAX_SIDE} pixels a side"
    )]
    TooManyPixels { width: u32, height: u32 },
}

fn format(kind: Kind) -> Option<ImageFormat> {
    match kind {
        Kind::Png => Some(ImageFormat::Png),
        Kind::Jpeg => Some(ImageFormat::Jpeg),
        Kind::Gif => Some(ImageFormat::Gif),
        Kind::Webp => Some(ImageFormat::WebP),
        Kind::Pdf | Kind::Text => None,
    }
}

fn reader(bytes: &[u8], kind: Kind) -> Result<ImageReader<Cursor<&[u8]>>, ImageError> {
    let format = format(kind).ok_or_else(|| ImageError::Damaged("not an image".into()))?;
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    limits.max_image_width = Some(MAX_SIDE);
    limits.max_image_height = Some(MAX_SIDE);
    limits.max_alloc = Some(MAX_ALLOC);
    reader.limits(limits);
    Ok(reader)
}

fn refused(err: image::ImageError, bytes: &[u8], kind: Kind) -> ImageError {
    if let image::ImageError::Limits(_) = err
        && let Ok(Dimensions { width, height }) = header_dimensions(bytes, kind)
    {
        return ImageError::TooManyPixels { width, height };
    }
    ImageError::Damaged(err.to_string())
}

/// The size the header declares, read without the limits (it decodes nothing).
fn header_dimensions(bytes: &[u8], kind: Kind) -> Result<Dimensions, image::ImageError> {
    let format = format(kind).unwrap_or(ImageFormat::Png);
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    reader.no_limits();
    let (width, height) = reader.into_dimensions()?;
    Ok(Dimensions { width, height })
}

/// The image's size, from its header alone; a header that does not read, or one larger than
/// Ponder decodes, is refused.
pub fn dimensions(bytes: &[u8], kind: Kind) -> Result<Dimensions, ImageError> {
    let (width, height) = reader(bytes, kind)?
        .into_dimensions()
        .map_err(|e| refused(e, bytes, kind))?;
    if width.max(height) > MAX_SIDE {
        return Err(ImageError::TooManyPixels { width, height });
    }
    Ok(Dimensions { width, height })
}

/// A small picture of the image for the thread, long edge at most `long_edge`, or `None` when
/// the image is that small already. Sampling is quick rather than fine: it is seen at a
/// glance, and a thread of many images makes many.
pub fn thumbnail(bytes: &[u8], kind: Kind, long_edge: u32) -> Result<Option<Smaller>, ImageError> {
    let Some(image) = decoded_if_over(bytes, kind, long_edge)? else {
        return Ok(None);
    };
    encode(image.thumbnail(long_edge, long_edge), kind).map(Some)
}

/// The image decoded, when its long edge is over `long_edge` (its header says so first).
fn decoded_if_over(
    bytes: &[u8],
    kind: Kind,
    long_edge: u32,
) -> Result<Option<image::DynamicImage>, ImageError> {
    if dimensions(bytes, kind)?.long_edge() <= long_edge {
        return Ok(None);
    }
    reader(bytes, kind)?
        .decode()
        .map(Some)
        .map_err(|e| refused(e, bytes, kind))
}

/// A copy whose long edge is at most `long_edge`, or `None` when the image already fits.
/// Photos stay JPEG; everything else becomes PNG (lossless, and every provider takes it).
pub fn smaller(bytes: &[u8], kind: Kind, long_edge: u32) -> Result<Option<Smaller>, ImageError> {
    let Some(image) = decoded_if_over(bytes, kind, long_edge)? else {
        return Ok(None);
    };
    encode(
        image.resize(long_edge, long_edge, FilterType::Lanczos3),
        kind,
    )
    .map(Some)
}

/// Photos stay JPEG; everything else becomes PNG.
fn encode(resized: image::DynamicImage, kind: Kind) -> Result<Smaller, ImageError> {
    let mut out = Vec::new();
    let kind = if kind == Kind::Jpeg {
        resized
            .to_rgb8()
            .write_with_encoder(JpegEncoder::new_with_quality(&mut out, JPEG_QUALITY))
            .map_err(|e| ImageError::Damaged(e.to_string()))?;
        Kind::Jpeg
    } else {
        resized
            .write_to(&mut Cursor::new(&mut out), ImageFormat::Png)
            .map_err(|e| ImageError::Damaged(e.to_string()))?;
        Kind::Png
    };
    Ok(Smaller {
        bytes: out,
        kind,
        dimensions: Dimensions {
            width: resized.width(),
            height: resized.height(),
        },
    })
}
