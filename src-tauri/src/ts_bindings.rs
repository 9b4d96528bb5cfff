//! The TypeScript bindings of the IPC contract, generated from the Rust types that cross it.
//!
//! `ui/src/lib/ipc-generated.ts` is written from these declarations; the test below fails when
//! it is out of date (`PONDER_BLESS=1 cargo test -p ponder ts_bindings` writes it again), so a
//! change on one side that the other does not know about cannot pass unnoticed.

use ts_rs::TS;

use ponder_core::About;
use ponder_core::attachments::Kind as AttachmentKind;
use ponder_core::chat::{StopReason, ThoughtSource, ToolContent, Usage};
use ponder_core::compare::VersionFigures;
use ponder_core::mcp::{ServerConfig, ServerState, ServerStatus, Transport as McpTransport};
use ponder_core::prices::{PriceFigures, PriceOverride};
use ponder_core::tools::{Decision, ToolChoice};

use crate::commands::attachments::{AttachedFile, Picked};
use crate::commands::mcp::{ServerTools, ToolInfo};
use ponder_core::catalog::CustomProvider;
use ponder_core::catalog::{ModelSource, Protocol, RuleSource};
use ponder_core::providers::tokens::TokenCount;
use ponder_core::reasoning::levels::LevelOption;
use ponder_core::reasoning::overrides::{
    Caching, Mapping, ModelOverrides, ProviderOverrides, Scalar,
};
use ponder_core::reasoning::plan::Endpoint;
use ponder_core::reasoning::settings::Profiles;
use ponder_core::reasoning::{
    ApiChoice, Choice, Meaning, MeaningKind, Overrides, ReasoningSettings, StripFromContext,
    ThoughtFormat,
};
use ponder_core::store::{
    ConversationSummary, ConversationTotals, MessageStatus, SearchHit, UsageRow,
};

use crate::commands::chat::Sent;
use crate::commands::copilot::{DeviceCodeView, SignInEvent};
use crate::commands::export::{Exported, Format, ThoughtsMode};
use crate::commands::import::{ImportProgress, Imported};
use crate::commands::secrets::KeyringStatus;
use crate::commands::settings::PurgeReport;
use crate::error::{IpcError, IpcErrorCode};
use crate::ipc::{
    ConversationView, FileRef, MessageView, ModelView, PartView, ProviderView, RefreshReport,
    RerunRequest, RerunShows, SendRequest, StreamEvent, TranslatePreview, VersionView,
};
use crate::settings::{ProviderSettings, Settings, Theme, ThoughtVisibility};
use crate::startup::{ProblemFile, Remedy, StartupProblem};

const FILE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../ui/src/lib/ipc-generated.ts"
);

fn declare<T: TS>() -> String {
    format!("export {}\n", one_line_docs(&T::decl()))
}

/// ts-rs writes every doc comment over three lines; one that is a single line is written on
/// one, so the file reads as the Rust does.
fn one_line_docs(decl: &str) -> String {
    let lines: Vec<&str> = decl.lines().collect();
    let mut out = Vec::with_capacity(lines.len());
    let mut i = 0;
    while i < lines.len() {
        match (lines.get(i + 1), lines.get(i + 2)) {
            (Some(text), Some(&" */")) if lines[i] == "/**" && text.starts_with(" * ") => {
                out.push(format!("/** {} */", &text[3..]));
                i += 3;
            }
            _ => {
                out.push(lines[i].to_owned());
                i += 1;
            }
        }
    }
    out.join("\n")
}

