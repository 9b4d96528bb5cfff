//! Files as one model's provider takes them. An image larger than the provider's own long
//! edge is sent as a smaller copy (made once, kept as `sent-<edge>/<sha256>`; the original is
//! kept as it was), a PDF to a model that reads none goes as its text, and an image to a
//! model that reads none is left out, each with a line saying so.

use std::sync::Arc;

use super::limits::{self, Limits, OverLimit, Sent};
use super::{AttachmentStore, Kind, image, pdf, sniff};
use crate::catalog::ModelInfo;
use crate::chat::{Attachment, Message, Part, Payload};
use crate::providers::request::note;

impl AttachmentStore {
    /// Fills in what each attachment of `messages` sends to `model`; the lines say what was
    /// sent otherwise than stored.
    pub fn load_for(&self, messages: &mut [Message], model: &ModelInfo) -> Vec<String> {
        let limits = limits::of(&model.provider.id);
        let mut notices = Vec::new();
        for message in messages.iter_mut() {
            message.parts.retain_mut(|part| {
                let Part::Attachment(file) = part else {
                    return true;
                };
                // A smaller copy made for an earlier request is sent without reading the
                // original again: every step of a tool loop sends the history's files.
                if let Some(edge) = limits
                    .image_long_edge
                    .filter(|_| file.kind.is_image() && model.reads(file.kind) != Some(false))
                    && let Some((kind, copy)) = self.kept_copy(&file.sha256, edge)
                {
                    send_copy(file, kind, copy);
                    return true;
                }
                file.data = self.data(file);
                self.fit(file, model, &limits, &mut notices)
            });
        }
        notices
    }

    /// Fills in a description of each attachment instead of its bytes, for a preview of the
    /// request: the same choices `load_for` makes, without reading a file to send.
    pub fn describe_for(&self, messages: &mut [Message], model: &ModelInfo) {
        let limits = limits::of(&model.provider.id);
        for file in messages
            .iter_mut()
            .flat_map(|m| m.parts.iter_mut())
            .filter_map(|p| match p {
                Part::Attachment(file) => Some(file),
                _ => None,
            })
        {
            if self.path(&file.sha256).is_none_or(|p| !p.exists()) {
                file.data = None;
                continue;
            }
            let edge = limits.image_long_edge.filter(|_| file.kind.is_image());
            let pdf_as_text =
                limits.takes_pdfs == Some(false) || model.reads(Kind::Pdf) == Some(false);
            let how = match file.kind {
                Kind::Pdf if pdf_as_text => "sent as its text".to_owned(),
                _ => match edge {
                    Some(edge) => format!("sent at most {edge} px a side"),
                    None => "sent as stored".to_owned(),
                },
            };
            file.data = Some(Payload::Described(format!(
                "{}, {:.1} KiB, {how}",
                file.kind.media_type(),
                file.bytes as f64 / 1024.0
            )));
        }
    }

    /// Makes `file`'s payload what `model` takes; false when it is not sent at all.
    fn fit(
        &self,
        file: &mut Attachment,
        model: &ModelInfo,
        limits: &Limits,
        notices: &mut Vec<String>,
    ) -> bool {
        let Some(Payload::Bytes(bytes)) = &file.data else {
            return true;
        };
        let reads = match file.kind {
            Kind::Pdf if limits.takes_pdfs == Some(false) => Some(false),
            kind => model.reads(kind),
        };
        match (file.kind, reads) {
            (Kind::Pdf, Some(false)) => {
                let text = pdf::page_texts(bytes)
                    .map(|pages| pdf::as_text(&file.name, &pages))
                    .unwrap_or_else(|e| {
                        format!("The text of {} could not be read: {e}", file.name)
                    });
                note(
                    notices,
                    format!(
                        "{} reads no PDFs, so {} was sent as its text: its tables, pictures and layout may be lost",
                        model.id, file.name
                    ),
                );
                file.data = Some(Payload::Text(text.into()));
                true
            }
            (kind, Some(false)) if kind.is_image() => {
                note(
                    notices,
                    format!(
                        "{} reads no images, so {} was not sent",
                        model.id, file.name
                    ),
                );
                false
            }
            (kind, _) if kind.is_image() => {
                if let Some(edge) = limits.image_long_edge
                    && let Some((kind, smaller)) = self.smaller(&file.sha256, bytes, kind, edge)
                {
                    send_copy(file, kind, smaller);
                }
                true
            }
            _ => true,
        }
    }

    /// The smaller copy of an image kept for an earlier request, if there is one.
    fn kept_copy(&self, sha256: &str, edge: u32) -> Option<(Kind, Arc<[u8]>)> {
        let copy = std::fs::read(self.dir.join(format!("sent-{edge}")).join(sha256)).ok()?;
        let kind = sniff(&copy).filter(|k| k.is_image())?;
        Some((kind, copy.into()))
    }

    /// A copy of an image whose long edge is at most `edge`, made the first time and kept;
    /// none when it is that small already or cannot be made (the original is sent).
    fn smaller(
        &self,
        sha256: &str,
        bytes: &[u8],
        kind: Kind,
        edge: u32,
    ) -> Option<(Kind, Arc<[u8]>)> {
        if let Some(kept) = self.kept_copy(sha256, edge) {
            return Some(kept);
        }
        let kept = self.dir.join(format!("sent-{edge}")).join(sha256);
        let small = image::smaller(bytes, kind, edge).ok()??;
        if let Some(folder) = kept.parent()
            && std::fs::create_dir_all(folder).is_ok()
        {
            // A copy that cannot be kept is made again next time; the turn goes on.
            let _ = crate::atomic_file::write(&kept, &small.bytes);
        }
        Some((small.kind, small.bytes.into()))
    }
}

/// The first documented limit the files of `messages` (as loaded) break at `model`'s
/// provider; `other_bytes` is the rest of the request.
pub fn check_request(
    messages: &[Message],
    model: &ModelInfo,
    other_bytes: u64,
) -> Result<(), OverLimit> {
    let files: Vec<Sent<'_>> = messages
        .iter()
        .flat_map(Message::attachments)
        .filter_map(|file| {
            // Its size as sent: stored with it, or read from the copy made to send.
            let long_edge = match &file.data {
                Some(Payload::Bytes(bytes)) if file.kind.is_image() => {
                    file.pixels.map(|(w, h)| w.max(h)).or_else(|| {
                        image::dimensions(bytes, file.kind)
                            .ok()
                            .map(|d| d.long_edge())
                    })
                }
                _ => None,
            };
            let (kind, bytes) = match &file.data {
                Some(Payload::Text(text)) => (Kind::Text, text.len() as u64),
                Some(Payload::Bytes(bytes)) => (file.kind, bytes.len() as u64),
                _ => return None,
            };
            Some(Sent {
                name: &file.name,
                kind,
                bytes,
                pages: file.pages,
                long_edge,
            })
        })
        .collect();
    limits::of(&model.provider.id).check(&model.provider.name, &files, other_bytes)
}

/// Makes `file` the smaller copy that goes instead of it (the original stays stored).
fn send_copy(file: &mut Attachment, kind: Kind, copy: Arc<[u8]>) {
    file.kind = kind;
    file.bytes = copy.len() as u64;
    file.pixels = image::dimensions(&copy, kind)
        .ok()
        .map(|d| (d.width, d.height));
    file.data = Some(Payload::Bytes(copy));
}
