//! The real provider recordings in `tests/fixtures/real`: which protocol each one speaks,
//! its bytes as they came off the wire, and a mapper to read them with.

use std::path::{Path, PathBuf};

use ponder_core::providers::stream::Mapper;
use ponder_core::providers::{anthropic, gemini, ollama, openai_chat, openai_responses};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    Anthropic,
    Chat,
    Responses,
    Gemini,
    Ollama,
}

/// Recordings of wire formats Ponder does not speak, with the reason.
pub const UNSUPPORTED: &[(&str, &str)] = &[
    (
        "bedrock/",
        "AWS Bedrock Converse (binary event-stream and its JSON shapes) is not one of Ponder's protocols",
    ),
    (
        "cohere/",
        "Cohere's v2 chat API is not one of Ponder's protocols",
    ),
    (
        "inline-think/vercel-bedrock-",
        "Bedrock Converse framing; its <think> text is covered by the think-tag splitter tests",
    ),
    ("errors/", "error bodies, covered by the error tests"),
];

pub fn protocol_of(path: &str) -> Option<Protocol> {
    if UNSUPPORTED
        .iter()
        .any(|(prefix, _)| path.starts_with(prefix))
    {
        return None;
    }
    let name = path.rsplit('/').next().unwrap();
    Some(
        if path.starts_with("anthropic/")
            || path.starts_with("minimax/")
            || name.contains("anthropic-format")
        {
            Protocol::Anthropic
        } else if path.starts_with("google/") {
            Protocol::Gemini
        } else if path.starts_with("ollama/attogram-") {
            Protocol::Ollama
        } else if name.contains("responses") {
            Protocol::Responses
        } else {
            Protocol::Chat
        },
    )
}

pub fn real_dir() -> PathBuf {
    crate::workspace_root().join("tests/fixtures/real")
}

pub fn all_fixtures() -> Vec<String> {
    let mut out = Vec::new();
    let root = real_dir();
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        if !dir.is_dir() || dir.ends_with("LICENSES") {
            continue;
        }
        for file in std::fs::read_dir(&dir).unwrap() {
            let file = file.unwrap().path();
            let rel = file
                .strip_prefix(&root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push(rel);
        }
    }
    out.sort();
    out
}

pub fn mapper(protocol: Protocol) -> Mapper {
    let (provider, model) = ("fixture", "recorded");
    match protocol {
        Protocol::Anthropic => Mapper::Anthropic(anthropic::EventMapper::new(provider, model)),
        Protocol::Chat => Mapper::OpenaiChat(openai_chat::EventMapper::new(
            provider,
            model,
            openai_chat::InlineThoughts::Tagged,
        )),
        Protocol::Responses => {
            Mapper::OpenaiResponses(openai_responses::EventMapper::new(provider, model))
        }
        Protocol::Gemini => Mapper::Gemini(gemini::EventMapper::new(provider, model)),
        Protocol::Ollama => Mapper::Ollama(ollama::EventMapper::new(provider, model)),
    }
}

/// The body as it comes off the wire: `.jsonl` recordings lost their SSE framing, so it is put back.
pub fn wire_bytes(path: &Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap();
    if path.extension().is_some_and(|e| e == "jsonl") {
        let text = String::from_utf8(bytes).unwrap();
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| format!("data: {l}\n\n"))
            .collect::<String>()
            .into_bytes()
    } else {
        bytes
    }
}

/// Whether a recording is a stream (rather than one whole JSON response).
pub fn is_stream(path: &str) -> bool {
    path.ends_with(".sse") || path.ends_with(".jsonl") || path.ends_with(".ndjson")
}

/// The JSON payloads of a recorded stream, one per event or line, in order.
pub fn payloads(protocol: Protocol, bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    if protocol == Protocol::Ollama {
        return text
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(str::to_owned)
            .collect();
    }
    text.split("\n\n")
        .filter_map(|event| {
            let data: Vec<&str> = event
                .lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .map(|d| d.strip_prefix(' ').unwrap_or(d))
                .collect();
            (!data.is_empty()).then(|| data.join("\n"))
        })
        .collect()
}

/// Frames payloads the way the protocol sends them: SSE `data:` events, or NDJSON lines.
pub fn frame(protocol: Protocol, payloads: &[String]) -> Vec<u8> {
    let mut out = String::new();
    for payload in payloads {
        if protocol == Protocol::Ollama {
            out.push_str(payload);
            out.push('\n');
        } else {
            out.push_str("data: ");
            out.push_str(payload);
            out.push_str("\n\n");
        }
    }
    out.into_bytes()
}