fn generated() -> String {
    let declarations = [
        // Values
        declare::<Choice>(),
        declare::<ApiChoice>(),
        declare::<Endpoint>(),
        declare::<Protocol>(),
        declare::<ThoughtSource>(),
        declare::<ToolContent>(),
        declare::<AttachmentKind>(),
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
        declare::<ToolChoice>(),
        declare::<McpTransport>(),
        declare::<ServerConfig>(),
        declare::<Theme>(),
        declare::<ThoughtVisibility>(),
        declare::<ProviderSettings>(),
        declare::<PriceOverride>(),
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
        declare::<VersionFigures>(),
        declare::<VersionView>(),
        declare::<UsageRow>(),
        declare::<ConversationTotals>(),
        declare::<SearchHit>(),
        declare::<PurgeReport>(),
        declare::<Exported>(),
        declare::<Imported>(),
        declare::<ImportProgress>(),
        declare::<Format>(),
        declare::<ThoughtsMode>(),
        declare::<About>(),
        // Models and providers
        declare::<ModelSource>(),
        declare::<RuleSource>(),
        declare::<PriceFigures>(),
        declare::<ModelView>(),
        declare::<ProviderView>(),
        declare::<RefreshReport>(),
        declare::<DeviceCodeView>(),
        declare::<SignInEvent>(),
        declare::<TranslatePreview>(),
        // Tools
        declare::<ServerState>(),
        declare::<ServerStatus>(),
        declare::<ToolInfo>(),
        declare::<ServerTools>(),
        declare::<Decision>(),
        // A turn
        declare::<FileRef>(),
        declare::<SendRequest>(),
        declare::<AttachedFile>(),
        declare::<Picked>(),
        declare::<RerunRequest>(),
        declare::<RerunShows>(),
        declare::<Sent>(),
        declare::<StreamEvent>(),
    ];
    format!(
        "// Generated from the Rust types of the IPC contract by src-tauri/src/ts_bindings.rs.\n\
         // Do not edit: run `PONDER_BLESS=1 cargo test -p ponder ts_bindings` after changing them.\n\n{}\n{}",
        declarations.join("\n"),
        commands::declare(&commands::read())
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
        "{FILE} is out of date with the Rust types; run `PONDER_BLESS=1 cargo test -p ponder ts_bindings` and check the difference"
    );
}

/// The commands, read from the `#[tauri::command]` functions themselves: for each, the
/// arguments the webview passes (camelCase, as Tauri takes them), what it answers, and the
/// events of a run when it takes a channel. Reading the functions rather than a list kept by
/// hand means a renamed argument or a changed result reaches the UI's type check.
mod commands {
    use std::fmt::Write;

    use syn::{FnArg, GenericArgument, Item, Pat, PathArguments, ReturnType, Type};

    pub struct Command {
        pub name: String,
        args: Vec<(String, String, bool)>,
        result: String,
        events: Option<String>,
        raw_body: bool,
    }

    const SOURCES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/commands");
    const HANDLER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src/lib.rs");

