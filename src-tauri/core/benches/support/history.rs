//! A made-up history of realistic size for the store's figures: deterministic text (a few
//! hundred words with a Zipf-like frequency, plus a long tail of numbers, identifiers and
//! invented words), turns with thoughts and signatures, written through the public `Store` API
//! as the app writes them.

use std::path::Path;
use std::time::Instant;

use ponder_core::chat::{Origin, Part, Replay, StopReason, ThinkingBlock, ThoughtSource, Usage};
use ponder_core::reasoning::{Choice, ReasoningSettings};
use ponder_core::store::{MessageStatus, NewConversation, Store, TurnRecord};

/// Only in answers (visible text), every `TEXT_RARE_EVERY`th turn of the search history.
pub const TEXT_RARE: &str = "quetzalcoatlus";
pub const TEXT_RARE_EVERY: usize = 9_973;
/// Only in thoughts, every `THOUGHT_RARE_EVERY`th turn.
pub const THOUGHT_RARE: &str = "zymurgical";
pub const THOUGHT_RARE_EVERY: usize = 7_919;

pub const PROVIDER: &str = "anthropic";
pub const MODEL: &str = "claude-sonnet-4-5";

/// SplitMix64: small, fast and the same everywhere.
pub struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn between(&mut self, low: usize, high: usize) -> usize {
        low + self.below(high - low + 1)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// Most frequent first: function words, then words of conversations about software and life.
#[rustfmt::skip]
pub const WORDS: &[&str] = &[
    "the", "to", "of", "and", "a", "in", "is", "that", "it", "for", "you", "this", "be",
    "with", "as", "on", "not", "are", "can", "or", "if", "but", "we", "have", "so", "at",
    "from", "by", "an", "which", "would", "will", "do", "there", "should", "about", "they",
    "more", "one", "what", "when", "all", "their", "then", "also", "some", "need", "just",
    "like", "each", "model", "user", "file", "data", "code", "function", "time", "value",
    "way", "question", "let", "me", "think", "check", "answer", "error", "case", "first",
    "because", "how", "use", "example", "type", "string", "list", "point", "result", "test",
    "new", "make", "here", "actually", "probably", "wait", "maybe", "right", "good", "other",
    "same", "different", "number", "problem", "output", "input", "request", "response",
    "server", "client", "table", "query", "index", "memory", "cache", "thread", "process",
    "system", "version", "library", "package", "build", "compile", "run", "call", "return",
    "loop", "array", "map", "key", "field", "struct", "class", "method", "object", "pointer",
    "reference", "lifetime", "borrow", "trait", "generic", "async", "await", "future",
    "stream", "buffer", "byte", "chunk", "line", "token", "parse", "format", "json", "schema",
    "column", "row", "insert", "update", "delete", "select", "join", "transaction", "lock",
    "mutex", "channel", "queue", "event", "handler", "callback", "state", "config", "option",
    "setting", "default", "path", "folder", "network", "socket", "timeout", "retry", "limit",
    "size", "length", "count", "sum", "average", "minimum", "maximum", "sort", "search",
    "filter", "match", "pattern", "regex", "unicode", "character", "word", "sentence",
    "paragraph", "document", "page", "image", "color", "layout", "window", "button", "click",
    "scroll", "render", "browser", "script", "style", "component", "prop", "hook", "effect",
    "signal", "route", "login", "password", "secret", "account", "permission", "access",
    "security", "encrypt", "hash", "signature", "certificate", "release", "deploy",
    "container", "pixel", "cluster", "node", "service", "log", "metric", "trace", "debug",
    "panic", "crash", "recover", "backup", "restore", "migrate", "upgrade", "install",
    "dependency", "feature", "flag", "branch", "commit", "merge", "review", "issue", "bug",
    "fix", "patch", "change", "diff", "history", "conversation", "message", "reply", "prompt",
    "reasoning", "thought", "budget", "effort", "level", "provider", "api", "endpoint",
    "header", "body", "status", "success", "failure", "warning", "recipe", "garden", "travel",
    "weather", "music", "guitar", "piano", "novel", "chapter", "poem", "empire", "river",
    "mountain", "city", "train", "flight", "hotel", "savings", "invoice", "tax", "salary",
    "interest", "loan", "mortgage", "rent", "health", "sleep", "exercise", "diet", "protein",
    "vitamin", "coffee", "tea", "bread", "flour", "yeast", "oven", "temperature", "minute",
    "hour", "day", "week", "month", "year", "morning", "evening", "child", "school", "teacher",
    "student", "exam", "grade", "essay", "argument", "evidence", "claim", "source", "quote",
    "author", "probability", "statistics", "variance", "matrix", "vector", "integral",
    "derivative", "proof", "theorem", "lemma", "equation", "solve", "assume", "therefore",
    "hence", "however", "although", "instead", "otherwise", "overall", "finally", "careful",
    "simple", "complex", "fast", "slow", "large", "small", "correct", "wrong", "likely",
    "unlikely", "important",
];

#[rustfmt::skip]
pub const SYLLABLES: &[&str] = &[
    "ba", "be", "bi", "bo", "da", "de", "di", "do", "fa", "fe", "ga", "go", "ka", "ke", "ki",
    "ko", "la", "le", "li", "lo", "lu", "ma", "me", "mi", "mo", "na", "ne", "ni", "no", "pa",
    "pe", "pi", "po", "ra", "re", "ri", "ro", "ru", "sa", "se", "si", "so", "ta", "te", "ti",
    "to", "va", "ve", "vi", "vo",
];

pub const BASE64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Realistic-looking prose: sentences of Zipf-distributed words, a long tail of rare tokens.
pub struct Prose {
    /// Cumulative weights of `WORDS`, the last one 1.0.
    cumulative: Vec<f64>,
}

impl Prose {
    fn new() -> Self {
        let weights: Vec<f64> = (0..WORDS.len())
            .map(|rank| 1.0 / (rank as f64 + 2.0).powf(1.05))
            .collect();
        let total: f64 = weights.iter().sum();
        let mut running = 0.0;
        let cumulative = weights
            .iter()
            .map(|w| {
                running += w / total;
                running
            })
            .collect();
        Self { cumulative }
    }

    fn vocabulary_word(&self, rng: &mut Rng) -> &'static str {
        let u = rng.unit();
        let index = self.cumulative.partition_point(|&c| c < u);
        WORDS[index.min(WORDS.len() - 1)]
    }

    fn push_word(&self, rng: &mut Rng, out: &mut String) {
        if rng.unit() >= 0.04 {
            out.push_str(self.vocabulary_word(rng));
            return;
        }
        // The long tail real text has: numbers, identifiers, names no list holds.
        match rng.below(4) {
            0 => out.push_str(&rng.below(100_000).to_string()),
            1 => {
                out.push_str(WORDS[rng.between(50, WORDS.len() - 1)]);
                out.push('_');
                out.push_str(WORDS[rng.between(50, WORDS.len() - 1)]);
            }
            2 => {
                out.push_str(WORDS[rng.between(50, WORDS.len() - 1)]);
                out.push_str(&format!("{}", rng.below(64)));
            }
            _ => {
                for _ in 0..rng.between(2, 4) {
                    out.push_str(SYLLABLES[rng.below(SYLLABLES.len())]);
                }
            }
        }
    }

    /// At least `chars` characters of sentences, in paragraphs.
    fn text(&self, rng: &mut Rng, chars: usize) -> String {
        let mut out = String::with_capacity(chars + 200);
        let mut sentences_in_paragraph = 0;
        while out.len() < chars {
            if !out.is_empty() {
                if sentences_in_paragraph >= rng.between(3, 6) {
                    out.push_str("\n\n");
                    sentences_in_paragraph = 0;
                } else {
                    out.push(' ');
                }
            }
            let start = out.len();
            let words = rng.between(6, 22);
            for i in 0..words {
                if i > 0 {
                    out.push_str(if rng.below(9) == 0 { ", " } else { " " });
                }
                self.push_word(rng, &mut out);
            }
            if let Some(first) = out[start..].chars().next() {
                let upper = first.to_ascii_uppercase().to_string();
                out.replace_range(start..start + first.len_utf8(), &upper);
            }
            out.push(match rng.below(10) {
                0 => '?',
                1 => ':',
                _ => '.',
            });
            sentences_in_paragraph += 1;
        }
        out
    }
}

