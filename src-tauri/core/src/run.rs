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
        max_output: request.settings.max_tokens,
        context_tokens: request.context_tokens,
        ..TurnContext::default()
    };
    translate(choice, request.model, request.overrides, &ctx)
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
    let plan = match plan_for(&request) {
        Ok(plan) => plan,
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
    let wire = to_wire(WireInput {
        model,
        plan: &plan,
        settings: request.settings,
        system: request.system,
        history: request.history,
    });
    for notice in wire.notices {
        on_event(RunEvent::Notice(notice));
    }
    let http_request = HttpRequest {
        url: endpoint_url(model, &plan, request.base_url),
        headers: request_headers(model, &plan, request.api_key),
        body: serde_json::to_vec(&wire.body).unwrap_or_default(),
    };
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
            Err(Attempt::Cancelled) => {
                // Keep what was held back (a partial tag), but an unfinished turn is not
                // something to replay to the provider.
                decoder.finish(&mut raw);
                forward(
                    &mut draft,
                    &mut raw,
                    &mut normalised,
                    elapsed(),
                    &mut on_event,
                );
                return cancelled(draft, elapsed(), &mut on_event);
            }
            Err(Attempt::Failed(error)) => {
                decoder.finish(&mut raw);
                forward(
                    &mut draft,
                    &mut raw,
                    &mut normalised,
                    elapsed(),
                    &mut on_event,
                );
                return fail(draft, error, elapsed(), &mut on_event);
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
