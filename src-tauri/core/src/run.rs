//! `run_turn`: the one place that joins reasoning, request building, HTTP and the stream.
//! history + settings → plan → request → stream → fold → exactly one terminal outcome.

use std::time::Instant;

use tokio_util::sync::CancellationToken;

use crate::chat::{ChatEvent, Message, Origin, StopReason};
use crate::draft::{Draft, Turn};
use crate::providers::error::{ErrorKind, ProviderError};
use crate::providers::http::{self, Attempt, HttpConfig, HttpRequest, RetryNotice};
use crate::providers::request::{WireInput, to_wire};
use crate::providers::stream::StreamDecoder;
use crate::providers::{endpoint_url, mapper_for, request_headers};
use crate::reasoning::catalog::ModelInfo;
use crate::reasoning::choice::Choice;
use crate::reasoning::overrides::Overrides;
use crate::reasoning::plan::{Api, Plan, TurnContext};
use crate::reasoning::settings::ReasoningSettings;
use crate::reasoning::translate::{TranslateError, translate};

/// Everything one turn needs.
#[derive(Debug, Clone, Copy)]
pub struct TurnRequest<'a> {
    pub model: &'a ModelInfo,
    pub choice: Choice,
    pub overrides: &'a Overrides,
    pub settings: &'a ReasoningSettings,
    pub system: Option<&'a str>,
    /// The conversation, oldest first, ending with the user's new message.
    pub history: &'a [Message],
    /// Overrides the provider's base URL (a proxy, a local server, the mock provider).
    pub base_url: Option<&'a str>,
    pub api: Option<Api>,
    pub api_key: Option<&'a str>,
    /// Effective tokens already in the conversation.
    pub context_tokens: u64,
}

/// What the caller hears while a turn runs.
#[derive(Debug, Clone)]
pub enum RunEvent<'a> {
    /// The plan the engine made (feedback line, warnings), before anything is sent.
    Plan(&'a Plan),
    /// How the history was sent, where the provider's rules beat the settings.
    Notice(String),
    /// An attempt failed before any answer arrived and will be repeated.
    Retry(RetryNotice),
    /// A normalised stream event.
    Chat(ChatEvent),
}

/// The one terminal outcome of a turn. The turn holds whatever arrived, in every case.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Done(Turn),
    Failed(Turn),
    Cancelled(Turn),
}

impl Outcome {
    pub fn turn(&self) -> &Turn {
        match self {
            Self::Done(t) | Self::Failed(t) | Self::Cancelled(t) => t,
        }
    }
}

pub fn plan_for(request: &TurnRequest<'_>) -> Result<Plan, TranslateError> {
    // `enabled = false` sends no reasoning parameters; thoughts a model returns are still kept.
    let choice = if request.settings.enabled {
        request.choice
    } else {
        Choice::Default
    };
    let ctx = TurnContext {
        api: request.api,
        max_output: request.settings.max_output_tokens,
        context_tokens: request.context_tokens,
        long_context_reduction: request.settings.long_context_cut,
        ..TurnContext::default()
    };
    translate(choice, request.model, request.overrides, &ctx)
}

/// What a turn sends: the plan, and the HTTP request built from it and the history.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub plan: Plan,
    pub http: HttpRequest,
    /// How the history was sent, where the provider's rules beat the settings.
    pub notices: Vec<String>,
}

/// Builds exactly what `run_turn` sends, without sending it (the request preview uses it).
pub fn prepare(request: &TurnRequest<'_>) -> Result<Prepared, TranslateError> {
    let model = request.model;
    let plan = plan_for(request)?;
    let wire = to_wire(WireInput {
        model,
        plan: &plan,
        settings: request.settings,
        system: request.system,
        history: request.history,
    });
    let http = HttpRequest {
        url: endpoint_url(model, &plan, request.base_url),
        headers: request_headers(model, &plan, request.api_key),
        body: serde_json::to_vec(&wire.body).unwrap_or_default(),
    };
    Ok(Prepared {
        plan,
        http,
        notices: wire.notices,
    })
}

/// What a turn's note line says: how the level was read (with any cut), and every warning
/// and note of the plan. The "switched to" headline is for changing models, not for turns.
pub fn turn_notes(plan: &Plan) -> Vec<String> {
    let feedback = &plan.feedback;
    let mut lines = vec![feedback.thinking.clone()];
    lines.extend(plan.warnings.iter().map(|w| format!("⚠ {w}")));
    lines.extend(feedback.notes.iter().cloned());
    lines
}

