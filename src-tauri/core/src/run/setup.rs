//! From what the user asked — a model, a level, a conversation, a message — to the turn
//! that answers it: the model found in the catalog, its key, the conversation found or
//! started, and the settings the turn runs with. The desktop app and the command line both
//! start a turn here, so they cannot come to differ.

use super::{Question, TurnRequest};
use crate::catalog::{Catalog, LookupError, ModelInfo};
use crate::reasoning::choice::Choice;
use crate::reasoning::overrides::Overrides;
use crate::reasoning::plan::ApiChoice;
use crate::reasoning::settings::ReasoningSettings;
use crate::secrets::SecretError;
use crate::store::{Conversation, NewConversation, Store, StoreError, UNTITLED, title_from};

/// Where a turn goes in the conversation's tree of messages. One of these, so a turn that
/// both edits and answers again cannot be spelled.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum Place {
    /// A new question after what the conversation shows.
    #[default]
    New,
    /// Another version of this stored question (an edit); the earlier version keeps its
    /// answers.
    Edit(String),
    /// Another answer to this stored question with the conversation's model and level (a
    /// regenerate).
    Again(String),
    /// Another answer to this stored question with a model and level for that answer only
    /// (a rerun): the conversation keeps its own.
    Once(String),
    /// Like `Once`, but the answer shown stays shown and this one is kept beside it (the
    /// same question asked at several levels at once).
    Beside(String),
}

impl Place {
    /// The stored question a turn answers again, if it asks nothing new.
    pub fn answers(&self) -> Option<&str> {
        match self {
            Self::Again(id) | Self::Once(id) | Self::Beside(id) => Some(id),
            Self::New | Self::Edit(_) => None,
        }
    }

    /// Whether the model is for this turn only.
    fn model_once(&self) -> bool {
        matches!(self, Self::Once(_) | Self::Beside(_))
    }
}

/// What the user asked for.
#[derive(Debug, Clone, Default)]
pub struct Ask<'a> {
    pub provider: &'a str,
    pub model: &'a str,
    /// The question; not used when the place answers a stored one again.
    pub text: &'a str,
    /// Files given with a new question or an edit, already in the attachment store.
    pub files: &'a [crate::chat::Attachment],
    /// The user agreed that a PDF goes as its text to a model that reads no PDFs.
    pub pdf_as_text: bool,
    /// The conversation to continue; none starts a new one.
    pub conversation_id: Option<&'a str>,
    /// The conversation's level from now on (kept with it).
    pub choice: Option<Choice>,
    /// The level for this turn only.
    pub once: Option<Choice>,
    pub place: Place,
    /// For this turn, instead of the conversation's own system prompt.
    pub system: Option<&'a str>,
    /// For this turn, instead of the conversation's choice of API.
    pub api: Option<ApiChoice>,
    /// Instead of the provider's address (a proxy, a local server). For a provider one signs
    /// in to (Copilot), the address signed in at instead (GitHub's, or an Enterprise one),
    /// whose own sign-in the turn uses; github.com without it.
    pub address: Option<&'a str>,
}

/// A turn ready to run: everything `run_recorded` needs, owned.
#[derive(Debug, Clone)]
pub struct TurnSetup {
    pub model: ModelInfo,
    pub conversation: Conversation,
    /// The conversation's settings, as the turn uses them.
    pub settings: ReasoningSettings,
    /// The level this turn runs at.
    pub choice: Choice,
    pub api_key: Option<String>,
    pub overrides: Overrides,
    text: String,
    files: Vec<crate::chat::Attachment>,
    place: Place,
    system: Option<String>,
    api: Option<ApiChoice>,
    address: Option<String>,
}

impl TurnSetup {
    pub fn request(&self) -> TurnRequest<'_> {
        TurnRequest {
            model: &self.model,
            choice: self.choice,
            overrides: &self.overrides,
            settings: &self.settings,
            system: self.system.as_deref(),
            history: &[],
            base_url: self.address.as_deref().filter(|_| !self.signs_in()),
            api: self.api,
            api_key: self.api_key.as_deref(),
            context_tokens: 0,
            tools: &[],
            renew_key: None,
        }
    }

    pub fn question(&self) -> Question<'_> {
        Question {
            text: &self.text,
            files: &self.files,
            place: &self.place,
        }
    }

    /// Whether the provider is one signed in to (Copilot) rather than given a key.
    pub fn signs_in(&self) -> bool {
        self.model.provider.sign_in.is_some()
    }

    /// The address signed in at, for a provider one signs in to.
    pub fn sign_in_at(&self) -> Option<&str> {
        self.address.as_deref().filter(|_| self.signs_in())
    }
}

