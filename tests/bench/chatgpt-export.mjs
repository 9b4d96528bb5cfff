// A synthetic ChatGPT data export (`conversations.json`) of a given size, in the shape the real
// export has (see tests/fixtures/imports/chatgpt-conversations.json): a list of conversations,
// each a `mapping` of nodes with `current_node`; a system node, questions and answers, a third
// of the answers from a reasoning model (a `thoughts` node and a `reasoning_recap` node before
// the text), and one question in twenty answered twice (the question has two children).
//
// The file is written a few MB at a time and never held whole, so a 1 GB export needs no more
// heap than a small one. It is the same for the same size and seed (a seeded PRNG, no
// Math.random), and kept in the cache to be used again:
//   ${XDG_CACHE_HOME:-~/.cache}/ponder/bench/chatgpt-<bytes>-s<seed>-v1.json   (+ .meta.json)
// Bump VERSION when the output changes, so that an old file is not used for the new one.
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { mulberry32 } from './seeded.mjs';

const VERSION = 1;
const FLUSH_BYTES = 4 * 1024 * 1024;

// A few hundred common words: the text is sentences of them.
const WORDS = `the a an and or but if then so because while when where which that this these those it
its is are was were be been being have has had do does did can could should would will may might must
not no yes all any some many most more less few each every other another such same different new old
good better best small large long short high low first last next early late right left open close
time year day week month hour minute second way thing part place case point number group problem fact
question answer idea reason result example detail step order list table value field file folder path
line word name type kind form rule test check error warning message request response server client user
system process thread memory disk network cache queue index key record row column query database schema
function method class object module package library version release build option setting default config
input output source target format parse read write load save send receive start stop run call return
change update remove insert create delete copy move sort filter map reduce merge split join match
search find replace count measure compare improve reduce increase explain describe consider suggest
recommend prefer choose decide include exclude allow prevent handle support provide require expect
assume ensure avoid keep leave follow lead show hide mean know think feel want need try use make take
give get put set go come see look seem turn help work play learn teach write speak listen understand
data model graph tree node edge path layer stack heap pointer buffer stream byte bit string integer
float array vector matrix hash sum average median range limit bound size length width height depth
simple complex clear quick slow fast safe easy hard common rare usual strange obvious subtle careful
important useful possible likely certain general specific main whole single double final initial
local global public private internal external manual automatic static dynamic linear recursive
however therefore instead otherwise also still already often usually sometimes rarely always never
here there now today soon again once twice together apart almost quite very really rather perhaps
people person team friend teacher student author reader writer customer manager engineer designer
city country river mountain garden kitchen window door table chair book paper letter story history
music song picture colour light sound voice water coffee bread apple dinner morning evening weather
plan project budget cost price market company product service contract meeting schedule deadline
health sleep exercise habit energy focus attention balance pattern structure method approach strategy`
  .split(/\s+/)
  .filter(Boolean);

// Tokens that a JSON string has to escape, or that are not ASCII; already escaped as they
// appear inside a JSON string (a quote as \", a backslash as \\, a newline as \n).
const ODD = [
  'café', 'naïve', 'résumé', 'über', 'façade', 'Zürich', 'São Paulo', 'Ångström', 'crème brûlée',
  '中文', '你好', '日本語', '한국어', 'Привет', 'Ελληνικά', 'العربية', '→', '≈', '±', '…', '—', '°C',
  '🙂', '🚀', '✅', '📚', '👍🏽', '\\u00e9t\\u00e9', '\\u2014', '\\ud83d\\ude00', '\\"quoted\\"', '\\"so-called\\"',
  'C:\\\\Users\\\\me\\\\notes.txt', 'a\\\\b', '\\\\n', '`grep -r`', '`x = 1`', '{braces}', '[brackets]',
  '50%', '$HOME', '#tag', '<tag>', '&amp;', "it's", "don't", 'tab\\there',
];

const CAPITAL = WORDS.map((w) => w[0].toUpperCase() + w.slice(1));
const ENDS = ['.', '.', '.', '.', '.', '?', '!', ':'];

