//! Running one turn against its provider: send, read the stream, fold it into the answer.

use std::sync::Mutex;
use std::time::Instant;

use tokio_util::sync::CancellationToken;

use super::{Outcome, Prepared, RunEvent, TurnRequest, prepare};
use crate::chat::{ChatEvent, Origin, StopReason};
use crate::draft::Draft;
use crate::providers::error::{ErrorKind, ProviderError};
use crate::providers::http::{self, AttemptError, HttpConfig};
use crate::providers::mapper_for;
use crate::providers::stream::{MAX_EVENT_BYTES, StreamDecoder, join_deltas};
use crate::sync::Locked;

/// Runs one turn and returns its outcome; the events reach `on_event` as they arrive.
pub async fn run_turn(
    client: &reqwest::Client,
    config: &HttpConfig,
    request: TurnRequest<'_>,
    cancel: CancellationToken,
    on_event: impl FnMut(RunEvent<'_>),
) -> Outcome {
    let draft = Mutex::new(Draft::new(
        origin_of(&request),
        crate::chat::ThoughtSource::Reasoning,
    ));
    run_turn_into(client, config, request, cancel, &draft, on_event).await
}

/// `run_turn` folding into a draft the caller can read while the turn runs (to save the
/// answer as it grows) — so each event is folded once. The lock is never held while
/// `on_event` runs, and `draft` holds the whole answer whatever the outcome.
pub async fn run_turn_into(
    client: &reqwest::Client,
    config: &HttpConfig,
    request: TurnRequest<'_>,
    cancel: CancellationToken,
    draft: &Mutex<Draft>,
    mut on_event: impl FnMut(RunEvent<'_>),
) -> Outcome {
    let started = Instant::now();
    let model = request.model;
    let provider = model.provider.id.as_str();
    let elapsed = || u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    let Prepared {
        mut plan,
        http: mut http_request,
        notices,
    } = match prepare(&request) {
        Ok(prepared) => prepared,
        Err(err) => {
            let error = ProviderError::new(provider, ErrorKind::BadRequest, err.to_string());
            return fail(draft, error, 0, &mut on_event);
        }
    };
    on_event(RunEvent::Plan(&plan));
    for notice in notices {
        on_event(RunEvent::Notice(notice));
    }
    let mapper = mapper_for(model, &plan);
    draft.locked().set_default_source(mapper.default_source());
    let decoder = StreamDecoder::new(mapper);

    let mut sent = http::send(client, provider, &http_request, config, &cancel, |notice| {
        on_event(RunEvent::Retry(notice.clone()));
    })
    .await;
    if let (Err(AttemptError::Failed(refused)), Some(renew)) = (&sent, request.renew_key)
        && refused.status == Some(401)
    {
        // The key expired on its own (Copilot's lasts half an hour): once more with a new one.
        let renewed = tokio::select! {
            () = cancel.cancelled() => return cancelled(draft, elapsed(), &mut on_event),
            renewed = renew.renew(request.api_key) => renewed,
        };
        let key = match renewed {
            Ok(key) => key,
            Err(error) => return fail(draft, error, elapsed(), &mut on_event),
        };
        // The same request, the new key where the old one was.
        let mut again = http_request.clone();
        if let Some(old) = request.api_key.filter(|old| !old.is_empty()) {
            for (_, value) in &mut again.headers {
                if value.contains(old) {
                    *value = value.replace(old, &key);
                }
            }
        }
        http_request = again;
        sent = http::send(client, provider, &http_request, config, &cancel, |notice| {
            on_event(RunEvent::Retry(notice.clone()));
        })
        .await;
    }
    // OpenAI streams some reasoning models only to organisations it has verified: such a
    // refusal is answered once more, whole, with a note saying why.
    if let Err(AttemptError::Failed(refused)) = &sent
        && plan.stream
        && refuses_to_stream(refused)
    {
        plan.stream = false;
        http_request = crate::providers::unstreamed(model, &plan, &http_request, request.base_url);
        on_event(RunEvent::Notice(format!(
            "{} would not stream this model to your organisation, so the answer was asked for whole (verify the organisation to stream it)",
            model.provider.name
        )));
        sent = http::send(client, provider, &http_request, config, &cancel, |notice| {
            on_event(RunEvent::Retry(notice.clone()));
        })
        .await;
    }
    let response = match sent {
        Ok(response) => response,
        Err(AttemptError::Cancelled) => return cancelled(draft, elapsed(), &mut on_event),
        Err(AttemptError::Failed(error)) => {
            return fail(draft, error, elapsed(), &mut on_event);
        }
    };
    if model.provider.dialect == crate::catalog::Dialect::Copilot {
        for notice in crate::providers::copilot::usage::notices(response.headers()) {
            on_event(RunEvent::Notice(notice));
        }
    }
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

    let mut reader = Reader {
        draft,
        started,
        provider,
        config,
        cancel: &cancel,
    };
    if plan.stream {
        reader.stream(response, decoder, &mut on_event).await
    } else {
        reader.whole(response, model, &plan, &mut on_event).await
    }
}

/// Reads an answer's body into the draft: a stream piece by piece, or a whole response.
struct Reader<'a> {
    draft: &'a Mutex<Draft>,
    started: Instant,
    provider: &'a str,
    config: &'a HttpConfig,
    cancel: &'a CancellationToken,
}

impl Reader<'_> {
    fn elapsed(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    fn stopped(&self, stopped: AttemptError, on_event: &mut impl FnMut(RunEvent<'_>)) -> Outcome {
        match stopped {
            AttemptError::Cancelled => cancelled(self.draft, self.elapsed(), on_event),
            AttemptError::Failed(error) => fail(self.draft, error, self.elapsed(), on_event),
        }
    }

    /// The whole answer in one body, read as the events its stream would have given.
    async fn whole(
        &mut self,
        mut response: reqwest::Response,
        model: &crate::catalog::ModelInfo,
        plan: &crate::reasoning::Plan,
        on_event: &mut impl FnMut(RunEvent<'_>),
    ) -> Outcome {
        let (provider, config, cancel) = (self.provider, self.config, self.cancel);
        let body = match http::read_whole_body(
            &mut response,
            provider,
            "answer",
            http::MAX_WHOLE_BODY,
            config,
            cancel,
        )
        .await
        {
            Ok(body) => body,
            Err(stopped) => return self.stopped(stopped, on_event),
        };
        let mut raw = Vec::new();
        let body = String::from_utf8_lossy(&body);
        let replay = match crate::providers::parse_whole(model, plan, &body, &mut raw) {
            Ok(replay) => replay,
            Err(error) => return fail(self.draft, error, self.elapsed(), on_event),
        };
        let errored = raw.iter().any(|e| matches!(e, ChatEvent::Error(_)));
        forward(
            self.draft,
            &mut raw,
            &mut Vec::new(),
            self.elapsed(),
            on_event,
        );
        let turn = finish(
            self.draft,
            self.elapsed(),
            replay.filter(|_| !errored),
            on_event,
        );
        if errored {
            Outcome::Failed(turn)
        } else {
            Outcome::Done(turn)
        }
    }

    /// A stream, decoded and folded piece by piece as it arrives.
    async fn stream(
        &mut self,
        mut response: reqwest::Response,
        mut decoder: StreamDecoder,
        on_event: &mut impl FnMut(RunEvent<'_>),
    ) -> Outcome {
        let (draft, provider) = (self.draft, self.provider);
        let mut raw = Vec::new();
        let mut normalised = Vec::new();
        loop {
            let chunk =
                match http::next_chunk(&mut response, provider, self.config, self.cancel).await {
                    Ok(Some(chunk)) => chunk,
                    Ok(None) => break,
                    Err(stopped) => {
                        // Keep what was held back (a partial tag); an unfinished turn is not
                        // something to replay to the provider.
                        decoder.finish(&mut raw);
                        forward(draft, &mut raw, &mut normalised, self.elapsed(), on_event);
                        return self.stopped(stopped, on_event);
                    }
                };
            decoder.feed(&chunk, &mut raw);
            if decoder.held_bytes() > MAX_EVENT_BYTES {
                forward(draft, &mut raw, &mut normalised, self.elapsed(), on_event);
                let error = ProviderError::decode(
                    provider,
                    format!(
                        "one event of the stream grew past {} MiB without ending; Ponder stops reading there",
                        MAX_EVENT_BYTES / (1024 * 1024)
                    ),
                );
                return fail(draft, error, self.elapsed(), on_event);
            }
            join_deltas(&mut raw);
            let errored = raw.iter().any(|e| matches!(e, ChatEvent::Error(_)));
            forward(draft, &mut raw, &mut normalised, self.elapsed(), on_event);
            if errored {
                // An error inside the stream (even a 200 one) ends the turn; what came before
                // stays.
                decoder.finish(&mut raw);
                raw.retain(|e| !matches!(e, ChatEvent::Error(_)));
                forward(draft, &mut raw, &mut normalised, self.elapsed(), on_event);
                return Outcome::Failed(finish(draft, self.elapsed(), None, on_event));
            }
        }
        let replay = decoder.finish(&mut raw);
        forward(draft, &mut raw, &mut normalised, self.elapsed(), on_event);
        let incomplete = !decoder.completed() && draft.locked().stop().is_none();
        if incomplete {
            let error = ProviderError::network(
                provider,
                "the connection closed before the answer was complete",
            );
            return fail(draft, error, self.elapsed(), on_event);
        }
        Outcome::Done(finish(draft, self.elapsed(), replay, on_event))
    }
}

/// OpenAI's 400 for a stream of a model the organisation may not stream ("Your organization
/// must be verified to stream this model").
fn refuses_to_stream(error: &ProviderError) -> bool {
    let message = error.message.to_ascii_lowercase();
    error.status == Some(400) && message.contains("verified") && message.contains("stream")
}

pub(super) fn origin_of(request: &TurnRequest<'_>) -> Origin {
    Origin {
        provider: request.model.provider.id.clone(),
        model: request.model.id.clone(),
    }
}

/// Folds the decoded events into the draft, then tells the caller what the draft made of
/// them (with the lock released).
fn forward(
    draft: &Mutex<Draft>,
    raw: &mut Vec<ChatEvent>,
    normalised: &mut Vec<ChatEvent>,
    elapsed_ms: u64,
    on_event: &mut impl FnMut(RunEvent<'_>),
) {
    {
        let mut draft = draft.locked();
        for event in raw.drain(..) {
            draft.apply(event, elapsed_ms, normalised);
        }
    }
    for event in normalised.drain(..) {
        on_event(RunEvent::Chat(event));
    }
}

/// Applies one last event (a stop or an error) and reports what it produced.
fn apply_last(
    draft: &Mutex<Draft>,
    event: ChatEvent,
    elapsed_ms: u64,
    on_event: &mut impl FnMut(RunEvent<'_>),
) {
    let mut events = Vec::new();
    draft.locked().apply(event, elapsed_ms, &mut events);
    for event in events {
        on_event(RunEvent::Chat(event));
    }
}

/// Closes the draft into the finished turn (the answer moves out of the shared draft).
fn finish(
    draft: &Mutex<Draft>,
    elapsed_ms: u64,
    replay: Option<crate::chat::Replay>,
    on_event: &mut impl FnMut(RunEvent<'_>),
) -> crate::draft::Turn {
    let (turn, tail) = draft.locked().take_finished(elapsed_ms, replay);
    for event in tail {
        on_event(RunEvent::Chat(event));
    }
    turn
}

fn fail(
    draft: &Mutex<Draft>,
    error: ProviderError,
    elapsed_ms: u64,
    on_event: &mut impl FnMut(RunEvent<'_>),
) -> Outcome {
    apply_last(draft, ChatEvent::Error(error), elapsed_ms, on_event);
    Outcome::Failed(finish(draft, elapsed_ms, None, on_event))
}

fn cancelled(
    draft: &Mutex<Draft>,
    elapsed_ms: u64,
    on_event: &mut impl FnMut(RunEvent<'_>),
) -> Outcome {
    apply_last(
        draft,
        ChatEvent::Stop(StopReason::Cancelled),
        elapsed_ms,
        on_event,
    );
    Outcome::Cancelled(finish(draft, elapsed_ms, None, on_event))
}
