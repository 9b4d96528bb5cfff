//! How `ponder-cli chat` shows a turn: streamed to the terminal (thoughts dimmed, then the
//! answer; feedback and notices on stderr), or as one JSON object with `--json`.

use std::io::Write;

use ponder_core::chat::{ChatEvent, Part, StopReason, ThoughtSource};
use ponder_core::run::RunEvent;
use serde::Serialize;
use serde_json::Value;

use crate::terminal::inert;

/// What `chat --json` prints.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsonAnswer<'a> {
    pub conversation: &'a str,
    pub message: Option<&'a str>,
    pub provider: &'a str,
    pub model: &'a str,
    pub parts: Vec<JsonPart<'a>>,
    pub usage: &'a ponder_core::chat::Usage,
    pub stop_reason: Option<&'a StopReason>,
    pub error: Option<Value>,
}

/// A part as `chat --json` prints it, borrowed from the turn (a long thought is megabytes).
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum JsonPart<'a> {
    Text {
        text: &'a str,
    },
    Thinking {
        text: &'a str,
        source: Option<ThoughtSource>,
        #[serde(skip_serializing_if = "Option::is_none")]
        signature: Option<&'a str>,
        #[serde(skip_serializing_if = "Option::is_none")]
        redacted: Option<&'a str>,
        #[serde(rename = "durationMs", skip_serializing_if = "Option::is_none")]
        duration_ms: Option<u64>,
    },
    ToolCall {
        id: &'a str,
        name: &'a str,
        arguments: &'a str,
    },
    Attachment {
        sha256: &'a str,
        kind: ponder_core::attachments::Kind,
        name: &'a str,
        bytes: u64,
    },
    ToolResult {
        #[serde(rename = "callId")]
        call_id: &'a str,
        name: &'a str,
        #[serde(rename = "isError")]
        is_error: bool,
        text: String,
    },
}

impl<'a> JsonPart<'a> {
    pub fn of(part: &'a Part) -> Self {
        match part {
            Part::Text { text } => Self::Text { text },
            Part::Thinking(block) => Self::Thinking {
                text: &block.text,
                source: block.source,
                signature: block.signature.as_deref(),
                redacted: block.redacted.as_deref(),
                duration_ms: block.duration_ms,
            },
            Part::ToolCall(call) => Self::ToolCall {
                id: &call.id,
                name: &call.name,
                arguments: &call.arguments,
            },
            Part::Attachment(file) => Self::Attachment {
                sha256: &file.sha256,
                kind: file.kind,
                name: &file.name,
                bytes: file.bytes,
            },
            Part::ToolResult(result) => Self::ToolResult {
                call_id: &result.call_id,
                name: &result.name,
                is_error: result.is_error,
                text: result.text(),
            },
        }
    }
}

/// How thoughts look in a terminal: dim and italic, apart from the answer.
const THOUGHT: anstyle::Style = anstyle::Style::new().dimmed().italic();

/// Streams to the terminal: feedback and notices on stderr, thoughts dimmed, then the answer.
pub struct Printer {
    stream: bool,
    color: bool,
    in_thought: bool,
    wrote: bool,
}

impl Printer {
    pub fn new(stream: bool) -> Self {
        Self {
            stream,
            // A terminal, unless NO_COLOR says otherwise (or CLICOLOR_FORCE insists).
            color: anstream::AutoStream::choice(&std::io::stdout()) != anstream::ColorChoice::Never,
            in_thought: false,
            wrote: false,
        }
    }

    pub fn on(&mut self, event: RunEvent<'_>) {
        match event {
            RunEvent::Plan(plan) => eprintln!("{}", plan.feedback.text()),
            RunEvent::Notice(notice) => eprintln!("note: {}", inert(&notice.to_string())),
            RunEvent::Retry(retry) => eprintln!(
                "retrying in {:.1} s (attempt {}): {}",
                retry.wait.as_secs_f64(),
                retry.attempt + 1,
                inert(&retry.error.message)
            ),
            RunEvent::Chat(event) if self.stream => self.chat(event),
            RunEvent::Chat(_) => {}
        }
    }

    fn chat(&mut self, event: ChatEvent) {
        let mut out = std::io::stdout().lock();
        // A closed stdout (`| head`) is not worth failing the turn for.
        let _ = match event {
            ChatEvent::ThinkingStart { .. } => {
                self.in_thought = true;
                if self.color {
                    write!(out, "{}", THOUGHT.render())
                } else {
                    writeln!(out, "Thinking:")
                }
            }
            // What the model wrote is shown, never acted on by the terminal.
            ChatEvent::ThinkingDelta { text } => write!(out, "{}", inert(&text)),
            ChatEvent::ThinkingRedacted { .. } => writeln!(out, "[redacted thinking]"),
            ChatEvent::ThinkingEnd => {
                self.in_thought = false;
                if self.color {
                    write!(out, "{}\n\n", THOUGHT.render_reset())
                } else {
                    write!(out, "\n\n")
                }
            }
            ChatEvent::TextDelta { text } => {
                self.wrote = true;
                write!(out, "{}", inert(&text))
            }
            _ => Ok(()),
        };
        let _ = out.flush();
    }

    pub fn end(&mut self) {
        if !self.stream {
            return;
        }
        let mut out = std::io::stdout().lock();
        if self.in_thought && self.color {
            let _ = write!(out, "{}", THOUGHT.render_reset());
        }
        if self.wrote || self.in_thought {
            let _ = writeln!(out);
        }
    }
}