const CODE = {
  python: [
    'def {w}({w2}):', '    return {w2} + 1', 'for {w} in range(10):', '    print(f\\"{{{w}}}\\")',
    'import os', 'path = os.path.join(\\"{w}\\", \\"{w2}.txt\\")', 'with open(path) as f:',
    '    {w} = f.read().split(\\"\\\\n\\")', '{w} = [x for x in {w2} if x]', '# {w} the {w2}',
    'print(\\"done\\\\t{w}\\")', 'if {w} is None:', '    raise ValueError(\\"no {w}\\")',
  ],
  javascript: [
    'const {w} = {w2}.map((x) => x * 2);', 'function {w}({w2}) {', '  return {w2}.length;', '}',
    'console.log(`{w}: ${{w2}}`);', "const re = /\\\\d+\\\\.\\\\d*/g;", 'await fetch(\\"/api/{w}\\");',
    '// {w} before {w2}', 'if (!{w}) throw new Error(\\"{w2}\\");', 'export default {w};',
  ],
  rust: [
    'fn {w}({w2}: &str) -> usize {', '    {w2}.len()', '}', 'let {w} = vec![1, 2, 3];',
    'println!(\\"{}\\", {w});', 'match {w} {', '    Some(x) => x,', '    None => 0,', '};',
    '// {w} and {w2}', 'let path = \\"C:\\\\\\\\{w}\\\\\\\\{w2}\\";',
  ],
  bash: [
    'cd ~/{w}', 'grep -rn \\"{w2}\\" .', 'for f in *.txt; do echo \\"$f\\"; done', 'ls -la | sort -k5 -n',
    'export {w}=1', 'sed -i \\"s/{w}/{w2}/g\\" file.txt', 'printf \\"%s\\\\n\\" \\"{w}\\"',
  ],
  sql: [
    'SELECT {w}, count(*) FROM {w2}', 'WHERE {w} IS NOT NULL', 'GROUP BY {w}', 'ORDER BY 2 DESC;',
    "INSERT INTO {w} VALUES ('{w2}', 1);", 'CREATE INDEX {w}_idx ON {w2} ({w});',
  ],
};
const LANGUAGES = Object.keys(CODE);

const PLAIN_MODELS = ['gpt-4o', 'gpt-4o', 'gpt-4o', 'gpt-4o-mini', 'gpt-4', 'gpt-4-5', 'gpt-4-1'];
const REASONING_MODELS = ['o3', 'o3', 'o1', 'o4-mini', 'o4-mini-high', 'o3-mini-high', 'gpt-5-thinking'];

/** The cached file's path for these bytes and seed. */
export function chatgptExportPath(bytes, { seed = 1 } = {}) {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cache, 'ponder', 'bench', `chatgpt-${Math.round(bytes)}-s${seed}-v${VERSION}.json`);
}

/**
 * Writes (or finds in the cache) a ChatGPT export of about `bytes` bytes (within 2%):
 * `{ path, bytes, conversations, nodes }` (`nodes` counts every node of every mapping).
 */
