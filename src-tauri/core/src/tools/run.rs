//! Running one call: find the tool, check the arguments, ask, call, and turn whatever
//! happens into a result the model can read.

use std::future::Future;
use std::pin::Pin;
use std::time::{Duration, Instant};

use serde_json::{Map, Value};

use super::{ApprovalRequest, Approver, Toolbox};
use crate::chat::{ToolCall, ToolContent, ToolResult, ToolSpec};
use crate::mcp::Hub;

/// How far a tool loop and its calls may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Model steps in one turn before Ponder stops the loop.
    pub max_steps: usize,
    pub call_timeout: Duration,
    /// The longest text result sent to the model; longer ones are cut, with a note.
    pub max_result_chars: usize,
    /// The largest image (base64 bytes) sent on; larger ones are named, not sent.
    pub max_image_bytes: usize,
    /// The most a whole result may carry (text and base64 bytes): a result is stored and sent
    /// with every later step, and any number of images may each be under the limit above.
    pub max_result_bytes: usize,
}

pub const LIMITS: Limits = Limits {
    max_steps: 25,
    call_timeout: Duration::from_secs(60),
    max_result_chars: 100_000,
    max_image_bytes: 5 * 1024 * 1024,
    max_result_bytes: 20 * 1024 * 1024,
};

impl Limits {
    /// The limits with the user's step limit and call timeout (Settings, or the settings
    /// file the CLI reads), each kept within bounds a hand-edited file cannot break: a
    /// loop of 0 steps would never ask, one of millions would never stop.
    pub fn with_user(steps: Option<u64>, timeout_secs: Option<u64>) -> Self {
        Self {
            max_steps: steps.map_or(LIMITS.max_steps, |s| s.clamp(1, 200) as usize),
            call_timeout: timeout_secs.map_or(LIMITS.call_timeout, |s| {
                Duration::from_secs(s.clamp(1, 3600))
            }),
            ..LIMITS
        }
    }
}

/// Whatever runs the model's calls.
pub trait ToolHost: Send + Sync {
    /// The tools offered to the model.
    fn specs(&self) -> Vec<ToolSpec>;
    /// Runs one call. Never fails: a failure is an error result.
    fn run<'a>(
        &'a self,
        call: &'a ToolCall,
    ) -> Pin<Box<dyn Future<Output = ToolResult> + Send + 'a>>;
    /// Which server a tool of this name is on, for the card the user sees.
    fn server_of(&self, name: &str) -> Option<String>;
}

/// Tools from MCP servers, asked for by the approver.
pub struct McpTools<'a> {
    pub hub: &'a Hub,
    pub toolbox: Toolbox,
    pub approver: &'a dyn Approver,
    pub limits: Limits,
}

impl ToolHost for McpTools<'_> {
    fn specs(&self) -> Vec<ToolSpec> {
        self.toolbox.specs()
    }

    fn server_of(&self, name: &str) -> Option<String> {
        self.toolbox.find(name).map(|t| t.server.clone())
    }

    fn run<'a>(
        &'a self,
        call: &'a ToolCall,
    ) -> Pin<Box<dyn Future<Output = ToolResult> + Send + 'a>> {
        Box::pin(async move {
            let started = Instant::now();
            let mut result = match self.checked(call) {
                Err(message) => ToolResult::error(call, message),
                Ok((server, tool, arguments)) => {
                    let request = ApprovalRequest {
                        call_id: call.id.clone(),
                        server: server.clone(),
                        tool: tool.clone(),
                        arguments: Value::Object(arguments.clone()),
                    };
                    if self.approver.approve(&request).await.allows() {
                        match self
                            .hub
                            .call(&server, &tool, arguments, self.limits.call_timeout)
                            .await
                        {
                            Ok(output) => ToolResult {
                                call_id: call.id.clone(),
                                name: call.name.clone(),
                                content: output.content,
                                is_error: output.is_error,
                                duration_ms: None,
                            },
                            Err(error) => ToolResult::error(call, error.to_string()),
                        }
                    } else {
                        ToolResult::error(
                            call,
                            "The user denied this tool call. Do not try it again; go on without it or ask the user.",
                        )
                    }
                }
            };
            bound(&mut result, &self.limits);
            result.duration_ms =
                Some(u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX));
            result
        })
    }
}

impl McpTools<'_> {
    /// The server, its name for the tool and the arguments, or why the call cannot run.
    fn checked(&self, call: &ToolCall) -> Result<(String, String, Map<String, Value>), String> {
        let Some(offered) = self.toolbox.find(&call.name) else {
            let names: Vec<String> = self.toolbox.iter().map(|t| t.spec.name.clone()).collect();
            return Err(format!(
                "There is no tool named {:?}. The tools are: {}.",
                call.name,
                names.join(", ")
            ));
        };
        let text = if call.arguments.trim().is_empty() {
            "{}"
        } else {
            call.arguments.as_str()
        };
        let arguments = match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(map)) => map,
            Ok(_) => return Err("The arguments must be a JSON object.".to_owned()),
            Err(e) => return Err(format!("The arguments are not valid JSON: {e}.")),
        };
        if let Ok(validator) = jsonschema::validator_for(&offered.spec.input_schema) {
            let instance = Value::Object(arguments.clone());
            let problems: Vec<String> = validator
                .iter_errors(&instance)
                .take(5)
                .map(|e| {
                    let at = e.instance_path().to_string();
                    if at.is_empty() {
                        e.to_string()
                    } else {
                        format!("{at}: {e}")
                    }
                })
                .collect();
            if !problems.is_empty() {
                return Err(format!(
                    "The arguments do not match the tool's schema: {}.",
                    problems.join("; ")
                ));
            }
        }
        Ok((offered.server.clone(), offered.tool.clone(), arguments))
    }
}

