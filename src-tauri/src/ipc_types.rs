//! The TypeScript side of the IPC contract, generated from the Rust types that cross it.
//!
//! `ui/src/lib/ipc-generated.ts` is written from these declarations; the test below fails when
//! it is out of date (`PONDER_BLESS=1 cargo test -p ponder ipc_types` writes it again), so a
//! change on one side that the other does not know about cannot pass unnoticed.

use ts_rs::TS;

use ponder_core::About;
use ponder_core::chat::{StopReason, ThoughtSource, Usage};
use ponder_core::providers::tokens::TokenCount;
use ponder_core::reasoning::catalog::Protocol;
use ponder_core::reasoning::levels::LevelOption;
use ponder_core::reasoning::overrides::{
    Caching, Mapping, ModelOverrides, ProviderOverrides, Scalar,
};
use ponder_core::reasoning::plan::Endpoint;
use ponder_core::reasoning::settings::Profiles;
use ponder_core::reasoning::{
    Api, Choice, CustomProvider, Meaning, MeaningKind, Overrides, ReasoningSettings,
    StripFromContext, ThoughtFormat,
};
use ponder_core::store::{ConversationSummary, MessageStatus, SearchHit};

use crate::commands::chat::Sent;
use crate::commands::export::{Exported, Imported};
use crate::commands::secrets::KeyringStatus;
use crate::commands::settings::PurgeReport;
use crate::error::{IpcError, IpcErrorCode};
use crate::ipc::{
    ConversationView, MessageView, ModelSource, ModelView, PartView, ProviderView, RefreshReport,
    SendRequest, StreamEvent, TranslatePreview,
};
use crate::settings::{ProviderSettings, Settings, Theme, ThoughtVisibility};
use crate::state::{ProblemFile, Remedy, StartupProblem};

const FILE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../ui/src/lib/ipc-generated.ts"
);

fn declare<T: TS>() -> String {
    format!("export {}\n", T::decl())
}

fn generated() -> String {
    let declarations = [
        // Values
        declare::<Choice>(),
        declare::<Api>(),
        declare::<Endpoint>(),
        declare::<Protocol>(),
        declare::<ThoughtSource>(),
        declare::<MessageStatus>(),
        declare::<StopReason>(),
        declare::<Usage>(),
        declare::<TokenCount>(),
        declare::<MeaningKind>(),
        declare::<Meaning>(),
        declare::<LevelOption>(),
        // Settings
        declare::<StripFromContext>(),
        declare::<ThoughtFormat>(),
        declare::<ReasoningSettings>(),
        declare::<Profiles>(),
        declare::<Scalar>(),
        declare::<Mapping>(),
        declare::<Caching>(),
        declare::<ModelOverrides>(),
        declare::<ProviderOverrides>(),
        declare::<Overrides>(),
        declare::<CustomProvider>(),
        declare::<Theme>(),
        declare::<ThoughtVisibility>(),
        declare::<ProviderSettings>(),
        declare::<Settings>(),
        // Errors and start-up
        declare::<IpcErrorCode>(),
        declare::<IpcError>(),
        declare::<ProblemFile>(),
        declare::<Remedy>(),
        declare::<StartupProblem>(),
        declare::<KeyringStatus>(),
        // Conversations
        declare::<PartView>(),
        declare::<MessageView>(),
        declare::<ConversationSummary>(),
        declare::<ConversationView>(),
        declare::<SearchHit>(),
        declare::<PurgeReport>(),
        declare::<Exported>(),
        declare::<Imported>(),
        declare::<About>(),
        // Models and providers
        declare::<ModelSource>(),
        declare::<ModelView>(),
        declare::<ProviderView>(),
        declare::<RefreshReport>(),
        declare::<TranslatePreview>(),
        // A turn
        declare::<SendRequest>(),
        declare::<Sent>(),
        declare::<StreamEvent>(),
    ];
    format!(
        "// Generated from the Rust types of the IPC contract by src-tauri/src/ipc_types.rs.\n\
         // Do not edit: run `PONDER_BLESS=1 cargo test -p ponder ipc_types` after changing them.\n\n{}",
        declarations.join("\n")
    )
}

#[test]
fn the_generated_typescript_is_current() {
    let fresh = generated();
    if std::env::var_os("PONDER_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(FILE, &fresh).unwrap();
        return;
    }
    let stored = std::fs::read_to_string(FILE).unwrap_or_default();
    assert!(
        stored == fresh,
        "{FILE} is out of date with the Rust types; run `PONDER_BLESS=1 cargo test -p ponder ipc_types` and check the difference"
    );
}