pub fn signature(rng: &mut Rng) -> String {
    (0..rng.between(280, 320))
        .map(|_| char::from(BASE64[rng.below(BASE64.len())]))
        .collect()
}

/// One generated exchange.
pub struct Turn {
    question: String,
    thinking: String,
    signature: String,
    answer: String,
    /// Of the conversation, from 0; the input tokens grow with it.
    index: usize,
}

impl Turn {
    fn generate(prose: &Prose, rng: &mut Rng, index: usize) -> Self {
        let target = rng.between(120, 280);
        let question = prose.text(rng, target);
        let target = rng.between(1_000, 2_000);
        let thinking = prose.text(rng, target);
        let target = rng.between(500, 1_100);
        let answer = prose.text(rng, target);
        Self {
            question,
            thinking,
            signature: signature(rng),
            answer,
            index,
        }
    }

    fn thought(&self, streamed: Option<usize>) -> ThinkingBlock {
        let done = streamed.is_none();
        ThinkingBlock {
            text: streamed.map_or(self.thinking.clone(), |n| self.thinking[..n].to_owned()),
            source: Some(ThoughtSource::Thinking),
            signature: done.then(|| self.signature.clone()),
            duration_ms: done.then_some(self.thinking.len() as u64 * 3),
            token_estimate: Some((streamed.unwrap_or(self.thinking.len()) / 4) as u32),
            ..ThinkingBlock::default()
        }
    }

