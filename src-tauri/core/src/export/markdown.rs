//! The Markdown transcript: a title, then each message under a heading naming its speaker
//! (and, for the assistant, the model and thinking level), thoughts as the user chose.

use std::fmt::Write;

use super::files::FileLinks;
use super::{
    Branch, Piece, REDACTED_NOTE, Thoughts, header, model_line, notes, pieces, speaker,
    thought_label, title, tool_result_label,
};
use crate::chat::{Attachment, ThinkingBlock};
use crate::store::{Conversation, StoredMessage};

pub(super) fn render(
    conv: &Conversation,
    branches: &[Branch],
    thoughts: Thoughts,
    files: &FileLinks,
) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "# {}\n", title(conv));
    let _ = writeln!(out, "*{}*", header(conv, branches));
    for (i, branch) in branches.iter().enumerate() {
        // The path shown reads as the conversation; each other version under its label.
        let level = match &branch.label {
            Some(label) => {
                let _ = writeln!(out, "\n---\n\n## {}", one_line(label));
                "###"
            }
            None if i == 0 => "##",
            None => "###",
        };
        for stored in &branch.messages {
            message(&mut out, stored, thoughts, level, files);
        }
    }
    out
}

fn message(
    out: &mut String,
    stored: &StoredMessage,
    thoughts: Thoughts,
    level: &str,
    files: &FileLinks,
) {
    out.push('\n');
    match model_line(stored) {
        Some(model) => {
            let _ = writeln!(
                out,
                "{level} {} · {}",
                speaker(&stored.message),
                one_line(&model)
            );
        }
        None => {
            let _ = writeln!(out, "{level} {}", speaker(&stored.message));
        }
    }
    for piece in pieces(&stored.message, thoughts) {
        out.push('\n');
        match piece {
            Piece::Text(text) => {
                out.push_str(text.trim_matches('\n'));
                out.push('\n');
            }
            Piece::Thought(block) => thought(out, block, thoughts),
            Piece::Tool(call) => {
                let _ = writeln!(
                    out,
                    "**Tool call:** `{}`\n",
                    one_line(&call.name).replace('`', "'")
                );
                let fence = fence(&call.arguments);
                let _ = writeln!(
                    out,
                    "{fence}json\n{}\n{fence}",
                    call.arguments.trim_matches('\n')
                );
            }
            Piece::Attachment(file) => attachment(out, file, files),
            Piece::ToolResult(result) => {
                // Folded: a result can be long, and the answer is what a reader wants.
                let text = result.text();
                let fence = fence(&text);
                let _ = writeln!(
                    out,
                    "<details>\n<summary>{}</summary>\n\n{fence}\n{}\n{fence}\n\n</details>",
                    html_escape(&one_line(&tool_result_label(result))),
                    text.trim_matches('\n')
                );
            }
        }
    }
    for (error, note) in notes(stored) {
        let note = one_line(&note);
        out.push('\n');
        if error {
            let _ = writeln!(out, "> **{note}**");
        } else {
            let _ = writeln!(out, "*{note}*");
        }
    }
}

fn thought(out: &mut String, block: &ThinkingBlock, thoughts: Thoughts) {
    let label = thought_label(block, thoughts);
    let body = if block.is_redacted() {
        REDACTED_NOTE
    } else {
        block.text.trim_matches('\n')
    };
    match thoughts {
        Thoughts::Details => {
            // A `</details>` in the thoughts would close the fold early.
            let body = body.replace("</details", "&lt;/details");
            let _ = writeln!(
                out,
                "<details>\n<summary>{label}</summary>\n\n{body}\n\n</details>"
            );
        }
        Thoughts::Section => {
            let _ = writeln!(out, "> **{label}**\n>");
            for line in body.lines() {
                if line.is_empty() {
                    out.push_str(">\n");
                } else {
                    let _ = writeln!(out, "> {line}");
                }
            }
        }
        Thoughts::Omit => {}
    }
}

/// For the one line of HTML Markdown allows in a `<summary>`.
fn html_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A code fence longer than any run of backticks in `text`.
fn fence(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    "`".repeat(longest.max(2) + 1)
}

/// A file: its label, linked to its copy beside the transcript where there is one, and an
/// image shown from there.
fn attachment(out: &mut String, file: &Attachment, files: &FileLinks) {
    let label = html_escape(&one_line(&super::attachment_label(file)));
    match files.link(file) {
        Some(path) => {
            let text = label.replace('[', "\\[").replace(']', "\\]");
            let _ = writeln!(out, "**Attached:** [{text}](<{path}>)\n");
            if file.kind.is_image() {
                let _ = writeln!(out, "![{text}](<{path}>)\n");
            }
        }
        None => {
            let _ = writeln!(out, "**Attached:** {label}\n");
        }
    }
}