/// Room an answer is given in a shared window when the plan names no output cap.
const DEFAULT_ANSWER_ROOM: u32 = 16_384;

/// The newest part of `history` that fits the model's window, how many messages were left
/// out, and its effective tokens. Where the answer counts against the same window as the
/// prompt (Anthropic, most OpenAI-compatible servers), room is left for the output cap the
/// plan will actually send — not the model's whole output limit, which would keep a 200K
/// model below the 150K at which long conversations get smaller budgets.
pub fn fit_history<'h>(
    history: &'h [Message],
    request: &TurnRequest<'_>,
) -> (&'h [Message], usize, u64) {
    use crate::providers::context::{effective_tokens, fit_to_window};

    let model = request.model;
    let room_for = |context_tokens: u64| -> u32 {
        if !model.provider.output_shares_window {
            return 0;
        }
        let planned = plan_for(&TurnRequest {
            context_tokens,
            ..*request
        })
        .ok()
        .and_then(|plan| plan.output_cap());
        planned.unwrap_or_else(|| model.max_output.min(DEFAULT_ANSWER_ROOM))
    };
    let all = effective_tokens(history, request.settings, model).tokens;
    let mut room = room_for(all);
    loop {
        let (sent, left_out) = fit_to_window(history, request.settings, model, room);
        let tokens = if left_out == 0 {
            all
        } else {
            effective_tokens(sent, request.settings, model).tokens
        };
        // Fewer tokens can mean a bigger budget again (under the long-context line), and so
        // a bigger cap: fit once more with it. The cap only grows, so this ends.
        let needed = room_for(tokens);
        if needed <= room {
            return (sent, left_out, tokens);
        }
        room = needed;
    }
}

pub async fn run_turn(
    client: &reqwest::Client,
    config: &HttpConfig,
    request: TurnRequest<'_>,
    cancel: CancellationToken,
    mut on_event: impl FnMut(RunEvent<'_>),
) -> Outcome {
    let started = Instant::now();
    let model = request.model;
    let provider = model.provider.id.as_str();
    let origin = Origin {
        provider: provider.to_owned(),
        model: model.id.clone(),
    };
    let Prepared {
        plan,
        http: http_request,
        notices,
    } = match prepare(&request) {
        Ok(prepared) => prepared,
        Err(err) => {
            let draft = Draft::new(origin, crate::chat::ThoughtSource::Reasoning);
            return fail(
                draft,
                ProviderError::new(provider, ErrorKind::BadRequest, err.to_string()),
                0,
                &mut on_event,
            );
        }
    };
    on_event(RunEvent::Plan(&plan));
    for notice in notices {
        on_event(RunEvent::Notice(notice));
    }
    let mapper = mapper_for(model, &plan);
    let mut draft = Draft::new(origin, mapper.default_source());
    let mut decoder = StreamDecoder::new(mapper);
    let elapsed = || u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);

    let mut response =
        match http::send(client, provider, &http_request, config, &cancel, |notice| {
            on_event(RunEvent::Retry(notice.clone()));
        })
        .await
        {
            Ok(response) => response,
            Err(Attempt::Cancelled) => return cancelled(draft, elapsed(), &mut on_event),
            Err(Attempt::Failed(error)) => return fail(draft, error, elapsed(), &mut on_event),
        };
    let html = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("text/html"));
    if html {
        let error = ProviderError::decode(
            provider,
            "the provider answered with a web page instead of a stream; check the base URL",
        );
        return fail(draft, error, elapsed(), &mut on_event);
    }

    let mut raw = Vec::new();
    let mut normalised = Vec::new();
    loop {
        let chunk = match http::next_chunk(&mut response, provider, config, &cancel).await {
            Ok(Some(chunk)) => chunk,
            Ok(None) => break,
            Err(stopped) => {
                // Keep what was held back (a partial tag); an unfinished turn is not
                // something to replay to the provider.
                decoder.finish(&mut raw);
                forward(
                    &mut draft,
                    &mut raw,
                    &mut normalised,
                    elapsed(),
                    &mut on_event,
                );
                return match stopped {
                    Attempt::Cancelled => cancelled(draft, elapsed(), &mut on_event),
                    Attempt::Failed(error) => fail(draft, error, elapsed(), &mut on_event),
                };
            }
        };
        decoder.feed(&chunk, &mut raw);
        let errored = raw.iter().any(|e| matches!(e, ChatEvent::Error(_)));
        forward(
            &mut draft,
            &mut raw,
            &mut normalised,
            elapsed(),
            &mut on_event,
        );
        if errored {
            // An error inside the stream (even a 200 one) ends the turn; what came before stays.
            decoder.finish(&mut raw);
            raw.retain(|e| !matches!(e, ChatEvent::Error(_)));
            forward(
                &mut draft,
                &mut raw,
                &mut normalised,
                elapsed(),
                &mut on_event,
            );
            let (turn, tail) = draft.finish(elapsed(), None);
            emit(tail, &mut on_event);
            return Outcome::Failed(turn);
        }
    }
    let replay = decoder.finish(&mut raw);
    forward(
        &mut draft,
        &mut raw,
        &mut normalised,
        elapsed(),
        &mut on_event,
    );
    if !decoder.completed() && draft.stop().is_none() {
        let error = ProviderError::network(
            provider,
            "the connection closed before the answer was complete",
        );
        let mut events = Vec::new();
        draft.apply(ChatEvent::Error(error), elapsed(), &mut events);
        emit(events, &mut on_event);
        let (turn, tail) = draft.finish(elapsed(), None);
        emit(tail, &mut on_event);
        return Outcome::Failed(turn);
    }
    let (turn, tail) = draft.finish(elapsed(), replay);
    emit(tail, &mut on_event);
    Outcome::Done(turn)
}