    /// Every command function under `src/commands`, in file then source order.
    pub fn read() -> Vec<Command> {
        let mut files: Vec<_> = std::fs::read_dir(SOURCES)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "rs"))
            .collect();
        files.sort();
        let mut out = Vec::new();
        for file in files {
            let source = std::fs::read_to_string(&file).unwrap();
            let parsed =
                syn::parse_file(&source).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
            for item in parsed.items {
                let Item::Fn(f) = item else { continue };
                let is_command = f.attrs.iter().any(|a| {
                    let path = a.path();
                    path.segments.len() == 2
                        && path.segments[0].ident == "tauri"
                        && path.segments[1].ident == "command"
                });
                if is_command {
                    out.push(command(&f.sig));
                }
            }
        }
        out
    }

    /// The names inside `tauri::generate_handler![…]`: the commands the app answers.
    pub fn registered() -> Vec<String> {
        let source = std::fs::read_to_string(HANDLER).unwrap();
        let start = source
            .find("generate_handler![")
            .expect("a generate_handler! list")
            + 18;
        let end = start + source[start..].find(']').unwrap();
        source[start..end]
            .split(',')
            .map(|path| path.trim().rsplit("::").next().unwrap().to_owned())
            .filter(|name| !name.is_empty())
            .collect()
    }

    fn command(sig: &syn::Signature) -> Command {
        let mut args = Vec::new();
        let mut events = None;
        let mut raw_body = false;
        for input in &sig.inputs {
            let FnArg::Typed(arg) = input else { continue };
            let Pat::Ident(name) = &*arg.pat else {
                panic!("{}: an argument that is not a plain name", sig.ident)
            };
            match last_ident(&arg.ty).as_deref() {
                // Given by Tauri, not by the webview.
                Some("State" | "AppHandle" | "Window" | "WebviewWindow") => {}
                Some("Channel") => events = Some(ts(generic(&arg.ty, 0))),
                // The call's body is the bytes themselves (`invoke(name, bytes, { headers })`).
                Some("Request") => raw_body = true,
                _ => {
                    let optional = last_ident(&arg.ty).as_deref() == Some("Option");
                    args.push((camel(&name.ident.to_string()), ts(&arg.ty), optional));
                }
            }
        }
        let result = match &sig.output {
            ReturnType::Default => "null".to_owned(),
            ReturnType::Type(_, ty) if last_ident(ty).as_deref() == Some("Result") => {
                ts(generic(ty, 0))
            }
            ReturnType::Type(_, ty) => ts(ty),
        };
        Command {
            name: sig.ident.to_string(),
            args,
            result,
            events,
            raw_body,
        }
    }

    fn last_ident(ty: &Type) -> Option<String> {
        match ty {
            Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
            Type::Reference(r) => last_ident(&r.elem),
            _ => None,
        }
    }

    fn generic(ty: &Type, index: usize) -> &Type {
        let Type::Path(p) = ty else {
            panic!("not a generic type")
        };
        let PathArguments::AngleBracketed(args) = &p.path.segments.last().unwrap().arguments else {
            panic!("not a generic type")
        };
        args.args
            .iter()
            .filter_map(|a| match a {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .nth(index)
            .expect("a type argument")
    }

    /// The TypeScript for a Rust type as serde writes it (the named types are declared in
    /// the generated file; the test checks that each one is).
    fn ts(ty: &Type) -> String {
        if let Type::Tuple(t) = ty
            && t.elems.is_empty()
        {
            return "null".into();
        }
        let name = last_ident(ty).unwrap_or_else(|| panic!("a type Ponder does not map"));
        match name.as_str() {
            "String" | "str" => "string".into(),
            "bool" => "boolean".into(),
            "u8" | "u16" | "u32" | "u64" | "usize" | "i8" | "i16" | "i32" | "i64" | "isize"
            | "f32" | "f64" => "number".into(),
            "Value" => "unknown".into(),
            "Option" => format!("{} | null", ts(generic(ty, 0))),
            "Vec" => format!("Array<{}>", ts(generic(ty, 0))),
            _ => name,
        }
    }

    fn camel(snake: &str) -> String {
        let mut out = String::new();
        let mut upper = false;
        for c in snake.chars() {
            if c == '_' {
                upper = true;
            } else if upper {
                out.extend(c.to_uppercase());
                upper = false;
            } else {
                out.push(c);
            }
        }
        out
    }

    /// `export interface Commands { name: { args: …; result: …; events?: … } }`.
    pub fn declare(commands: &[Command]) -> String {
        let mut out = String::from(
            "/** Every command the backend answers: its arguments, its result, and the events of a run. */\n\
             export interface Commands {\n",
        );
        for c in commands {
            let args = if c.raw_body {
                "Uint8Array".to_owned()
            } else if c.args.is_empty() {
                "Record<string, never>".to_owned()
            } else {
                let fields: Vec<String> = c
                    .args
                    .iter()
                    .map(|(name, ty, optional)| {
                        format!("{name}{}: {ty}", if *optional { "?" } else { "" })
                    })
                    .collect();
                format!("{{ {} }}", fields.join("; "))
            };
            let events = c
                .events
                .as_ref()
                .map(|e| format!("; events: {e}"))
                .unwrap_or_default();
            writeln!(
                out,
                "  {}: {{ args: {args}; result: {}{events} }};",
                c.name, c.result
            )
            .unwrap();
        }
        out.push_str("}\n");
        out
    }

    /// The named types a command mentions, to check each is declared.
    pub fn named_types(commands: &[Command]) -> Vec<String> {
        let mut names = Vec::new();
        for c in commands {
            let types = c
                .args
                .iter()
                .map(|a| a.1.as_str())
                .chain([c.result.as_str()])
                .chain(c.events.as_deref());
            for ty in types {
                for word in ty.split(|ch: char| !ch.is_alphanumeric()) {
                    if word.starts_with(|ch: char| ch.is_ascii_uppercase())
                        && !["Array", "Record"].contains(&word)
                    {
                        names.push(word.to_owned());
                    }
                }
            }
        }
        names.sort();
        names.dedup();
        names
    }
}

#[test]
fn every_registered_command_is_in_the_contract_and_every_type_it_uses_is_declared() {
    let read = commands::read();
    let mut names: Vec<_> = read.iter().map(|c| c.name.clone()).collect();
    let mut registered = commands::registered();
    names.sort();
    registered.sort();
    assert_eq!(
        names, registered,
        "the #[tauri::command] functions and generate_handler! disagree"
    );
    let file = generated();
    for name in commands::named_types(&read) {
        assert!(
            file.contains(&format!("export type {name} ")),
            "a command uses {name}, which the contract does not declare; add it to generated()"
        );
    }
}
