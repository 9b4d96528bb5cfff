//! The shared part of every protocol's `to_wire`: the input, merging the reasoning plan into
//! the body, and the notices about how the history was sent. The dispatch by protocol is
//! `providers::to_wire`.

use serde_json::{Map, Value};

use crate::attachments::Kind;
use crate::catalog::ModelInfo;
use crate::chat::{Attachment, Message, ToolSpec};
use crate::reasoning::plan::Plan;
use crate::reasoning::settings::ReasoningSettings;

/// Everything a protocol needs to write one request.
#[derive(Debug, Clone, Copy)]
pub struct WireInput<'a> {
    pub model: &'a ModelInfo,
    pub plan: &'a Plan,
    pub settings: &'a ReasoningSettings,
    pub system: Option<&'a str>,
    /// The conversation, oldest first, ending with the user's new message (or, inside a
    /// tool loop, with the results of the tools the last step called).
    pub history: &'a [Message],
    /// The tools the model may call this turn.
    pub tools: &'a [ToolSpec],
}

/// A request body, and what the user should be told about how the history was sent.
#[derive(Debug, Clone, PartialEq)]
pub struct WireRequest {
    pub body: Value,
    pub notices: Vec<String>,
}

/// A protocol's typed request as the body to send: serialized, then the reasoning plan's
/// fields merged in (they are the provider's own spelling, from the catalog's data).
pub fn with_plan(
    request: &impl serde::Serialize,
    plan: &Plan,
    notices: Vec<String>,
) -> WireRequest {
    let mut body = match serde_json::to_value(request) {
        Ok(Value::Object(body)) => body,
        // A request type is a struct: it always serializes to an object.
        _ => Map::new(),
    };
    apply_plan(&mut body, plan);
    WireRequest {
        body: Value::Object(body),
        notices,
    }
}

/// Merges the plan's fields into a body (objects merge key by key, so a plan's
/// `generationConfig.thinkingConfig` joins the body's `generationConfig`) and removes the
/// fields the plan says must not be sent.
fn apply_plan(body: &mut Map<String, Value>, plan: &Plan) {
    for (key, value) in plan.request.to_json() {
        merge(body, &key, value);
    }
    for key in &plan.omit {
        body.remove(key);
    }
    if !plan.stream {
        unstream(body);
    }
}

/// The body asking for the whole answer at once instead of a stream (Gemini says it in the
/// URL instead: `endpoint_url`).
pub fn unstream(body: &mut Map<String, Value>) {
    if body.contains_key("stream") {
        body.insert("stream".into(), Value::Bool(false));
    }
    body.remove("stream_options");
}

fn merge(body: &mut Map<String, Value>, key: &str, value: Value) {
    match (body.get_mut(key), value) {
        (Some(Value::Object(existing)), Value::Object(incoming)) => {
            for (k, v) in incoming {
                merge(existing, &k, v);
            }
        }
        (_, value) => {
            body.insert(key.to_owned(), value);
        }
    }
}

/// Tells the user when thoughts the settings wanted sent were left out because another
/// model wrote them.
pub fn note_foreign(notices: &mut Vec<String>, message: &Message, model: &ModelInfo, wanted: bool) {
    if !wanted || message.thinking().next().is_none() {
        return;
    }
    if let Some(origin) = &message.origin {
        note(
            notices,
            format!(
                "Thoughts from {}/{} were not sent to {}/{}: their signatures and data only work with the model that wrote them",
                origin.provider, origin.model, model.provider.id, model.id
            ),
        );
    }
}

/// Collects notices without repeating one.
pub fn note(notices: &mut Vec<String>, notice: String) {
    if !notices.contains(&notice) {
        notices.push(notice);
    }
}

/// A user's attachment as the protocols write it: a mark where its base64 goes (see
/// `inline`), or its text.
pub enum Attached<'a> {
    /// An image or a PDF: the mark its base64 replaces as the body is written.
    Binary { file: &'a Attachment, data: String },
    /// Read as text (a text file, or a PDF's text), before the question.
    Text(String),
}

/// The attachments of a user's message as they go out, in order; each one whose file is gone
/// from the store is left out with a notice.
pub fn attached<'a>(message: &'a Message, notices: &mut Vec<String>) -> Vec<Attached<'a>> {
    use crate::chat::Payload;
    message
        .attachments()
        .filter_map(|file| match &file.data {
            None => {
                note(
                    notices,
                    format!(
                        "{} is no longer in Ponder's files, so it was not sent",
                        file.name
                    ),
                );
                None
            }
            Some(Payload::Text(text)) if file.kind == Kind::Pdf => Some(Attached::Text(format!(
                "The attached PDF {}, as its text:\n\n{text}",
                file.name
            ))),
            Some(Payload::Text(text)) => Some(Attached::Text(format!(
                "The attached file {}:\n\n{text}",
                file.name
            ))),
            Some(Payload::Bytes(_) | Payload::Described(_)) => Some(Attached::Binary {
                file,
                data: super::inline::mark(&file.sha256),
            }),
        })
        .collect()
}

/// A `data:` URL, as the OpenAI APIs take files inline.
pub fn data_url(file: &Attachment, data: &str) -> String {
    format!("data:{};base64,{data}", file.kind.media_type())
}
