//! How much of a conversation a turn sends, and what it tells the user about it.

use super::*;
use crate::catalog::Catalog;
use crate::catalog::ModelInfo;
use crate::chat::Message;
use crate::chat::Role;
use crate::reasoning::choice::Choice;
use crate::reasoning::overrides::Overrides;
use crate::reasoning::settings::ReasoningSettings;

/// `turns` exchanges of about `tokens` tokens each (Anthropic is estimated at four
/// characters a token), then a new question.
fn long_history(turns: usize, tokens: usize) -> Vec<Message> {
    let mut history = Vec::new();
    for i in 0..turns {
        history.push(Message::user(format!(
            "q{i} {}",
            "x".repeat(tokens * 4 / 2)
        )));
        history.push(Message {
            role: Role::Assistant,
            parts: vec![crate::chat::Part::Text {
                text: "y".repeat(tokens * 4 / 2),
            }],
            origin: None,
            replay: None,
        });
    }
    history.push(Message::user("And now?"));
    history
}

fn request<'a>(
    model: &'a ModelInfo,
    settings: &'a ReasoningSettings,
    overrides: &'a Overrides,
) -> TurnRequest<'a> {
    TurnRequest {
        model,
        choice: Choice::HIGH,
        overrides,
        settings,
        system: None,
        history: &[],
        base_url: None,
        api: None,
        api_key: None,
        context_tokens: 0,
        tools: &[],
        renew_key: None,
    }
}

#[test]
fn a_long_conversation_reaches_the_long_context_cut_instead_of_being_trimmed() {
    let model = Catalog::builtin()
        .resolve(Some("anthropic"), "claude-opus-4-5")
        .unwrap();
    let (settings, overrides) = (ReasoningSettings::default(), Overrides::default());
    // About 160,000 tokens: past the 150,000 line, well inside a 200,000 window.
    let history = long_history(16, 10_000);
    let mut turn = request(&model, &settings, &overrides);
    let (sent, left_out, tokens) = fit_history(&history, &turn);
    assert_eq!(left_out, 0, "nothing is left out ({tokens} tokens)");
    assert!(tokens > 150_000, "{tokens}");
    turn.history = sent;
    turn.context_tokens = tokens;
    let plan = prepare(&turn).unwrap().plan;
    assert_eq!(plan.thinking_budget(), Some(10_000));
    assert_eq!(plan.output_cap(), Some(14_000));
    assert!(
        plan.feedback.thinking.contains("reduced to 10,000"),
        "the feedback line says so: {}",
        plan.feedback.thinking
    );
    // The prompt and the answer's cap fit the window together.
    assert!(tokens + 14_000 <= u64::from(model.context_window));
}

#[test]
fn the_long_context_cut_is_a_setting() {
    let model = Catalog::builtin()
        .resolve(Some("anthropic"), "claude-opus-4-5")
        .unwrap();
    let settings = ReasoningSettings {
        long_context_cut: false,
        ..ReasoningSettings::default()
    };
    let overrides = Overrides::default();
    let history = long_history(16, 10_000);
    let mut turn = request(&model, &settings, &overrides);
    let (sent, left_out, tokens) = fit_history(&history, &turn);
    assert_eq!(left_out, 0);
    turn.history = sent;
    turn.context_tokens = tokens;
    let plan = prepare(&turn).unwrap().plan;
    // Not cut to 10,000: the budget takes what the window has left, with room for the answer.
    let (budget, cap) = (plan.thinking_budget().unwrap(), plan.output_cap().unwrap());
    assert!(budget > 30_000, "{:?}", plan.request);
    assert!(!plan.feedback.thinking.contains("reduced to 10,000"));
    assert!(
        plan.feedback.thinking.contains("capped to"),
        "{}",
        plan.feedback.thinking
    );
    assert!(
        tokens + u64::from(cap) <= u64::from(model.context_window),
        "{tokens} + {cap}"
    );
}

#[test]
fn a_separate_input_limit_keeps_no_room_for_the_answer() {
    // OpenAI counts the input on its own: a history just under the input limit is sent whole.
    let model = Catalog::builtin()
        .resolve(Some("openai"), "gpt-5.4")
        .unwrap();
    assert!(!model.provider.output_shares_window);
    let (settings, overrides) = (ReasoningSettings::default(), Overrides::default());
    let history = long_history(2, 10_000);
    let (_, left_out, _) = fit_history(&history, &request(&model, &settings, &overrides));
    assert_eq!(left_out, 0);
}
