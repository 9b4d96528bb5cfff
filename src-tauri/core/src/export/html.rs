//! The HTML page: one standalone file that opens offline. No scripts at all, inline CSS,
//! a Content-Security-Policy that forbids everything but that CSS (`POLICY`), and everything from users
//! and models — titles, text, thoughts, model names, errors — escaped and shown as plain text
//! with its line breaks. Model output is untrusted: no link or image is ever made from it.

use std::fmt::Write;

use super::files::FileLinks;
use super::{
    Branch, Piece, REDACTED_NOTE, Thoughts, header, model_line, notes, pieces, speaker,
    thought_label, title, tool_result_label,
};
use crate::chat::{Attachment, Role, ThinkingBlock};
use crate::store::{Conversation, StoredMessage};

/// Light by default, dark when the system is; thoughts are italic on a background darker
/// than the page in light mode and lighter than it in dark mode.
const STYLE: &str = "\
:root{color-scheme:light dark;--page:#ffffff;--ink:#1f2328;--muted:#59636e;--line:#d1d9e0;--you:#f3f5f7;--thought:#eceff2;--thought-ink:#3a4149;--error:#b42318}
@media (prefers-color-scheme:dark){:root{--page:#16181b;--ink:#e6e9ed;--muted:#9aa2ab;--line:#30363d;--you:#1e2125;--thought:#272b31;--thought-ink:#c6ccd3;--error:#ff8b7e}}
*{box-sizing:border-box}
body{margin:0;background:var(--page);color:var(--ink);font:16px/1.6 system-ui,-apple-system,\"Segoe UI\",Roboto,sans-serif}
header,main,footer{max-width:48rem;margin:0 auto;padding:0 1.25rem}
h1{font-size:1.6rem;line-height:1.3;margin:2rem 0 .25rem;overflow-wrap:anywhere}
.meta{color:var(--muted);font-size:.875rem;margin:0 0 1.5rem}
.message{border-top:1px solid var(--line);padding:1rem 0}
.speaker{font-size:1rem;margin:0 0 .5rem}
.model{font-weight:400;color:var(--muted);font-size:.875rem;overflow-wrap:anywhere}
.text,.thought-text,.arguments{white-space:pre-wrap;overflow-wrap:anywhere;margin:0}
.user .text{background:var(--you);border-radius:.5rem;padding:.75rem 1rem}
.assistant .text{margin:.75rem 0}
.thought{font-style:italic;background:var(--thought);color:var(--thought-ink);border-radius:.5rem;padding:.5rem 1rem;margin:.75rem 0}
.thought summary,.thought-label{font-size:.875rem;font-weight:600;color:var(--muted);margin:0}
.thought summary{cursor:pointer}
details.thought[open] summary{margin-bottom:.5rem}
section.thought .thought-label{margin-bottom:.5rem}
.tool{margin:.75rem 0;font-size:.875rem}
.tool-name{margin:0 0 .25rem;color:var(--muted)}
.arguments{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.8125rem;background:var(--you);border-radius:.375rem;padding:.5rem .75rem}
.note{font-size:.875rem;color:var(--muted);font-style:italic;margin:.5rem 0 0}
.note.error{color:var(--error);font-style:normal;font-weight:600}
.version{border-left:3px solid var(--line);padding-left:1rem;margin:1.5rem 0}
.attachment{font-size:.875rem;color:var(--muted);margin:.5rem 0}
.attachment img{display:block;max-width:100%;max-height:32rem;border-radius:.375rem;margin:0 0 .25rem}
.version-label{font-size:.875rem;font-weight:600;color:var(--muted);margin:0;padding-top:.75rem}
footer{color:var(--muted);font-size:.75rem;padding-top:1rem;padding-bottom:2rem;border-top:1px solid var(--line)}
";

/// Nothing but the inline style: no fetch of any kind (`default-src`), and neither a base
/// address nor a form target, which `default-src` does not cover.
/// Images only as `data:` URLs, which the page carries itself (attached images, never
/// anything a model wrote).
pub(super) const POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

pub(super) fn render(
    conv: &Conversation,
    branches: &[Branch],
    thoughts: Thoughts,
    files: &FileLinks,
) -> String {
    let title = escape(&title(conv));
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    let _ = writeln!(
        out,
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\">"
    );
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<meta name=\"referrer\" content=\"no-referrer\">\n");
    let _ = writeln!(out, "<title>{title}</title>");
    let _ = writeln!(out, "<style>\n{STYLE}</style>\n</head>\n<body>");
    let _ = writeln!(out, "<header>\n<h1>{title}</h1>");
    let _ = writeln!(
        out,
        "<p class=\"meta\">{}</p>\n</header>\n<main>",
        escape(&header(conv, branches))
    );
    for branch in branches {
        // Each version other than the path shown sits in its own section, under its label.
        if let Some(label) = &branch.label {
            let _ = writeln!(
                out,
                "<section class=\"version\">\n<h2 class=\"version-label\">{}</h2>",
                escape(label)
            );
        }
        for stored in &branch.messages {
            message(&mut out, stored, thoughts, files);
        }
        if branch.label.is_some() {
            out.push_str("</section>\n");
        }
    }
    out.push_str("</main>\n<footer><p>Exported from Ponder.</p></footer>\n</body>\n</html>\n");
    out
}

fn message(out: &mut String, stored: &StoredMessage, thoughts: Thoughts, files: &FileLinks) {
    let class = match stored.message.role {
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::Tool => "tool",
    };
    let _ = writeln!(out, "<article class=\"message {class}\">");
    let _ = write!(out, "<h2 class=\"speaker\">{}", speaker(&stored.message));
    if let Some(model) = model_line(stored) {
        let _ = write!(out, " <span class=\"model\">· {}</span>", escape(&model));
    }
    out.push_str("</h2>\n");
    for piece in pieces(&stored.message, thoughts) {
        match piece {
            Piece::Text(text) => {
                let _ = writeln!(
                    out,
                    "<div class=\"text\">{}</div>",
                    escape(text.trim_matches('\n'))
                );
            }
            Piece::Thought(block) => thought(out, block, thoughts),
            Piece::Tool(call) => {
                let _ = writeln!(
                    out,
                    "<div class=\"tool\"><p class=\"tool-name\">Tool call: <code>{}</code></p><div class=\"arguments\">{}</div></div>",
                    escape(&call.name),
                    escape(call.arguments.trim_matches('\n'))
                );
            }
            Piece::Attachment(file) => attachment(out, file, files),
            Piece::ToolResult(result) => {
                let class = if result.is_error {
                    "tool error"
                } else {
                    "tool"
                };
                let _ = writeln!(
                    out,
                    "<details class=\"{class}\"><summary class=\"tool-name\">{}</summary><div class=\"arguments\">{}</div></details>",
                    escape(&tool_result_label(result)),
                    escape(result.text().trim_matches('\n'))
                );
            }
        }
    }
    for (error, note) in notes(stored) {
        let class = if error { "note error" } else { "note" };
        let _ = writeln!(out, "<p class=\"{class}\">{}</p>", escape(&note));
    }
    out.push_str("</article>\n");
}

fn thought(out: &mut String, block: &ThinkingBlock, thoughts: Thoughts) {
    let label = escape(&thought_label(block, thoughts));
    let body = if block.is_redacted() {
        REDACTED_NOTE
    } else {
        block.text.trim_matches('\n')
    };
    let body = escape(body);
    let kind = if block.is_redacted() { " redacted" } else { "" };
    match thoughts {
        Thoughts::Details => {
            let _ = writeln!(
                out,
                "<details class=\"thought{kind}\"><summary>{label}</summary><div class=\"thought-text\">{body}</div></details>"
            );
        }
        Thoughts::Section => {
            let _ = writeln!(
                out,
                "<section class=\"thought{kind}\"><p class=\"thought-label\">{label}</p><div class=\"thought-text\">{body}</div></section>"
            );
        }
        Thoughts::Omit => {}
    }
}

/// Escapes text for HTML content and attribute values alike.
pub(super) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '\0' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// A file: an image shown inline, its label linked to its copy beside the page where
/// there is one.
fn attachment(out: &mut String, file: &Attachment, files: &FileLinks) {
    let label = escape(&super::attachment_label(file));
    let named = match files.link(file) {
        Some(path) => format!("<a href=\"{}\">{label}</a>", escape(&href(&path))),
        None => label,
    };
    match files.inline(file) {
        Some(url) => {
            let _ = writeln!(
                out,
                "<figure class=\"attachment\"><img src=\"{url}\" alt=\"{}\"><figcaption>Attached: {named}</figcaption></figure>",
                escape(&file.name)
            );
        }
        None => {
            let _ = writeln!(out, "<p class=\"attachment\">Attached: {named}</p>");
        }
    }
}

/// A relative path as a URL: every byte but letters, digits, `/` and `-._~` escaped, so a
/// name can neither end the attribute nor become a scheme.
fn href(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}