export function chatgptExport(bytes, { seed = 1 } = {}) {
  const target = Math.round(bytes);
  const path = chatgptExportPath(target, { seed });
  const metaPath = path.replace(/\.json$/, '.meta.json');
  const cached = readMeta(path, metaPath);
  if (cached) return { path, ...cached };

  mkdirSync(join(path, '..'), { recursive: true });
  // Written under another name and renamed when whole: a run cut short leaves no file that
  // looks finished (and the next run writes over what it left).
  const tmp = `${path}.partial`;
  const fd = openSync(tmp, 'w');
  let counts;
  try {
    counts = write(fd, target, seed);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  renameSync(tmp, path);
  const meta = { version: VERSION, seed, target, ...counts };
  writeFileSync(`${metaPath}.partial`, `${JSON.stringify(meta, null, 2)}\n`);
  renameSync(`${metaPath}.partial`, metaPath);
  return { path, ...counts };
}

/** The counts of a cached file that is whole (its size is the one its sidecar wrote down). */
function readMeta(path, metaPath) {
  if (!existsSync(path) || !existsSync(metaPath)) return null;
  try {
    const meta = JSON.parse(readFileSync(metaPath, 'utf8'));
    if (meta.version !== VERSION || statSync(path).size !== meta.bytes) return null;
    return { bytes: meta.bytes, conversations: meta.conversations, nodes: meta.nodes };
  } catch {
    return null;
  }
}

function write(fd, target, seed) {
  const rnd = mulberry32(seed);
  const gen = new Generator(rnd);
  let pending = [];
  let pendingBytes = 0;
  let written = 0;
  const out = (s, n) => {
    pending.push(s);
    pendingBytes += n;
    if (pendingBytes >= FLUSH_BYTES) flush();
  };
  const flush = () => {
    const buf = Buffer.from(pending.join(''), 'utf8');
    writeSync(fd, buf);
    written += buf.length;
    pending = [];
    pendingBytes = 0;
  };

  let size = 2; // "[" and "]"
  let conversations = 0;
  let nodes = 0;
  // The newest conversation first, as in the real export; each starts from ten minutes to a
  // few days before the one after it.
  let time = 1767225600 - rnd() * 86400;
  out('[', 1);
  // Each conversation may be cut short so as not to overshoot the size: what is left is its
  // budget. A last one too small to be a conversation is not written.
  while (target - size > 3000) {
    const sep = conversations ? 2 : 0;
    const conv = gen.conversation(time, target - size - sep);
    const n = Buffer.byteLength(conv.json, 'utf8');
    out(conversations ? `, ${conv.json}` : conv.json, n + sep);
    size += n + sep;
    conversations += 1;
    nodes += conv.nodes;
    time -= 600 + rnd() * rnd() * 86400 * 3;
  }
  out(']', 1);
  flush();
  if (written !== size) throw new Error(`wrote ${written} bytes, counted ${size}`);
  return { bytes: written, conversations, nodes };
}

class Generator {
  constructor(rnd) {
    this.rnd = rnd;
  }

  int(lo, hi) {
    return lo + Math.floor(this.rnd() * (hi - lo + 1));
  }

  pick(list) {
    return list[Math.floor(this.rnd() * list.length)];
  }

  /** Skewed toward the low end: uniform in the logarithm. */
  logUniform(lo, hi) {
    return Math.round(lo * Math.exp(this.rnd() * Math.log(hi / lo)));
  }

  uuid() {
    const h = () => ((this.rnd() * 4294967296) >>> 0).toString(16).padStart(8, '0');
    const a = h();
    const b = h();
    const c = h();
    const d = h();
    return `${a}-${b.slice(0, 4)}-4${b.slice(5)}-${'89ab'[c.charCodeAt(0) % 4]}${c.slice(1, 4)}-${c.slice(4)}${d}`;
  }

  hex(n) {
    let s = '';
    while (s.length < n) s += ((this.rnd() * 4294967296) >>> 0).toString(16).padStart(8, '0');
    return s.slice(0, n);
  }

  word() {
    return this.rnd() < 0.015 ? this.pick(ODD) : WORDS[Math.floor(this.rnd() * WORDS.length)];
  }

  sentence() {
    const n = this.int(5, 22);
    let s = CAPITAL[Math.floor(this.rnd() * CAPITAL.length)];
    for (let i = 1; i < n; i++) {
      const r = this.rnd();
      if (r < 0.03) s += ` **${this.word()} ${this.word()}**`;
      else if (r < 0.05) s += ` \`${this.word()}\``;
      else if (r < 0.1) s += `, ${this.word()}`;
      else s += ` ${this.word()}`;
    }
    return s + this.pick(ENDS);
  }

  paragraph(sentences) {
    let p = this.sentence();
    for (let i = 1; i < sentences; i++) p += ` ${this.sentence()}`;
    return p;
  }

  code() {
    const lang = this.pick(LANGUAGES);
    const lines = [];
    for (let i = this.int(3, 14); i > 0; i--) {
      lines.push(this.pick(CODE[lang]).replaceAll('{w2}', this.pick(WORDS)).replaceAll('{w}', this.pick(WORDS)));
    }
    return `\`\`\`${lang}\\n${lines.join('\\n')}\\n\`\`\``;
  }

  list() {
    const items = [];
    const numbered = this.rnd() < 0.4;
    for (let i = 1, n = this.int(2, 6); i <= n; i++) items.push(`${numbered ? `${i}.` : '-'} ${this.sentence()}`);
    return items.join('\\n');
  }

  /** Text (already escaped for a JSON string) of about `chars` characters. */
  text(chars, { markdown, code }) {
    const blocks = [];
    let length = 0;
    if (markdown && chars > 1200 && this.rnd() < 0.3) {
      const h = `## ${CAPITAL[Math.floor(this.rnd() * CAPITAL.length)]} ${this.word()} ${this.word()}`;
      blocks.push(h);
      length += h.length;
    }
    while (length < chars) {
      const r = this.rnd();
      let block;
      if (code && length > 0 && r < code) block = this.code();
      else if (markdown && length > 0 && r < 0.3) block = this.list();
      else block = this.paragraph(Math.max(1, Math.min(5, Math.round((chars - length) / 110))));
      blocks.push(block);
      length += block.length + 4;
    }
    return blocks.join('\\n\\n');
  }

  title() {
    const n = this.int(2, 6);
    const words = [CAPITAL[Math.floor(this.rnd() * CAPITAL.length)]];
    for (let i = 1; i < n; i++) words.push(this.word());
    return words.join(' ');
  }

  /** A conversation as JSON, of at most about `budget` bytes; `{ json, nodes }`. */
  conversation(start, budget) {
    // Messages shown (questions and answers): mostly 10 to 20, a few long ones.
    const r = this.rnd();
    let messages;
    if (r < 0.05) messages = this.int(40, 60);
    else if (r < 0.15) messages = this.int(2, 6);
    else messages = Math.round(15 + (this.rnd() + this.rnd() + this.rnd() - 1.5) * 8);
    const turns = Math.max(1, Math.round(messages / 2));
    const model = this.rnd() < 0.35 ? 'reasoning' : 'plain';
    const defaultModel = this.rnd() < 0.5 ? 'auto' : model === 'reasoning' ? this.pick(REASONING_MODELS) : 'gpt-4o';
    const id = this.uuid();

    const nodes = [];
    const add = (node) => {
      nodes.push(node);
      return node;
    };
    // About how long the JSON is so far: the conversation's own fields, each node's message
    // and the node around it.
    let size = 700;
    let counted = 0;
    const root = add({ id: this.uuid(), message: 'null', parent: null, children: [] });
    let last = root;
    const link = (parent, child) => {
      child.parent = parent.id;
      parent.children.push(child.id);
    };
    if (this.rnd() < 0.7) {
      const system = add({ id: this.uuid(), children: [] });
      system.message = this.message(system.id, { role: 'system', time: null, content: '{"content_type": "text", "parts": [""]}', endTurn: 'true', weight: '0.0', metadata: '{"is_visually_hidden_from_conversation": true}' });
      link(last, system);
      last = system;
    }
    let time = start;
    for (let t = 0; t < turns; t++) {
      time += 5 + this.rnd() * 300;
      const question = add({ id: this.uuid(), children: [] });
      const requestId = this.uuid();
      const qText = this.text(this.logUniform(20, 800), { markdown: false, code: 0.1 });
      question.message = this.message(question.id, {
        role: 'user',
        time,
        content: `{"content_type": "text", "parts": ["${qText}"]}`,
        endTurn: 'null',
        metadata: `{"selected_github_repos": [], "serialization_metadata": {"custom_symbol_offsets": []}, "request_id": "${requestId}", "message_source": null, "timestamp_": "absolute", "message_type": null}`,
      });
      link(last, question);
      if (this.rnd() < 0.05) {
        // Answered twice: the first answer stays a leaf, the conversation goes on from the second.
        const [first, , at] = this.answer(question, requestId, time, model);
        for (const node of first) add(node);
        link(question, first[0]);
        time = at + 20 + this.rnd() * 120;
      }
      const [answer, end, at] = this.answer(question, requestId, time, model);
      for (const node of answer) add(node);
      link(question, answer[0]);
      last = end;
      time = at;
      for (; counted < nodes.length; counted++) size += nodes[counted].message.length + 200;
      if (size > budget) break;
    }

    const mapping = nodes.map((n) => `"${n.id}": {"id": "${n.id}", "message": ${n.message}, "parent": ${n.parent ? `"${n.parent}"` : 'null'}, "children": [${n.children.map((c) => `"${c}"`).join(', ')}]}`);
    const json = `{"title": "${this.title()}", "create_time": ${start.toFixed(6)}, "update_time": ${time.toFixed(6)}, "mapping": {${mapping.join(', ')}}, "moderation_results": [], "current_node": "${last.id}", "plugin_ids": null, "conversation_id": "${id}", "conversation_template_id": null, "gizmo_id": null, "gizmo_type": null, "is_archived": false, "is_starred": null, "safe_urls": [], "blocked_urls": [], "default_model_slug": "${defaultModel}", "conversation_origin": null, "voice": null, "async_status": null, "disabled_tool_ids": [], "is_do_not_remember": false, "memory_scope": "global_enabled", "sugar_item_id": null, "id": "${id}"}`;
    return { json, nodes: nodes.length };
  }

  /** An answer's nodes (thoughts, recap, text; or the text alone), linked in a chain. */
  answer(question, requestId, time, kind) {
    const reasoning = kind === 'reasoning' ? this.rnd() < 0.9 : this.rnd() < 0.05;
    const slug = reasoning ? this.pick(REASONING_MODELS) : this.pick(PLAIN_MODELS);
    const common = (parent) => `"model_slug": "${slug}", "default_model_slug": "${slug}", "parent_id": "${parent}", "request_id": "${requestId}", "message_type": null, "timestamp_": "absolute"`;
    const nodes = [];
    let parent = question;
    if (reasoning) {
      const thoughtsNode = { id: this.uuid(), children: [] };
      const thoughts = [];
      let left = this.logUniform(500, 6000);
      while (left > 0) {
        const chars = Math.min(left, this.int(300, 2000));
        thoughts.push(`{"summary": "${this.title()}", "content": "${this.text(chars, { markdown: false, code: 0 })}", "chunks": [], "finished": true}`);
        left -= chars;
      }
      time += 1 + this.rnd() * 3;
      thoughtsNode.message = this.message(thoughtsNode.id, {
        role: 'assistant',
        time,
        content: `{"content_type": "thoughts", "thoughts": [${thoughts.join(', ')}], "source_analysis_msg_id": "${this.uuid()}"}`,
        endTurn: 'null',
        metadata: `{"reasoning_status": "is_reasoning", "citations": [], "content_references": [], ${common(parent.id)}}`,
      });
      nodes.push(thoughtsNode);
      const seconds = this.logUniform(2, 240);
      time += seconds;
      const recapNode = { id: this.uuid(), children: [] };
      const recap = seconds < 60 ? `Thought for ${seconds} seconds` : `Thought for ${Math.floor(seconds / 60)}m ${seconds % 60}s`;
      recapNode.message = this.message(recapNode.id, {
        role: 'assistant',
        time,
        content: `{"content_type": "reasoning_recap", "content": "${recap}"}`,
        endTurn: 'null',
        metadata: `{"reasoning_status": "reasoning_ended", "finished_duration_sec": ${seconds}, "citations": [], "content_references": [], ${common(thoughtsNode.id)}}`,
      });
      recapNode.parent = thoughtsNode.id;
      thoughtsNode.children.push(recapNode.id);
      nodes.push(recapNode);
      parent = recapNode;
    }
    time += 2 + this.rnd() * 30;
    const textNode = { id: this.uuid(), children: [] };
    textNode.message = this.message(textNode.id, {
      role: 'assistant',
      time,
      content: `{"content_type": "text", "parts": ["${this.text(this.logUniform(200, 4000), { markdown: true, code: 0.15 })}"]}`,
      endTurn: 'true',
      metadata: `{"finish_details": {"type": "stop", "stop_tokens": [200002]}, "is_complete": true, "citations": [], "content_references": [], ${common(parent.id)}}`,
    });
    // The first node is linked under the question by the caller; the others each under the last.
    if (parent !== question) {
      textNode.parent = parent.id;
      parent.children.push(textNode.id);
    }
    nodes.push(textNode);
    return [nodes, textNode, time];
  }

  message(id, { role, time, content, endTurn, weight = '1.0', metadata }) {
    const at = time === null ? 'null' : time.toFixed(6);
    return `{"id": "${id}", "author": {"role": "${role}", "name": null, "metadata": {}}, "create_time": ${at}, "update_time": null, "content": ${content}, "status": "finished_successfully", "end_turn": ${endTurn}, "weight": ${weight}, "metadata": ${metadata}, "recipient": "all", "channel": null}`;
  }
}

// Run alone, it writes one and says what: node bench/chatgpt-export.mjs BYTES [SEED]
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const bytes = Number(process.argv[2] ?? 20e6);
  const seed = Number(process.argv[3] ?? 1);
  const t0 = performance.now();
  const result = chatgptExport(bytes, { seed });
  const s = (performance.now() - t0) / 1000;
  const heap = process.memoryUsage();
  console.log(JSON.stringify({ ...result, seconds: Math.round(s * 10) / 10, heapUsedMB: Math.round(heap.heapUsed / 1048576), rssMB: Math.round(heap.rss / 1048576) }));
}
