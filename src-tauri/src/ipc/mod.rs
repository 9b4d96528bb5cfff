//! The shapes that cross IPC, one file per kind: messages, conversations, models, and a
//! turn's stream. Signatures, provider data and replays never cross: the UI shows, it does not
//! resend. The UI's TypeScript types are generated from these (`ts_bindings`); a test pins
//! the JSON of the stream's events.

mod conversation;
mod message;
mod models;
mod stream;

pub use conversation::{ConversationView, VersionView};
pub use message::{MessageView, PartView};
pub use models::{ModelView, ProviderView, RefreshReport, TranslatePreview};
pub use stream::{FileRef, RerunRequest, RerunShows, SendRequest, StreamEvent};

#[cfg(test)]
mod tests;