fn forward(
    draft: &mut Draft,
    raw: &mut Vec<ChatEvent>,
    normalised: &mut Vec<ChatEvent>,
    elapsed_ms: u64,
    on_event: &mut impl FnMut(RunEvent<'_>),
) {
    for event in raw.drain(..) {
        draft.apply(event, elapsed_ms, normalised);
    }
    for event in normalised.drain(..) {
        on_event(RunEvent::Chat(event));
    }
}

fn emit(events: Vec<ChatEvent>, on_event: &mut impl FnMut(RunEvent<'_>)) {
    for event in events {
        on_event(RunEvent::Chat(event));
    }
}

fn fail(
    mut draft: Draft,
    error: ProviderError,
    elapsed_ms: u64,
    on_event: &mut impl FnMut(RunEvent<'_>),
) -> Outcome {
    let mut events = Vec::new();
    draft.apply(ChatEvent::Error(error), elapsed_ms, &mut events);
    emit(events, on_event);
    let (turn, tail) = draft.finish(elapsed_ms, None);
    emit(tail, on_event);
    Outcome::Failed(turn)
}

fn cancelled(
    mut draft: Draft,
    elapsed_ms: u64,
    on_event: &mut impl FnMut(RunEvent<'_>),
) -> Outcome {
    let mut events = Vec::new();
    draft.apply(
        ChatEvent::Stop(StopReason::Cancelled),
        elapsed_ms,
        &mut events,
    );
    emit(events, on_event);
    let (turn, tail) = draft.finish(elapsed_ms, None);
    emit(tail, on_event);
    Outcome::Cancelled(turn)
}

/// How a recorded turn keeps its thoughts and how often it saves.
#[derive(Debug, Clone, Copy)]
pub struct RecordOptions {
    /// False: thoughts are shown while they stream but never written to disk.
    pub keep_thoughts: bool,
    /// The longest a streamed piece waits before it is on disk.
    pub flush_every: std::time::Duration,
}

impl Default for RecordOptions {
    fn default() -> Self {
        Self {
            keep_thoughts: true,
            flush_every: std::time::Duration::from_millis(500),
        }
    }
}

/// What the caller of a recorded turn hears.
#[derive(Debug, Clone)]
pub enum RecordedEvent<'a> {
    /// The question and the assistant's row are stored; their ids.
    Started {
        user_message_id: &'a str,
        message_id: &'a str,
    },
    /// Anything `run_turn` says, except the terminal stop or error.
    Run(RunEvent<'a>),
    /// The one terminal event, sent only once the outcome is on disk.
    Finished {
        message_id: &'a str,
        outcome: &'a Outcome,
    },
}

/// The user's side of a recorded turn.
#[derive(Debug, Clone, Copy)]
pub struct Question<'a> {
    pub text: &'a str,
    /// A message this question takes the place of, with everything after it (an edit or a
    /// regenerate). It is removed in the transaction that stores the question, never before.
    pub replaces: Option<&'a str>,
}

impl<'a> Question<'a> {
    pub fn new(text: &'a str) -> Self {
        Self {
            text,
            replaces: None,
        }
    }
}

/// One turn of a stored conversation: the user's message is stored, the assistant's row is
/// written as the stream starts and flushed at least every `flush_every`, and the outcome is
/// written before it is reported.
#[allow(clippy::too_many_arguments)]
pub async fn run_recorded(
    client: &reqwest::Client,
    config: &HttpConfig,
    store: &crate::store::Store,
    conversation_id: &str,
    question: Question<'_>,
    mut request: TurnRequest<'_>,
    options: RecordOptions,
    cancel: CancellationToken,
    mut on_event: impl FnMut(RecordedEvent<'_>) + Send,
) -> Result<(String, Outcome), RecordError> {
    use std::sync::Mutex;

    use crate::store::{MessageStatus, TurnRecord};

    fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
        m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    let asked = store.ask(conversation_id, question.text, question.replaces)?;
    let history = store.history(conversation_id)?;
    let (sent, left_out, context_tokens) = fit_history(&history, &request);
    request.history = sent;
    request.context_tokens = context_tokens;
    let origin = Origin {
        provider: request.model.provider.id.clone(),
        model: request.model.id.clone(),
    };
    let message_id = store.start_assistant(conversation_id, &origin, request.choice)?;
    let provider_id = origin.provider.clone();
    let origin_for_panic = origin.clone();
    on_event(RecordedEvent::Started {
        user_message_id: &asked.id,
        message_id: &message_id,
    });
    // What the user is told about this turn as it is sent, kept with the answer.
    let notes = Mutex::new(Vec::new());
    if left_out > 0 {
        let notice = format!(
            "The oldest {left_out} messages were left out of this request to fit the model's context window (they stay in the history)"
        );
        lock(&notes).push(notice.clone());
        on_event(RecordedEvent::Run(RunEvent::Notice(notice)));
    }

    struct Live {
        draft: Draft,
        dirty: bool,
        last_flush: Instant,
    }
    // Shared between the stream's callback and the flush timer; never held across an await.
    let run_started = Instant::now();
    let live = Mutex::new(Live {
        draft: Draft::new(origin, crate::chat::ThoughtSource::Reasoning),
        dirty: false,
        last_flush: Instant::now(),
    });
    let keep = options.keep_thoughts;
    let save = |live: &mut Live| {
        if live.dirty {
            let parts = stored_parts(live.draft.parts(), keep);
            // A failed flush is retried on the next one; the final write reports errors.
            if store.flush_assistant(&message_id, &parts).is_ok() {
                live.dirty = false;
                live.last_flush = Instant::now();
            }
        }
    };
    let on_event = Mutex::new(&mut on_event);
    let run = run_turn(client, config, request, cancel, |event| {
        if let RunEvent::Chat(chat) = &event {
            let mut live = lock(&live);
            let mut scratch = Vec::new();
            // The same clock as the turn, so a block saved mid-stream (and recovered after a
            // crash) carries how long it had been thinking.
            let elapsed = u64::try_from(run_started.elapsed().as_millis()).unwrap_or(u64::MAX);
            live.draft.apply(chat.clone(), elapsed, &mut scratch);
            live.dirty = true;
            if live.last_flush.elapsed() >= options.flush_every {
                save(&mut live);
            }
            if matches!(chat, ChatEvent::Stop(_) | ChatEvent::Error(_)) {
                return;
            }
        }
        let noted = match &event {
            RunEvent::Plan(plan) => {
                lock(&notes).extend(turn_notes(plan));
                true
            }
            RunEvent::Notice(notice) => {
                lock(&notes).push(notice.clone());
                true
            }
            _ => false,
        };
        if noted {
            // Before the answer streams, and only a few lines: not on a hot path.
            let _ = store.set_notes(&message_id, &lock(&notes));
        }
        (lock(&on_event))(RecordedEvent::Run(event));
    });
    let mut ticker = tokio::time::interval(options.flush_every);
    ticker.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let running = CatchUnwind(Box::pin(async {
        tokio::pin!(run);
        loop {
            tokio::select! {
                outcome = &mut run => break outcome,
                _ = ticker.tick() => save(&mut lock(&live)),
            }
        }
    }));
    // A bug anywhere in the turn (a mapper, the caller's callback) must not leave the row
    // `streaming` and the caller without a terminal event: it ends the turn as failed with
    // everything that had arrived.
    let outcome = match running.await {
        Ok(outcome) => outcome,
        Err(panic) => {
            let mut live = lock(&live);
            let elapsed = u64::try_from(run_started.elapsed().as_millis()).unwrap_or(u64::MAX);
            let error = ProviderError::new(
                &provider_id,
                ErrorKind::Internal,
                format!(
                    "Ponder failed while reading the answer ({}); what arrived is kept",
                    panic_text(panic.as_ref())
                ),
            );
            let mut draft = std::mem::replace(
                &mut live.draft,
                Draft::new(origin_for_panic, crate::chat::ThoughtSource::Reasoning),
            );
            draft.apply(ChatEvent::Error(error), elapsed, &mut Vec::new());
            Outcome::Failed(draft.finish(elapsed, None).0)
        }
    };
    let turn = outcome.turn();
    let status = match &outcome {
        Outcome::Done(_) => MessageStatus::Complete,
        Outcome::Failed(_) => MessageStatus::Error,
        Outcome::Cancelled(_) => MessageStatus::Cancelled,
    };
    let record = TurnRecord {
        status,
        parts: stored_parts(&turn.message.parts, keep),
        replay: if keep {
            turn.message.replay.clone()
        } else {
            None
        },
        usage: turn.usage,
        stop: turn.stop.clone(),
        error_code: turn.error.as_ref().map(|e| e.kind.as_str().to_owned()),
        error_message: turn.error.as_ref().map(|e| e.message.clone()),
    };
    // A full disk or a busy file may clear up: the answer stays in memory while the final
    // write is tried again, and comes back to the caller even when it never lands.
    let mut attempt = 0;
    while let Err(error) = store.finish_assistant(&message_id, &record) {
        let Some(wait) = FINAL_WRITE_RETRIES.get(attempt) else {
            return Err(RecordError::Unsaved {
                message_id: message_id.clone(),
                outcome: Box::new(outcome),
                source: error,
            });
        };
        attempt += 1;
        tokio::time::sleep(*wait).await;
    }
    (lock(&on_event))(RecordedEvent::Finished {
        message_id: &message_id,
        outcome: &outcome,
    });
    Ok((message_id.clone(), outcome))
}

/// The waits between tries of a turn's final write: about eight seconds in all.
const FINAL_WRITE_RETRIES: [std::time::Duration; 6] = [
    std::time::Duration::from_millis(250),
    std::time::Duration::from_millis(500),
    std::time::Duration::from_millis(750),
    std::time::Duration::from_secs(1),
    std::time::Duration::from_secs(2),
    std::time::Duration::from_secs(3),
];

/// Why a recorded turn could not be kept.
#[derive(Debug, thiserror::Error)]
pub enum RecordError {
    /// The turn could not start (the question or the answer's row could not be written).
    #[error(transparent)]
    Store(#[from] crate::store::StoreError),
    /// The turn ran, but its outcome could not be written even after retries; the answer
    /// is here, in memory, for the caller to show.
    #[error("the answer could not be saved: {source}")]
    Unsaved {
        message_id: String,
        outcome: Box<Outcome>,
        #[source]
        source: crate::store::StoreError,
    },
}

fn stored_parts(parts: &[crate::chat::Part], keep_thoughts: bool) -> Vec<crate::chat::Part> {
    parts
        .iter()
        .filter(|p| keep_thoughts || !matches!(p, crate::chat::Part::Thinking(_)))
        .cloned()
        .collect()
}

/// A future that turns a panic while it is polled into an `Err` with the panic's payload.
struct CatchUnwind<F>(std::pin::Pin<Box<F>>);

impl<F: std::future::Future> std::future::Future for CatchUnwind<F> {
    type Output = std::thread::Result<F::Output>;

    fn poll(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Self::Output> {
        let inner = self.0.as_mut();
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| inner.poll(cx))) {
            Ok(std::task::Poll::Pending) => std::task::Poll::Pending,
            Ok(std::task::Poll::Ready(value)) => std::task::Poll::Ready(Ok(value)),
            Err(panic) => std::task::Poll::Ready(Err(panic)),
        }
    }
}

fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "an unexpected failure".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::chat::Role;
    use crate::reasoning::Catalog;

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
}