/// Cuts a result down to what a context window can take, saying what was cut. A cut result
/// is marked as an error: the model must not take part of an answer for all of it.
fn bound(result: &mut ToolResult, limits: &Limits) {
    let mut budget = limits.max_result_chars;
    let mut cut = false;
    for item in &mut result.content {
        match item {
            ToolContent::Text { text } => {
                let chars = text.chars().count();
                if chars > budget {
                    let kept: String = text.chars().take(budget).collect();
                    *text = format!(
                        "{kept}\n[Ponder cut this result: {} characters in all, the first {} are above]",
                        chars, budget
                    );
                    budget = 0;
                    cut = true;
                } else {
                    budget -= chars;
                }
            }
            ToolContent::Image { mime_type, data } if data.len() > limits.max_image_bytes => {
                *item = ToolContent::Text {
                    text: format!(
                        "[an image ({mime_type}, {} bytes) too large to send on]",
                        data.len() / 4 * 3
                    ),
                };
                cut = true;
            }
            ToolContent::Image { .. } => {}
        }
    }
    cut |= keep_within_total(result, limits.max_result_bytes);
    result.is_error |= cut;
}

/// Keeps the result's first parts that fit in `max_bytes` in all and names what was left out;
/// true when something was.
fn keep_within_total(result: &mut ToolResult, max_bytes: usize) -> bool {
    let size = |item: &ToolContent| match item {
        ToolContent::Text { text } => text.len(),
        ToolContent::Image { data, .. } => data.len(),
    };
    let mut total = 0usize;
    let fits = result
        .content
        .iter()
        .take_while(|item| {
            total += size(item);
            total <= max_bytes
        })
        .count();
    if fits == result.content.len() {
        return false;
    }
    let left_out: Vec<ToolContent> = result.content.drain(fits..).collect();
    let bytes: usize = left_out.iter().map(size).sum();
    result.content.push(ToolContent::Text {
        text: format!(
            "[Ponder left out the rest of this result, {} more {} ({:.1} MiB): a tool result may carry at most {} MiB in all]",
            left_out.len(),
            if left_out.len() == 1 { "part" } else { "parts" },
            bytes as f64 / (1024.0 * 1024.0),
            max_bytes / (1024 * 1024)
        ),
    });
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_users_limits_are_kept_within_bounds() {
        let cases = [
            ((None, None), (25, 60)),
            ((Some(10), Some(5)), (10, 5)),
            ((Some(0), Some(0)), (1, 1)),
            ((Some(1_000_000), Some(u64::MAX)), (200, 3600)),
        ];
        for ((steps, secs), (want_steps, want_secs)) in cases {
            let limits = Limits::with_user(steps, secs);
            assert_eq!(
                (limits.max_steps, limits.call_timeout.as_secs()),
                (want_steps, want_secs),
                "{steps:?} steps, {secs:?} s"
            );
            assert_eq!(limits.max_result_chars, LIMITS.max_result_chars);
        }
    }

    #[test]
    fn long_results_are_cut_with_a_note_and_big_images_named() {
        let limits = Limits {
            max_result_chars: 10,
            max_image_bytes: 8,
            ..LIMITS
        };
        let mut result = ToolResult {
            call_id: "c".into(),
            name: "t".into(),
            content: vec![
                ToolContent::Text {
                    text: "0123456789abcdef".into(),
                },
                ToolContent::Image {
                    mime_type: "image/png".into(),
                    data: "AAAAAAAAAAAA".into(),
                },
                ToolContent::Image {
                    mime_type: "image/png".into(),
                    data: "AAAA".into(),
                },
            ],
            is_error: false,
            duration_ms: None,
        };
        bound(&mut result, &limits);
        let ToolContent::Text { text } = &result.content[0] else {
            panic!()
        };
        assert!(text.starts_with("0123456789\n[Ponder cut this result: 16 characters"));
        assert!(
            matches!(&result.content[1], ToolContent::Text { text } if text.contains("too large"))
        );
        assert!(matches!(&result.content[2], ToolContent::Image { .. }));
        assert!(result.is_error, "part of an answer is not all of it");
    }

    #[test]
    fn a_result_is_cut_to_its_total_with_a_note_of_what_was_left_out() {
        let limits = Limits {
            max_image_bytes: 8,
            max_result_bytes: 20,
            ..LIMITS
        };
        let image = || ToolContent::Image {
            mime_type: "image/png".into(),
            data: "AAAAAAAA".into(),
        };
        let mut result = ToolResult {
            call_id: "c".into(),
            name: "t".into(),
            content: vec![image(), image(), image(), image()],
            is_error: false,
            duration_ms: None,
        };
        bound(&mut result, &limits);
        assert_eq!(result.content.len(), 3, "two images and the note");
        let ToolContent::Text { text } = &result.content[2] else {
            panic!("{:?}", result.content[2])
        };
        assert!(
            text.contains("left out the rest of this result, 2 more parts"),
            "{text}"
        );
        assert!(result.is_error);
    }
}