/// Why a turn could not start. Nothing has been stored or sent when this is returned,
/// except a new conversation's row.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("the message is empty")]
    Empty,
    #[error(
        "{model} does not read {what}, so {file} cannot be sent to it; choose a model that does, or leave the file out"
    )]
    CannotRead {
        model: String,
        what: &'static str,
        file: String,
    },
    #[error(
        "{model} does not read PDFs, so {file} cannot be sent to it as a PDF; its text can be sent instead (its tables, pictures and layout may be lost), or choose a model that reads PDFs"
    )]
    PdfUnread { model: String, file: String },
    #[error("{0}; nothing was sent or stored")]
    OverLimit(#[from] crate::attachments::limits::OverLimit),
    #[error("that message belongs to another conversation")]
    Elsewhere,
    #[error(transparent)]
    Model(#[from] LookupError),
    #[error(transparent)]
    Key(#[from] SecretError),
    #[error(transparent)]
    SignIn(#[from] crate::providers::copilot::CopilotError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Checks everything a turn needs — the message, the model, the key, the replaced
/// question — before the conversation is touched, then finds or starts it and keeps the
/// chosen model (and level) with it.
pub fn setup(
    store: &Store,
    catalog: &Catalog,
    overrides: &Overrides,
    ask: Ask<'_>,
) -> Result<TurnSetup, SetupError> {
    let again = match ask.place.answers() {
        Some(id) => {
            let question = store.message(id)?;
            if ask.conversation_id != Some(question.conversation_id.as_str()) {
                return Err(SetupError::Elsewhere);
            }
            Some(question.message.text())
        }
        None => None,
    };
    let text = again.as_deref().unwrap_or(ask.text).trim();
    if text.is_empty() && ask.files.is_empty() {
        return Err(SetupError::Empty);
    }
    let model = catalog.resolve(Some(ask.provider), ask.model)?;
    refuse_unread(&model, ask.files, ask.pdf_as_text)?;
    let api_key = match (&model.provider.api_key_env, model.provider.sign_in) {
        // Signed in to, not given a key: the token signed in at this address is kept where
        // a key would be (never another address's).
        (_, Some(_)) => {
            let hosts = crate::providers::copilot::hosts_for(ask.address)?;
            Some(
                crate::secrets::github_token(&hosts)
                    .ok()
                    .flatten()
                    .ok_or(crate::providers::copilot::CopilotError::NotSignedIn)?,
            )
        }
        // Local servers take no key, but use one if it is there.
        (None, None) => crate::secrets::api_key(&model.provider.id).ok(),
        (Some(_), None) => Some(crate::secrets::api_key(&model.provider.id)?),
    };
    let mut files = ask.files.to_vec();
    if let Place::Edit(replaced) = &ask.place {
        let replaced = store.message(replaced)?;
        if ask.conversation_id != Some(replaced.conversation_id.as_str()) {
            return Err(SetupError::Elsewhere);
        }
        // An edit changes the words; the files given with them stay unless new ones are.
        if files.is_empty() {
            files = replaced.message.attachments().cloned().collect();
            refuse_unread(&model, &files, ask.pdf_as_text)?;
        }
    }
    let conversation = match ask.conversation_id {
        Some(id) => store.conversation(id)?,
        None => store.create_conversation(NewConversation {
            title: title_from(text),
            provider: Some(model.provider.id.clone()),
            model: Some(model.id.clone()),
            settings: ReasoningSettings {
                choice: ask.choice.unwrap_or_default(),
                ..ReasoningSettings::default()
            },
        })?,
    };
    if conversation.title == UNTITLED {
        store.rename_conversation(&conversation.id, &title_from(text))?;
    }
    if !ask.place.model_once() {
        store.set_conversation_model(&conversation.id, &model.provider.id, &model.id)?;
    }
    let mut settings = conversation.settings.clone();
    if let Some(choice) = ask.choice
        && choice != settings.choice
    {
        settings.choice = choice;
        store.set_conversation_settings(&conversation.id, &settings)?;
    }
    let choice = ask.once.unwrap_or(settings.choice);
    let system = ask
        .system
        .or(settings.system_prompt.as_deref())
        .filter(|s| !s.trim().is_empty())
        .map(str::to_owned);
    let api = ask.api.or(settings.api);
    Ok(TurnSetup {
        model,
        conversation,
        settings,
        choice,
        api_key,
        overrides: overrides.clone(),
        text: text.to_owned(),
        files,
        place: ask.place,
        system,
        api,
        address: ask.address.map(str::to_owned),
    })
}

/// A file the model is known not to read is refused before anything is stored (a PDF only
/// when the user has not agreed to send its text), and so are files over a limit the
/// provider documents; where nothing says (a local model), it is sent and the provider has
/// the last word.
fn refuse_unread(
    model: &ModelInfo,
    files: &[crate::chat::Attachment],
    pdf_as_text: bool,
) -> Result<(), SetupError> {
    use crate::attachments::{Kind, limits};
    let limits = limits::of(&model.provider.id);
    let pdf_unread = model.reads(Kind::Pdf) == Some(false) || limits.takes_pdfs == Some(false);
    for file in files {
        match (file.kind, model.reads(file.kind)) {
            (Kind::Pdf, _) if pdf_unread && !pdf_as_text => {
                return Err(SetupError::PdfUnread {
                    model: model.id.clone(),
                    file: file.name.clone(),
                });
            }
            (kind, Some(false)) if kind.is_image() => {
                return Err(SetupError::CannotRead {
                    model: model.id.clone(),
                    what: "images",
                    file: file.name.clone(),
                });
            }
            _ => {}
        }
    }
    // An image over the provider's long edge is sent smaller, so only its count is known
    // here; a PDF sent as a PDF counts whole.
    let sent: Vec<limits::Sent<'_>> = files
        .iter()
        .filter(|f| !(f.kind == Kind::Pdf && pdf_unread))
        .map(|f| limits::Sent {
            name: &f.name,
            kind: f.kind,
            bytes: if f.kind.is_image() && limits.image_long_edge.is_some() {
                0
            } else {
                f.bytes
            },
            pages: f.pages,
            long_edge: None,
        })
        .collect();
    limits.check(&model.provider.name, &sent, 0)?;
    Ok(())
}