    /// What a flush writes once `streamed` characters of thoughts and answer have arrived.
    /// Generated text is ASCII, so any byte offset is a character boundary.
    fn partial(&self, streamed: usize) -> Vec<Part> {
        if streamed <= self.thinking.len() {
            return vec![Part::Thinking(self.thought(Some(streamed)))];
        }
        vec![
            Part::Thinking(self.thought(None)),
            Part::Text {
                text: self.answer[..streamed - self.thinking.len()].to_owned(),
            },
        ]
    }

    /// The outcome as Anthropic's mapper leaves it: parts, and the native turn for replay.
    fn record(&self) -> TurnRecord {
        let content = serde_json::json!({
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": self.thinking, "signature": self.signature},
                {"type": "text", "text": self.answer},
            ],
        });
        let output = ((self.thinking.len() + self.answer.len()) / 4) as u32;
        let input = (40 + self.index * 650) as u32;
        TurnRecord {
            status: MessageStatus::Complete,
            parts: vec![
                Part::Thinking(self.thought(None)),
                Part::Text {
                    text: self.answer.clone(),
                },
            ],
            replay: Some(Replay {
                provider: PROVIDER.into(),
                model: MODEL.into(),
                content,
            }),
            usage: Usage {
                input: Some(input),
                output: Some(output),
                reasoning: Some((self.thinking.len() / 4) as u32),
                cached: Some(input.saturating_sub(700)),
            },
            stop: Some(StopReason::End),
            error_code: None,
            error_message: None,
        }
    }
}

pub fn origin() -> Origin {
    Origin {
        provider: PROVIDER.into(),
        model: MODEL.into(),
    }
}

/// A turn written as the app writes it: the user's message, the assistant row as the stream
/// starts, `flushes` flushes while it streams, the outcome; each its own transaction.
pub fn write_turn(store: &Store, conversation: &str, turn: &Turn, flushes: usize) {
    let asked = store.append_user(conversation, &turn.question).unwrap();
    let id = store
        .start_assistant(conversation, &asked.id, &origin(), Choice::HIGH)
        .unwrap();
    let total = turn.thinking.len() + turn.answer.len();
    for k in 1..=flushes {
        store
            .flush_assistant(&id, &turn.partial(total * k / (flushes + 1)))
            .unwrap();
    }
    store.finish_assistant(&id, &turn.record()).unwrap();
}

pub fn new_conversation(store: &Store, n: usize) -> String {
    store
        .create_conversation(NewConversation {
            title: format!("Conversation {n}"),
            provider: Some(PROVIDER.into()),
            model: Some(MODEL.into()),
            settings: ReasoningSettings {
                choice: Choice::HIGH,
                ..ReasoningSettings::default()
            },
        })
        .unwrap()
        .id
}

pub struct Built {
    pub store: Store,
    pub conversations: Vec<String>,
    /// Bytes of text, thoughts and signatures the history holds (what the user would call
    /// its content), for comparison with the file.
    pub content_bytes: usize,
    pub seconds: f64,
}

/// `conversations` × `turns` turns through the public API. `rare` plants the rare words.
pub fn build(
    path: &Path,
    conversations: usize,
    turns: usize,
    flushes: usize,
    seed: u64,
    rare: bool,
) -> Built {
    let started = Instant::now();
    let store = Store::open(path).unwrap();
    let prose = Prose::new();
    let mut rng = Rng(seed);
    let mut ids = Vec::with_capacity(conversations);
    let mut content_bytes = 0;
    let mut global_turn = 0;
    for c in 0..conversations {
        let id = new_conversation(&store, c);
        for t in 0..turns {
            let mut turn = Turn::generate(&prose, &mut rng, t);
            if rare && global_turn % TEXT_RARE_EVERY == TEXT_RARE_EVERY / 2 {
                turn.answer
                    .push_str(&format!(" The {TEXT_RARE} is the answer."));
            }
            if rare && global_turn % THOUGHT_RARE_EVERY == THOUGHT_RARE_EVERY / 2 {
                turn.thinking
                    .push_str(&format!(" Maybe something {THOUGHT_RARE} here."));
            }
            content_bytes += turn.question.len()
                + turn.thinking.len()
                + turn.signature.len()
                + turn.answer.len();
            write_turn(&store, &id, &turn, flushes);
            global_turn += 1;
        }
        ids.push(id);
    }
    Built {
        store,
        conversations: ids,
        content_bytes,
        seconds: started.elapsed().as_secs_f64(),
    }
}
