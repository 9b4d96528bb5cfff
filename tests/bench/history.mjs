// The histories the benchmarks open, written as a Ponder backup (`ponder-backup`, the JSON the
// app exports) so that they go in through the public import path. Text comes from a small
// deterministic generator: every run builds the same bytes.
import { createHash } from 'node:crypto';

import { benchPng } from './png.mjs';

const WORDS = (
  'the a of to and in is that it for on as with be by this are from or an at which model ' +
  'number prime factor check divide answer because first then so next case count sum each ' +
  'value list step result proof we can not if but all one two three four five six seven ' +
  'eight nine ten square root odd even compute order bound limit term series reason think'
).split(' ');

/** SplitMix64 in 32-bit halves: small, fast and the same everywhere. */
function rng(seed) {
  let s = BigInt(seed);
  return () => {
    s = (s + 0x9e3779b97f4a7c15n) & 0xffffffffffffffffn;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & 0xffffffffffffffffn;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & 0xffffffffffffffffn;
    return Number((z ^ (z >> 31n)) & 0xffffffffn) / 0x100000000;
  };
}

function sentence(next) {
  const n = 6 + Math.floor(next() * 14);
  const words = [];
  for (let i = 0; i < n; i++) words.push(WORDS[Math.floor(next() ** 2 * WORDS.length)]);
  const text = words.join(' ');
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

/** Paragraphs of sentences, about `bytes` long. */
function prose(next, bytes) {
  const paragraphs = [];
  let size = 0;
  while (size < bytes) {
    const sentences = [];
    for (let i = 0, n = 3 + Math.floor(next() * 4); i < n; i++) sentences.push(sentence(next));
    const p = sentences.join(' ');
    paragraphs.push(p);
    size += p.length + 2;
  }
  return paragraphs.join('\n\n');
}

/** An answer as models write them: a paragraph, a list, a code block, a closing line. */
function answer(next, turn) {
  const items = [];
  for (let i = 0, n = 3 + Math.floor(next() * 4); i < n; i++) items.push(`- **${WORDS[(turn + i) % WORDS.length]}**: ${sentence(next)}`);
  const code = ['```python', `def check_${turn}(n):`, '    for d in range(2, int(n ** 0.5) + 1):', '        if n % d == 0:', '            return d', '    return None', '```'];
  return [prose(next, 300), items.join('\n'), code.join('\n'), sentence(next)].join('\n\n');
}

const T0 = 1_767_225_600_000;
const hex = (n, width = 32) => n.toString(16).padStart(width, '0');

/** The id of a conversation's message at `seq` (the conversation ids differ in their ends). */
export const messageId = (conversationId, seq) => `${conversationId.slice(-24)}${hex(seq, 8)}`;

/**
 * The threads' model: one the model list gives no retirement day, so that the bench measures
 * what a current conversation shows (a retired model's carries a warning), with the same
 * thinking budget as the Sonnet 4.5 it replaces (1,024–64,000 tokens).
 */
const MODEL = 'claude-opus-4-5';

function message(conversationId, seq, role, parts, extra = {}) {
  const at = T0 + seq * 60_000;
  return {
    id: messageId(conversationId, seq),
    conversationId,
    seq,
    ...(seq > 0 ? { parentId: messageId(conversationId, seq - 1) } : {}),
    status: 'complete',
    message: { role, parts, ...(role === 'assistant' ? { origin: { provider: 'anthropic', model: MODEL } } : {}) },
    choice: role === 'assistant' ? 'high' : null,
    usage: role === 'assistant' ? { input: 1200 + seq, output: 4200, reasoning: 3500 } : {},
    thinkingMs: role === 'assistant' ? 21_000 : null,
    stop: role === 'assistant' ? { kind: 'end' } : null,
    errorCode: null,
    errorMessage: null,
    createdAt: at,
    updatedAt: at + 30_000,
    ...extra,
  };
}

function conversation(id, title, messages) {
  return {
    conversation: {
      id,
      title,
      createdAt: T0,
      updatedAt: T0 + messages.length * 60_000,
      provider: 'anthropic',
      model: MODEL,
      settings: { choice: 'high' },
      pinned: false,
      archived: false,
      leafId: messages.at(-1)?.id ?? null,
    },
    messages,
  };
}

export const LONG_TITLE = 'A long thread';
export const THOUGHT_TITLE = 'One long thought';
/** A thread whose every question carries an image, and its twin with the same words only. */
export const IMAGES_TITLE = 'A thread of images';
export const WORDS_TITLE = 'A thread of words';
/** The images' size: larger than a thumbnail, so that each has one made. */
export const IMAGE_PIXELS = [1600, 1000];

/**
 * The twins: `turns` short questions and answers, each question of the first with a PNG of
 * its own (its bytes in `files`, by their hash), the second the same without them.
 */
function twins(turns, files) {
  const next = rng(7);
  const imagesId = hex(0x1a6e5);
  const wordsId = hex(0x3a7d5);
  const images = [];
  const words = [];
  for (let t = 0; t < turns; t++) {
    const question = { type: 'text', text: `Picture ${t + 1}: ${sentence(next)}` };
    const reply = [{ type: 'text', text: `${sentence(next)} ${sentence(next)}` }];
    const png = benchPng(IMAGE_PIXELS[0], IMAGE_PIXELS[1], t);
    const sha256 = createHash('sha256').update(png).digest('hex');
    files[sha256] = png.toString('base64');
    const file = { type: 'attachment', sha256, kind: 'png', name: `picture-${t + 1}.png`, bytes: png.length, pixels: IMAGE_PIXELS };
    images.push(message(imagesId, 2 * t, 'user', [file, question]), message(imagesId, 2 * t + 1, 'assistant', reply));
    words.push(message(wordsId, 2 * t, 'user', [question]), message(wordsId, 2 * t + 1, 'assistant', reply));
  }
  return { images: conversation(imagesId, IMAGES_TITLE, images), words: conversation(wordsId, WORDS_TITLE, words) };
}

/**
 * The backup: a thread of `turns` questions and answers (each answer with `thoughtBytes` of
 * thoughts, a list and a code block), one answer with a `longThoughtBytes` thought, a thread
 * of `imageTurns` questions with an image each and its twin without them, and a few short
 * conversations so the list is not alone. Returns { json, messages, longId, lastId,
 * thoughtId, imagesLastId, wordsLastId }.
 */
export function benchHistory({ turns = 1000, thoughtBytes = 14_000, longThoughtBytes = 200_000, others = 20, imageTurns = 100 } = {}) {
  const next = rng(42);
  const longId = hex(0x10ba5e);
  const long = [];
  for (let t = 0; t < turns; t++) {
    long.push(message(longId, 2 * t, 'user', [{ type: 'text', text: `Question ${t + 1}: ${sentence(next)}` }]));
    long.push(
      message(longId, 2 * t + 1, 'assistant', [
        { type: 'thinking', text: prose(next, thoughtBytes), source: 'thinking', duration_ms: 21_000, token_estimate: Math.round(thoughtBytes / 4) },
        { type: 'text', text: answer(next, t) },
      ]),
    );
  }
  const thoughtId = hex(0x7ea7);
  const thought = [
    message(thoughtId, 0, 'user', [{ type: 'text', text: 'Think this through at length.' }]),
    message(thoughtId, 1, 'assistant', [
      { type: 'thinking', text: prose(next, longThoughtBytes), source: 'thinking', duration_ms: 300_000, token_estimate: Math.round(longThoughtBytes / 4) },
      { type: 'text', text: answer(next, 0) },
    ]),
  ];
  const records = [conversation(longId, LONG_TITLE, long), conversation(thoughtId, THOUGHT_TITLE, thought)];
  for (let i = 0; i < others; i++) {
    const id = hex(0xc0ffee00 + i);
    records.push(
      conversation(id, `Short conversation ${i + 1}`, [
        message(id, 0, 'user', [{ type: 'text', text: sentence(next) }]),
        message(id, 1, 'assistant', [{ type: 'text', text: answer(next, i) }]),
      ]),
    );
  }
  // The long thread is the newest: first in the list.
  records[0].conversation.updatedAt = T0 + 10 * 365 * 86_400_000;
  // The images' files travel in the backup, as an export writes them.
  const files = {};
  const { images, words } = twins(imageTurns, files);
  records.push(images, words);
  const json = JSON.stringify({ format: 'ponder-backup', version: 1, exportedBy: 'Ponder bench', conversations: records, files });
  return {
    json,
    messages: records.reduce((n, r) => n + r.messages.length, 0),
    longId,
    lastId: long.at(-1).id,
    thoughtId,
    imagesLastId: images.messages.at(-1)?.id ?? null,
    wordsLastId: words.messages.at(-1)?.id ?? null,
  };
}
