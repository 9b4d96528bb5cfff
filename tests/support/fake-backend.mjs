/** @typedef {import('../../ui/src/lib/ipc-generated').ConversationSummary} ConversationSummary */
/** @typedef {import('../../ui/src/lib/ipc-generated').ConversationView} ConversationView */
/** @typedef {import('../../ui/src/lib/ipc-generated').LevelOption} LevelOption */
/** @typedef {import('../../ui/src/lib/ipc-generated').MessageView} MessageView */
/** @typedef {import('../../ui/src/lib/ipc-generated').ModelView} ModelView */
/** @typedef {import('../../ui/src/lib/ipc-generated').PartView} PartView */
/** @typedef {import('../../ui/src/lib/ipc-generated').ProviderView} ProviderView */
/** @typedef {import('../../ui/src/lib/ipc-generated').ReasoningSettings} ReasoningSettings */
/** @typedef {import('../../ui/src/lib/ipc-generated').StreamEvent} StreamEvent */
/** @typedef {import('../../ui/src/lib/ipc-generated').SearchHit} SearchHit */
/** @typedef {import('../../ui/src/lib/ipc-generated').Commands} Commands */
/**
 * One handler per command the real backend answers, taking its arguments and returning its
 * result (or a promise of it), as the generated contract says.
 * @typedef {{ [K in keyof Commands]: (args: Commands[K]['args'] & { onEvent?: unknown }) => Commands[K]['result'] | Promise<Commands[K]['result']> }} Handlers
 */
/** @typedef {[string, string, string, number, number, string, LevelOption[]]} ModelRow */
// Checked against the Rust IPC types (`tsc -p tests/support`): what it answers and streams has
// the shapes the real backend gives, and nothing it does not.
// An in-memory Ponder backend for UI tests: every IPC command the UI calls, answered the way
// src-tauri answers it, with runs that stream a realistic sequence over the Tauri Channel
// (thoughts for about a second, then the answer). No network, no disk.
//
// `installFakeBackend` is self-contained so it can run in a page: Playwright injects it with
// `fakeBackendScript(options)`; vitest calls it with `@tauri-apps/api/mocks`' `mockIPC`.
//
// Test hooks on `window.__fake`:
//   next = { error: {code, message}, at: 'thinking' | 'answer' | 'start' }   the next run fails
//   failSend = {code, message}       the next send_message rejects before any run starts
//   hold = true                      runs pause after some thoughts until release()
//   release()                        lets held runs go on
//   calls                            every command and its arguments (also window.__calls);
//                                    attach_bytes's also with its headers
//   keysSeen                         how many keys were stored (their values are never kept)
//   settings()                       the settings as the backend holds them
//   importStep()                     the next step of an import held by options.importHold

export function installFakeBackend(win, mockIPC, options = {}) {
  const speed = options.speed ?? 1;
  const ms = (n) => Math.max(0, Math.round(n * speed));
  const now = () => Date.now();
  const ABOUT = options.about ?? {
    name: 'Ponder',
    version: '0.1.0',
    dataDir: '/home/ada/.local/share/dev.ponder.desktop',
    databasePath: '/home/ada/.local/share/dev.ponder.desktop/ponder.sqlite3',
    modelsDated: '2026-11-01',
  };

  // ---- catalog ----
  /** @returns {LevelOption[]} */
  const budget = (low, medium, high) => [
    { choice: 'default', label: 'default — the provider decides (off)', available: true },
    { choice: 'off', label: 'off — no thinking', available: true },
    { choice: 'minimal', label: 'minimal — 1,024 tokens', available: true },
    { choice: 'low', label: `low — ${low} tokens`, available: true },
    { choice: 'medium', label: `medium — ${medium} tokens`, available: true },
    { choice: 'high', label: `high — ${high} tokens`, available: true },
    { choice: 'max', label: 'max — same as high', available: false },
  ];
  const PROVIDERS = [
    { id: 'anthropic', name: 'Anthropic', base: 'https://api.anthropic.com', needsKey: true, hasKey: true, protocol: 'anthropic' },
    { id: 'openai', name: 'OpenAI', base: 'https://api.openai.com/v1', needsKey: true, hasKey: false, protocol: 'openai_responses' },
    { id: 'google', name: 'Google', base: 'https://generativelanguage.googleapis.com', needsKey: true, hasKey: true, protocol: 'gemini' },
    { id: 'deepseek', name: 'DeepSeek', base: 'https://api.deepseek.com', needsKey: true, hasKey: true, protocol: 'openai_chat' },
    { id: 'ollama', name: 'Ollama', base: 'http://localhost:11434', needsKey: false, hasKey: false, protocol: 'ollama' },
    { id: 'copilot', name: 'GitHub Copilot', base: 'https://github.com', needsKey: true, hasKey: false, signIn: 'github', protocol: 'openai_chat' },
  ];
  for (const p of PROVIDERS) if (options.keys && p.id in options.keys) p.hasKey = options.keys[p.id];
  /** @type {ModelRow[]} */
  const MODELS = [
    ['anthropic', 'claude-sonnet-4-5', 'Claude Sonnet 4.5', 200000, 64000, 'budget', budget('22,016', '43,008', '64,000')],
    ['anthropic', 'claude-haiku-4-5', 'Claude Haiku 4.5', 200000, 64000, 'budget', budget('11,349', '21,674', '32,000')],
    ['openai', 'o3', 'o3', 200000, 100000, 'effort', [
      { choice: 'default', label: 'default — the provider decides (medium)', available: true },
      { choice: 'off', label: 'off — not available, minimum is low effort', available: false },
      { choice: 'low', label: 'low — low effort', available: true },
      { choice: 'medium', label: 'medium — medium effort', available: true },
      { choice: 'high', label: 'high — high effort', available: true },
    ]],
    ['google', 'gemini-3.1-pro-preview', 'Gemini 3.1 Pro preview', 1048576, 65536, 'level', [
      { choice: 'default', label: 'default — the provider decides (high)', available: true },
      { choice: 'off', label: 'off — not available, minimum is LOW', available: false },
      { choice: 'minimal', label: 'minimal — same as low', available: false },
      { choice: 'low', label: 'low — LOW', available: true },
      { choice: 'medium', label: 'medium — same as high', available: false },
      { choice: 'high', label: 'high — HIGH', available: true },
    ]],
    ['google', 'gemma-3-27b-it', 'gemma-3-27b-it', 65536, 8192, 'none', []],
    ['google', 'gemini-2.5-pro', 'Gemini 2.5 Pro', 1048576, 65536, 'budget', budget('11,008', '21,888', '32,768')],
    ['deepseek', 'deepseek-reasoner', 'DeepSeek Reasoner', 128000, 64000, 'always', [
      { choice: 'default', label: 'always thinks — nothing to choose', available: true },
    ]],
    ['copilot', 'gpt-5.4', 'GPT-5.4', 272000, 128000, 'effort', [
      { choice: 'default', label: 'default — the provider decides (medium)', available: true },
      { choice: 'low', label: 'low — low effort', available: true },
      { choice: 'medium', label: 'medium — medium effort', available: true },
      { choice: 'high', label: 'high — high effort', available: true },
      { choice: 'max', label: 'max — same as high', available: false },
    ]],
    ['copilot', 'claude-sonnet-4.6', 'Claude Sonnet 4.6', 200000, 64000, 'effort', [
      { choice: 'default', label: 'default — the provider decides (off)', available: true },
      { choice: 'off', label: 'off — no thinking', available: true },
      { choice: 'low', label: 'low — low effort', available: true },
      { choice: 'medium', label: 'medium — medium effort', available: true },
      { choice: 'high', label: 'high — high effort', available: true },
    ]],
    ['ollama', 'qwen3:8b', 'Qwen3 8B', 40960, 8192, 'toggle', [
      { choice: 'default', label: 'default — the provider decides (on)', available: true },
      { choice: 'off', label: 'off — no thinking', available: true },
      { choice: 'medium', label: 'on — thinking on', available: true },
    ]],
  ];
  const provider = (id) => PROVIDERS.find((p) => p.id === id);
  /** The listed prices of a provider's models (dollars per million tokens). */
  const LISTED = (pid) => (pid === 'ollama' || pid.startsWith('custom-') ? null : { input: 3, output: 15, cachedInput: 0.3, reasoning: null });
  // Ids typed in the picker: the provider's generic rule, thinking support unknown.
  const added = new Set();
  /** @returns {ProviderView} */
  const providerView = (p) => ({
    id: p.id,
    name: p.name,
    protocol: p.protocol,
    enabled: settings.providers[p.id]?.enabled ?? true,
    baseUrl: settings.providers[p.id]?.baseUrl || p.base,
    defaultBaseUrl: p.base,
    needsKey: p.needsKey,
    hasKey: p.hasKey,
    keyEnv: `PONDER_${p.id.toUpperCase().replace(/[^A-Z0-9]/g, '_')}_API_KEY`,
    custom: Boolean(p.custom),
    signIn: p.signIn ?? null,
  });
  /** @returns {ModelView[]} */
  const modelViews = () =>
    MODELS.filter(([pid]) => settings.providers[pid]?.enabled !== false).map(([pid, id, name, contextWindow, maxOutput, thinking, levels]) => {
      const p = provider(pid);
      /** @type {ModelView} */
      const view = {
        provider: pid,
        providerName: p.name,
        id,
        name,
        contextWindow,
        maxOutput,
        thinking,
        canDisable: levels.some((l) => l.choice === 'off' && l.available),
        apiChoice: pid === 'openai',
        shows: pid === 'openai' || pid === 'google' ? 'summary' : 'full',
        needsKey: p.needsKey && !p.hasKey,
        known: !added.has(`${pid}/${id}`),
        rule: added.has(`${pid}/${id}`) ? 'none' : 'hand',
        source: added.has(`${pid}/${id}`) ? 'added' : pid === 'ollama' ? 'live' : 'catalog',
        released: null,
        // `options.retired`: { 'provider/id': 'YYYY-MM-DD' }, models the provider has retired.
        retired: options.retired?.[`${pid}/${id}`] ?? null,
        levels,
        listedPrice: LISTED(pid),
      };
      return view;
    });
  const findModel = (pid, id) => modelViews().find((m) => m.provider === pid && m.id === id);

  // ---- settings, kept across reloads like the real store ----
  const store = (() => {
    try {
      return win.sessionStorage;
    } catch {
      return null;
    }
  })();
  const defaults = {
    theme: options.theme ?? 'system',
    defaultProvider: null,
    defaultModel: null,
    defaultChoice: 'default',
    thoughtVisibility: 'auto',
    storeThoughts: true,
    retentionDays: null,
    stallTimeoutSecs: 60,
    providers: {},
    profiles: {},
    mcpServers: [],
    alwaysAllowedTools: [],
    toolStepLimit: 25,
    toolTimeoutSecs: 60,
    prices: [],
    ...(options.settings ?? {}),
  };
  let settings = { ...defaults, ...JSON.parse(store?.getItem('fake.settings') ?? '{}') };
  const saveSettings = () => store?.setItem('fake.settings', JSON.stringify(settings));

  // ---- conversations ----
  let seq = 0;
  const id = (prefix) => `${prefix}-${++seq}`;
  const conversations = new Map();
  /** @returns {ReasoningSettings} */
  const reasoningDefaults = () => ({
    enabled: true,
    includeInContext: false,
    includeInResponse: true,
    format: 'field',
    stripFromContext: 'none',
    longContextCut: true,
    choice: 'default',
  });
  /** @returns {PartView} */
  const thinkingPart = (text, durationMs, extra = {}) => ({
    type: 'thinking',
    text,
    source: 'thinking',
    summary: false,
    redacted: false,
    hidden: false,
    durationMs,
    tokenEstimate: Math.ceil(text.length / 4),
    partial: false,
    ...extra,
  });
  // As the backend does: a view carries only the start of a long thought (`thought_text`
  // gives the whole).
  const PREVIEW_CHARS = 1500;
  /** @param {MessageView} m @returns {MessageView} */
  const previewed = (m) => ({
    ...m,
    parts: m.parts.map((p) => {
      if (p.type !== 'thinking' || p.text.length <= PREVIEW_CHARS) return p;
      const start = p.text.slice(0, PREVIEW_CHARS);
      const line = start.lastIndexOf('\n');
      return { ...p, text: line > PREVIEW_CHARS / 2 ? start.slice(0, line) : start, partial: true, tokenEstimate: p.tokenEstimate ?? Math.ceil(p.text.length / 4) };
    }),
  });
  /** @returns {MessageView} */
  const userMessage = (text, at) => ({
    id: id('m'),
    role: 'user',
    status: 'complete',
    parts: [{ type: 'text', text }],
    provider: null,
    model: null,
    choice: null,
    usage: {},
    thinkingMs: null,
    stop: null,
    error: null,
    notes: [],
    createdAt: at,
    versions: [],
    cost: null,
  });
  /** @returns {MessageView} */
  const assistantMessage = (parts, at, extra = {}) => ({
    id: id('m'),
    role: 'assistant',
    status: 'complete',
    parts,
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    choice: 'medium',
    usage: { input: 412, output: 980, reasoning: 610 },
    thinkingMs: 14000,
    stop: { kind: 'end' },
    error: null,
    notes: [],
    createdAt: at,
    versions: [],
    cost: null,
    ...extra,
  });
  /** @returns {ConversationView} */
  const conversation = (title, at, messages, extra = {}) => {
    /** @type {ConversationView} */
    const c = {
      id: id('c'),
      title,
      createdAt: at,
      updatedAt: at,
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      settings: { ...reasoningDefaults(), choice: 'medium' },
      pinned: false,
      archived: false,
      messages,
      earlier: 0,
      cost: null,
      totals: { answers: 0, thinkingMs: 0, inputTokens: 0, outputTokens: 0, thinkingTokens: 0, cost: null },
      ...extra,
    };
    conversations.set(c.id, c);
    return c;
  };

  const DAY = 86_400_000;
  if (options.seed) {
    const t = now();
    conversation('Why the sky is blue', t - 2 * 3600_000, [
      userMessage('Why is the sky blue?', t - 2 * 3600_000),
      assistantMessage(
        [
          thinkingPart('The user asks about **Rayleigh scattering**. Shorter wavelengths scatter more, roughly as 1/λ⁴.\n\nI should mention why it is not violet: the sun emits less violet and our eyes are less sensitive to it.', 14000),
          { type: 'text', text: 'Sunlight is scattered by the molecules of the air, and **blue light scatters far more** than red (Rayleigh scattering, about 1/λ⁴).\n\nThe sky is not violet because the sun sends less violet light and our eyes are less sensitive to it.' },
        ],
        t - 2 * 3600_000 + 20000,
      ),
    ]);
    conversation('Prime sieve in Rust', t - 3 * DAY, [
      userMessage('Write a prime sieve in Rust.', t - 3 * DAY),
      assistantMessage(
        [
          thinkingPart('A sieve of Eratosthenes with a Vec<bool>. Start crossing out at p*p.', 6000),
          { type: 'text', text: 'Here is a sieve of Eratosthenes:\n\n```rust\nfn primes(n: usize) -> Vec<usize> {\n    let mut is = vec![true; n + 1];\n    let mut out = Vec::new();\n    for p in 2..=n {\n        if is[p] {\n            out.push(p);\n            let mut k = p * p;\n            while k <= n {\n                is[k] = false;\n                k += p;\n            }\n        }\n    }\n    out\n}\n```' },
        ],
        t - 3 * DAY + 9000,
        { thinkingMs: 6000, usage: { input: 120, output: 300, reasoning: 90 } },
      ),
    ], { pinned: true });
    conversation('Trip to Lisbon', t - 9 * DAY, [userMessage('Plan three days in Lisbon.', t - 9 * DAY)]);
  }
  if (options.untrusted) {
    const t = now() - 3600_000;
    conversation('Untrusted output', t, [
      userMessage('Show me some HTML.', t),
      assistantMessage(
        [
          {
            type: 'text',
            text: [
              'Here is a picture: ![a cat](https://images.example.com/cat.png)',
              '<img src="x" onerror="window.pwned = 1">',
              '<script>window.pwned = 2</script>',
              '[click me](javascript:window.pwned=3)',
              '<a href="javascript:window.pwned=4" onclick="window.pwned=5">or me</a>',
            ].join('\n\n'),
          },
        ],
        t + 5000,
        { thinkingMs: null, usage: { input: 10, output: 50 } },
      ),
    ]);
  }
  if (options.imported) {
    // A `ponder-backup` file, as `ponder-cli import` would read it into a history.
    for (const { conversation: c, messages } of options.imported.conversations) {
      conversation(
        c.title,
        c.createdAt,
        messages.map((m) => {
          /** @returns {import('../../ui/src/lib/ipc-generated').PartView} */
          const view = (p) => {
            switch (p.type) {
              case 'thinking':
                return thinkingPart(p.text, p.duration_ms ?? 1000);
              case 'tool_call':
                return { type: 'toolCall', id: p.id, name: p.name, arguments: p.arguments };
              case 'tool_result':
                return { type: 'toolResult', callId: p.call_id, name: p.name, content: p.content, isError: p.is_error ?? false, durationMs: p.duration_ms ?? null };
              default:
                return { type: 'text', text: p.text };
            }
          };
          const parts = m.message.parts.map(view);
          const error = m.errorMessage ? { code: 'badRequest', message: m.errorMessage } : null;
          const calls = parts.some((p) => p.type === 'toolCall');
          switch (m.message.role) {
            case 'user':
              return userMessage(parts.map((p) => p.text).join(''), m.createdAt);
            case 'tool':
              return assistantMessage(parts, m.createdAt, { role: 'tool', provider: null, model: null, choice: null, usage: {}, thinkingMs: null, stop: null });
            default:
              return assistantMessage(parts, m.createdAt, { status: m.status, error, ...(calls ? { stop: { kind: 'tool_use' } } : {}) });
          }
        }),
        // The settings as the history holds them after an import (a file's system prompt set
        // aside, its allowed tools dropped).
        c.settings ? { settings: { ...reasoningDefaults(), ...c.settings } } : {},
      );
    }
  }
  if (options.long) {
    const t = now() - DAY;
    const messages = [];
    for (let i = 0; i < options.long; i++) {
      messages.push(userMessage(`Question ${i + 1}: tell me something about the number ${i + 1}.`, t + i * 1000));
      messages.push(
        assistantMessage(
          [
            thinkingPart(`Thinking about ${i + 1}. It is ${i % 2 ? 'odd' : 'even'}.`, 1000 + i),
            { type: 'text', text: `Answer ${i + 1}: **${i + 1}** is ${(i + 1) % 2 ? 'odd' : 'even'}.\n\n${'A line of filler text. '.repeat(1 + (i % 6))}` },
          ],
          t + i * 1000 + 500,
          { thinkingMs: 1000 + i },
        ),
      );
    }
    conversation('A very long conversation', now() - 60_000, messages);
  }
  // Whole conversations as the backend shows them (the performance run's history).
  for (const c of options.conversations ?? []) conversations.set(c.id, c);

  /** @returns {ConversationSummary} */
  const summary = (c) => ({
    id: c.id,
    title: c.title,
    updatedAt: c.updatedAt,
    provider: c.provider,
    model: c.model,
    pinned: c.pinned,
    archived: c.archived,
    messageCount: c.messages.length,
    project: c.project ?? null,
  });
  const clone = (v) => JSON.parse(JSON.stringify(v));
  const fail = (code, message) => {
    throw { code, message };
  };
  const need = (cid) => conversations.get(cid) ?? fail('notFound', `no conversation ${cid}`);

  // ---- versions ----
  // A conversation's `messages` are the path it shows. Every other version of a message waits
  // here with the path that followed it, by the version's id: { parent, tail }.
  const stashes = new Map();
  const deleted = new Map();
  const stashOf = (cid) => stashes.get(cid) ?? stashes.set(cid, new Map()).get(cid);
  /** Puts the shown path from `at` aside as a version, and cuts it from the thread. */
  const setAside = (c, at) => {
    const tail = c.messages.slice(at);
    if (tail.length === 0) return;
    stashOf(c.id).set(tail[0].id, { parent: at > 0 ? c.messages[at - 1].id : null, tail });
    c.messages = c.messages.slice(0, at);
  };
  /** Shows the stashed version `mid` in place of the one shown beside it. */
  const bringIn = (c, mid) => {
    const entry = stashOf(c.id).get(mid);
    if (!entry) return;
    const at = entry.parent === null ? 0 : c.messages.findIndex((m) => m.id === entry.parent) + 1;
    setAside(c, at);
    stashOf(c.id).delete(mid);
    c.messages = [...c.messages, ...entry.tail];
  };
  /** A model's prices: the user's from Settings where set, else the fake's listed ones (every
   * hosted model at Claude Sonnet 4.5's $3 and $15 per million tokens; local ones unlisted). */
  const rates = (provider, model) => {
    const own = (settings.prices ?? []).find((p) => p.provider === provider && p.model === model);
    const listed = LISTED(provider);
    const input = own?.input ?? listed?.input ?? null;
    const output = own?.output ?? listed?.output ?? null;
    return input === null || output === null ? null : { input, output };
  };
  const cost = (provider, model, usage) => {
    const r = rates(provider, model);
    return r && (usage?.input || usage?.output) ? ((usage.input ?? 0) * r.input + (usage.output ?? 0) * r.output) / 1e6 : null;
  };
  const priced = (m) => (m.role === 'assistant' ? cost(m.provider, m.model, m.usage) : null);
  /** The conversation as the backend sends it: each message with the ids of its versions and its cost. */
  const withVersions = (c) => {
    const out = clone(c);
    const stash = [...stashOf(c.id).values()];
    const every = [...out.messages, ...stash.flatMap((v) => v.tail)].map(priced).filter((n) => n !== null);
    out.cost = every.length ? every.reduce((a, b) => a + b, 0) : null;
    const answers = [...out.messages, ...stash.flatMap((v) => v.tail)].filter((m) => m.role === 'assistant');
    const sum = (f) => answers.reduce((a, m) => a + (f(m) ?? 0), 0);
    out.totals = {
      answers: answers.length,
      thinkingMs: sum((m) => m.thinkingMs),
      inputTokens: sum((m) => m.usage?.input),
      outputTokens: sum((m) => m.usage?.output),
      thinkingTokens: sum((m) => m.usage?.reasoning),
      cost: out.cost,
    };
    out.messages = out.messages.map((m, i) => {
      const parent = i > 0 ? out.messages[i - 1].id : null;
      const others = stash.filter((v) => v.parent === parent).map((v) => v.tail[0]);
      const order = (v) => Number(v.id.split('-').at(-1)) || 0;
      const all = [...others, m].sort((a, b) => a.createdAt - b.createdAt || order(a) - order(b));
      return { ...previewed(m), versions: others.length ? all.map((v) => v.id) : [], cost: priced(m) };
    });
    out.earlier = 0;
    return out;
  };
  // The path's end as the backend reads it: at least `tail` messages, back to a question.
  const tailOf = (view, tail) => {
    let start = Math.max(0, view.messages.length - tail);
    while (start > 0 && view.messages[start].role !== 'user') start -= 1;
    return { ...view, messages: view.messages.slice(start), earlier: start };
  };
  const holding = (mid) =>
    [...conversations.values()].find((x) => x.messages.some((m) => m.id === mid) || stashOf(x.id).has(mid) || deleted.has(mid)) ??
    fail('notFound', 'no such message');

  // ---- runs ----
  const THOUGHT = [
    'The user wants to know how many primes there are below 100. ',
    'Let me count them by decade.\n',
    '  2, 3, 5, 7 — four in the first ten.\n',
    '  11, 13, 17, 19 — four more.\n',
    '23, 29 — two. 31, 37 — two. ',
    '41, 43, 47 — three. 53, 59 — two. ',
    '61, 67 — two. 71, 73, 79 — three. ',
    '83, 89 — two. 97 — one. ',
    'So 4 + 4 + 2 + 2 + 3 + 2 + 2 + 3 + 2 + 1 = 25. ',
    'I should answer with the count and the list.',
  ];
  const attachAnswers = [...(options.attach ?? [])];
  /** Every file handed out, for send_message to find by hash. */
  const picked = [];
  const ANSWER = options.answer ?? [
    'There are **25 primes** below 100:\n\n',
    '```text\n2 3 5 7 11 13 17 19 23 29\n31 37 41 43 47 53 59 61 67 71\n73 79 83 89 97\n```\n\n',
    'A quick way to check: the *prime-counting function* gives π(100) = 25.',
  ];
  const runs = new Map();
  const held = [];
  const fake = {
    next: null,
    failSend: null,
    hold: false,
    calls: [],
    keysSeen: 0,
    signIns: 0,
    codeEntered: false,
    holdSignIn: Boolean(options.copilotHold),
    release() {
      fake.hold = false;
      held.splice(0).forEach((go) => go());
    },
    conversations,
    /** The settings as the backend holds them. */
    settings: () => JSON.parse(JSON.stringify(settings)),
  };
  win.__fake = fake;
  win.__calls = fake.calls;

  /** @returns {(event: StreamEvent) => void} */
  function channelSender(channel) {
    let index = 0;
    return (message) => {
      if (!channel) return;
      const cb = win.__TAURI_INTERNALS__?.runCallback;
      if (typeof channel.id === 'number' && cb) cb(channel.id, { index: index++, message });
      else if (typeof channel.onmessage === 'function') channel.onmessage(message);
    };
  }

  /**
   * A tool loop, when the conversation has servers on and the message asks for a tool: the
   * model thinks and calls `echo`, the call waits on its approval card until the user
   * answers (answer_tool_call), the result comes back, and the model answers. Stored as the
   * backend stores it: the step, a `tool` message, the answer.
   */
  function startToolRun(c, userMessageId, choice, channel, text) {
    const runId = id('run');
    const send = channelSender(channel);
    const base = { role: 'assistant', provider: c.provider, model: c.model, choice, usage: {}, thinkingMs: null, error: null, notes: [], createdAt: now() };
    const step = { ...base, id: id('m'), status: 'streaming', parts: [], stop: null };
    const callId = id('call');
    const server = c.settings.tools.servers[0];
    const args = JSON.stringify({ message: text });
    const run = { runId, timers: [], message: step, closed: false, conversation: c, partial: () => step.parts };
    run.send = send;
    runs.set(runId, run);
    const later = (delay, fn) => run.timers.push(setTimeout(() => !run.closed && fn(), ms(delay)));
    later(30, () => send({ type: 'started', runId, userMessageId, messageId: step.id }));
    later(60, () => {
      send({ type: 'thinkingStart', source: 'thinking' });
      send({ type: 'thinkingDelta', text: 'The echo tool can say it back.', at: Date.now() });
      send({ type: 'thinkingEnd' });
      send({ type: 'toolCall', name: 'echo' });
      // Stored with the times a real model would have taken: 4 s, then 10 s in the answer step.
      step.parts = [thinkingPart('The echo tool can say it back.', 4000), { type: 'toolCall', id: callId, name: 'echo', arguments: args }];
      c.messages.push({ ...step, status: 'complete', stop: { kind: 'tool_use' }, thinkingMs: 4000 });
      send({ type: 'stepFinished', messageId: step.id });
      send({ type: 'toolStarted', callId, name: 'echo', server, arguments: args });
      send({ type: 'approvalNeeded', callId, server, tool: 'echo', arguments: JSON.stringify({ message: text }, null, 2) });
    });
    approvals.set(`${runId}/${callId}`, (decision) => {
      const denied = decision === 'deny';
      /** @type {import('../../ui/src/lib/ipc-generated').PartView} */
      const result = {
        type: 'toolResult',
        callId,
        name: 'echo',
        content: [{ type: 'text', text: denied ? 'The user denied this tool call.' : `Echo: ${text}` }],
        isError: denied,
        durationMs: 12,
      };
      const tool = { ...base, id: id('m'), role: 'tool', status: 'complete', parts: [result], stop: null, provider: null, model: null };
      const thought = denied ? 'The user said no; I will answer without it.' : 'The echo came back; now the answer.';
      const said = denied ? 'I could not run the tool.' : 'The tool said it back.';
      const answer = {
        ...base,
        id: id('m'),
        status: 'complete',
        parts: [thinkingPart(thought, 10000), { type: 'text', text: said }],
        stop: { kind: 'end' },
        thinkingMs: 10000,
      };
      later(20, () => {
        send({ type: 'toolFinished', result });
        c.messages.push(tool);
        send({ type: 'nextStep', toolMessageId: tool.id, messageId: answer.id });
      });
      later(60, () => {
        send({ type: 'thinkingStart', source: 'thinking' });
        send({ type: 'thinkingDelta', text: thought, at: Date.now() });
        send({ type: 'thinkingEnd' });
        send({ type: 'textDelta', text: said, at: Date.now() });
        run.closed = true;
        c.messages.push(answer);
        c.updatedAt = now();
        send({ type: 'done', message: { ...clone(answer), cost: priced(answer) } });
      });
    });
    return runId;
  }
  /** Calls waiting on their approval card, by `runId/callId`. */
  const approvals = new Map();

  /** A run answering `userMessageId`; `origin` is a model for this answer only (a rerun).
   * `aside`: another answer to a question whose shown answer is another one (asked at
   * several levels): it is kept as a version, as the real backend does, not shown. */
  function startRun(c, userMessageId, choice, channel, origin = { provider: c.provider, model: c.model }, aside = false) {
    const runId = id('run');
    const send = channelSender(channel);
    const m = findModel(origin.provider, origin.model);
    const message = {
      id: id('m'),
      role: 'assistant',
      status: 'streaming',
      parts: [],
      provider: origin.provider,
      model: origin.model,
      choice,
      usage: {},
      thinkingMs: null,
      stop: null,
      error: null,
      createdAt: now(),
      versions: [],
      cost: null,
    };
    const failure = fake.next;
    fake.next = null;
    const run = { runId, timers: [], message, closed: false, conversation: c };
    run.place = (stored) => {
      if (aside) stashOf(c.id).set(stored.id, { parent: userMessageId, tail: [stored] });
      else c.messages.push(stored);
    };
    runs.set(runId, run);
    const thinks = m && m.levels.length > 0 && choice !== 'off';
    let thought = '';
    let answer = '';
    let thinkStart = 0;
    const steps = [];
    const at = (delay, fn) => steps.push({ delay, fn });
    const finishWithError = () => {
      run.closed = true;
      const parts = [];
      if (thought) parts.push(thinkingPart(thought, now() - thinkStart));
      if (answer) parts.push({ type: 'text', text: answer });
      const stored = { ...message, parts, status: 'error', error: failure.error };
      run.place(stored);
      send({ type: 'error', error: failure.error, message: failure.withMessage ? clone(stored) : null });
    };
    at(30, () => send({ type: 'started', runId, userMessageId, messageId: message.id }));
    const level = m?.levels.find((l) => l.choice === choice);
    const turnNotes = [`Thinking: ${choice} (${level?.label.split(' — ')[1] ?? choice})`];
    message.notes = turnNotes;
    at(10, () => {
      send({
        type: 'plan',
        feedback: `✓ Switched to ${provider(c.provider)?.name} ${c.model}\n  ${turnNotes[0]}`,
        warnings: [],
        meaning: { kind: 'budget', tokens: 43008 },
        notes: turnNotes,
      });
    });
    if (failure?.at === 'start') at(150, finishWithError);
    else {
      if (thinks) {
        at(60, () => {
          thinkStart = now();
          send({ type: 'thinkingStart', source: c.provider === 'openai' ? 'summary' : 'thinking' });
        });
        THOUGHT.forEach((text, i) => {
          at(100, () => {
            thought += text;
            send({ type: 'thinkingDelta', text, at: Date.now() });
          });
          if (i === 3) at(0, 'hold');
        });
        if (failure?.at === 'thinking') at(50, finishWithError);
        else at(40, () => send({ type: 'thinkingEnd' }));
      }
      if (!failure || failure.at !== 'thinking') {
        ANSWER.forEach((text, i) => {
          at(60, () => {
            answer += text;
            send({ type: 'textDelta', text, at: Date.now() });
          });
          if (failure?.at === 'answer' && i === 0) at(40, finishWithError);
        });
        if (!failure) {
          at(30, () => send({ type: 'usage', usage: { input: 1204 } }));
          at(20, () => {
            const usage = { input: 1204, output: 1890, reasoning: thinks ? 860 : undefined };
            send({ type: 'usage', usage: { output: usage.output, reasoning: usage.reasoning } });
            run.closed = true;
            const parts = [];
            const thinkingMs = thinks ? Math.max(1, now() - thinkStart - ANSWER.length * ms(60)) : null;
            if (thinks && thought) parts.push(thinkingPart(thought, thinkingMs, { source: c.provider === 'openai' ? 'summary' : 'thinking', summary: c.provider === 'openai' }));
            parts.push({ type: 'text', text: answer });
            const done = { ...message, parts, status: 'complete', usage: JSON.parse(JSON.stringify(usage)), thinkingMs, stop: { kind: 'end' } };
            run.place(done);
            c.updatedAt = now();
            send({ type: 'done', message: { ...clone(done), cost: priced(done) } });
          });
        }
      }
    }
    run.partial = () => {
      const parts = [];
      if (thought) parts.push(thinkingPart(thought, now() - thinkStart));
      if (answer) parts.push({ type: 'text', text: answer });
      return parts;
    };
    run.send = send;
    // Play the steps one after another, honouring holds.
    let i = 0;
    const play = () => {
      if (run.closed || i >= steps.length) return;
      const step = steps[i++];
      if (step.fn === 'hold') {
        if (fake.hold) held.push(play);
        else play();
        return;
      }
      run.timers.push(
        setTimeout(() => {
          if (run.closed) return;
          step.fn();
          play();
        }, ms(step.delay)),
      );
    };
    play();
    return runId;
  }

  function titleFrom(text) {
    const clean = text.replace(/\s+/g, ' ').trim();
    return clean.length > 40 ? `${clean.slice(0, 39)}…` : clean;
  }

  /** A conversation's text in tokens, roughly (four characters each). */
  function estimateContext(cid) {
    const c = need(cid);
    const chars = c.messages.reduce((n, m) => n + m.parts.filter((p) => p.type === 'text').reduce((k, p) => k + p.text.length, 0), 0);
    return { tokens: Math.ceil(chars / 4), exact: false };
  }

  // ---- MCP servers ----
  const FAKE_TOOLS = [
    { name: 'echo', description: 'Echoes back the input string' },
    { name: 'get-sum', description: 'Returns the sum of two numbers' },
    { name: 'get-tiny-image', description: 'Returns a tiny MCP logo image' },
  ];
  const started = new Set();
  const secrets = new Set();
  /** @param {{ id: string, transport: { type: string, command?: string } }} server */
  function mcpState(server) {
    if (!started.has(server.id)) return { kind: 'stopped' };
    if (server.transport.type === 'stdio' && server.transport.command === 'fail') {
      return { kind: 'failed', reason: 'the server stopped: exit status 1', stderr: ['fatal: MCP_TOKEN is not set'] };
    }
    return { kind: 'connected', tools: FAKE_TOOLS.map((t) => t.name) };
  }

  // ---- commands ----
  /** @type {Handlers} */
  const handlers = {
    app_info: () => ABOUT,
    get_settings: () => clone(settings),
    set_theme: ({ theme }) => {
      if (!['light', 'dark', 'system'].includes(theme)) fail('invalidInput', `no such theme: ${theme}`);
      settings.theme = theme;
      saveSettings();
      return clone(settings);
    },
    update_settings: ({ patch }) => {
      settings = { ...settings, ...clone(patch) };
      saveSettings();
      return clone(settings);
    },
    list_providers: () => PROVIDERS.map(providerView),
    set_thought_hidden: ({ messageId, index, hidden }) => {
      for (const c of conversations.values()) {
        const m = c.messages.find((x) => x.id === messageId);
        if (!m) continue;
        const block = m.parts.filter((p) => p.type === 'thinking')[index] ?? fail('notFound', `no thought ${messageId}#${index}`);
        block.hidden = hidden;
        return previewed(clone(m));
      }
      return fail('notFound', `no message ${messageId}`);
    },
    thought_text: ({ messageId, index }) => {
      for (const c of conversations.values()) {
        const m = c.messages.find((x) => x.id === messageId);
        if (!m) continue;
        const block = m.parts.filter((p) => p.type === 'thinking')[index] ?? fail('notFound', `no thought ${messageId}#${index}`);
        return block.text;
      }
      return fail('notFound', `no message ${messageId}`);
    },
    add_custom_provider: ({ name, baseUrl, protocol, preset, needsKey }) => {
      const id = `custom-${name.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')}`;
      if (!name.trim()) fail('invalidInput', 'A custom provider needs a name.');
      if (!/^https?:\/\//.test(baseUrl)) fail('invalidInput', `"${baseUrl}" is not an http or https address.`);
      if (!provider(preset)) fail('invalidInput', `"${preset}" is not a provider to follow.`);
      if (provider(id)) fail('invalidInput', `There is already a provider called ${name}.`);
      const entry = { id, name: name.trim(), base: baseUrl, needsKey, hasKey: false, custom: true, protocol };
      PROVIDERS.push(entry);
      settings.customProviders = [...(settings.customProviders ?? []), { id, name, baseUrl, protocol, preset, needsKey }];
      return providerView(entry);
    },
    // MCP servers: each lists the tools the reference "everything" server has; one whose
    // command is `fail` fails to start, with a line on stderr.
    mcp_status: () =>
      (settings.mcpServers ?? [])
        .filter((server) => server.enabled)
        .map((server) => ({ id: server.id, state: mcpState(server) })),
    mcp_test: ({ id }) => {
      const server = (settings.mcpServers ?? []).find((s) => s.id === id) ?? fail('notFound', `no server "${id}"`);
      started.add(id);
      const state = mcpState(server);
      if (state.kind === 'failed') fail('server', state.reason);
      return clone(FAKE_TOOLS);
    },
    mcp_tools: () =>
      (settings.mcpServers ?? [])
        .filter((server) => server.enabled)
        .map((server) => {
          started.add(server.id);
          const state = mcpState(server);
          return state.kind === 'failed'
            ? { id: server.id, name: server.name, tools: [], error: state.reason }
            : { id: server.id, name: server.name, tools: clone(FAKE_TOOLS), error: null };
        }),
    set_mcp_secret: ({ serverId, name }) => {
      secrets.add(`${serverId}/${name}`);
      return null;
    },
    clear_mcp_secret: ({ serverId, name }) => {
      secrets.delete(`${serverId}/${name}`);
      return null;
    },
    answer_tool_call: ({ runId, callId, decision }) => {
      const answer = approvals.get(`${runId}/${callId}`) ?? fail('notFound', 'That tool call is no longer waiting for an answer.');
      approvals.delete(`${runId}/${callId}`);
      answer(decision);
      return null;
    },
    remove_custom_provider: ({ id }) => {
      const at = PROVIDERS.findIndex((p) => p.id === id && p.custom);
      if (at < 0) fail('notFound', `No custom provider ${id}.`);
      PROVIDERS.splice(at, 1);
      settings.customProviders = (settings.customProviders ?? []).filter((c) => c.id !== id);
      return null;
    },
    override_meanings: ({ provider: pid, model, reasoning }) => {
      if (!provider(pid)) fail('notFound', `unknown provider "${pid}"`);
      const id = model || modelViews().find((v) => v.provider === pid)?.id || pid;
      const values = Array.isArray(reasoning) ? reasoning : [reasoning, reasoning, reasoning, reasoning];
      const what = (v) =>
        v === null ? `off (your settings disable reasoning for ${model ? `model ${model}` : `provider ${pid}`})` : typeof v === 'number' ? `${v.toLocaleString('en-US')} tokens (custom)` : String(v);
      return ['minimal', 'low', 'medium', 'high'].map((level, i) => `${level} on ${id}: ${what(values[i])}`);
    },
    set_api_key: ({ provider: pid, key }) => {
      const p = provider(pid) ?? fail('notFound', `no provider ${pid}`);
      if (!key || !key.trim()) fail('invalidInput', 'an API key cannot be empty');
      // The key is not kept anywhere the UI could read it back.
      fake.keysSeen += 1;
      p.hasKey = true;
      return providerView(p);
    },
    clear_api_key: ({ provider: pid }) => {
      const p = provider(pid) ?? fail('notFound', `no provider ${pid}`);
      p.hasKey = false;
      return providerView(p);
    },
    keyring_status: () => options.keyring ?? { available: true, message: null },
    // GitHub's device flow: the code at once, then a check a tick, until "approved" after
    // two (options.copilotSignIn: 'deny' declines it instead). With options.copilotHold the
    // user "enters the code" only when the test sets window.__fake.codeEntered (a test may
    // also set window.__fake.holdSignIn later).
    copilot_sign_in: ({ onEvent }) => {
      /** @type {(event: import('../../ui/src/lib/ipc-generated').SignInEvent) => void} */
      const send = /** @type {any} */ (channelSender(onEvent));
      const mine = ++fake.signIns;
      let polls = 0;
      const tick = () => {
        if (mine !== fake.signIns) return;
        polls += 1;
        if (polls <= 2 || (fake.holdSignIn && !fake.codeEntered)) {
          send({ type: 'waiting', nextInSecs: 5 });
          setTimeout(tick, 150);
        } else if (options.copilotSignIn === 'deny') {
          send({ type: 'failed', error: { code: 'auth', message: 'the sign-in was declined on GitHub: start it again to connect Copilot' } });
        } else {
          const p = provider('copilot');
          p.hasKey = true;
          send({ type: 'signedIn', provider: providerView(p) });
        }
      };
      setTimeout(tick, 50);
      return { userCode: 'WDJB-MJHT', verificationUri: 'https://github.com/login/device', expiresInSecs: 900 };
    },
    copilot_cancel_sign_in: () => {
      fake.signIns += 1;
      return null;
    },
    startup_problems: () => problems,
    resolve_startup_problem: ({ file, remedy }) => {
      // Moving a file aside always lets the app start afresh; trying again helps only once
      // the test says the cause is gone.
      if (remedy === 'moveAside' || options.fixedOnRetry) {
        fake.movedAside = [...(fake.movedAside ?? []), ...(remedy === 'moveAside' ? [file] : [])];
        problems = problems.filter((p) => p.file !== file);
      }
      return problems;
    },
    quit: () => {
      fake.quit = true;
      return null;
    },
    list_models: () => modelViews(),
    // The engine's reading of a typed budget, for the rows the fake lists: a budget model's
    // budget within 1,024 and its output limit; an effort or level read from the budget.
    budget_option: ({ provider: pid, model: id, tokens }) => {
      const row = MODELS.find(([p, m]) => p === pid && m === id);
      if (!row || row[5] === 'none' || row[5] === 'always') return null;
      const digits = (n) => n.toLocaleString('en-US');
      if (row[5] === 'budget') {
        const budget = Math.min(Math.max(tokens, 1024), row[4]);
        const bound = budget > tokens ? ' (the least it takes)' : budget < tokens ? ' (the most it takes)' : '';
        return { choice: budget, label: `${digits(budget)} tokens${bound}`, available: true };
      }
      const effort = tokens < 8000 ? 'low' : tokens < 24000 ? 'medium' : 'high';
      return { choice: tokens, label: `${digits(tokens)} tokens — ${effort} effort`, available: true };
    },
    add_model: ({ provider: pid, id }) => {
      if (!provider(pid)) fail('invalidInput', `unknown provider "${pid}"`);
      if (!added.has(`${pid}/${id}`) && !findModel(pid, id)) {
        added.add(`${pid}/${id}`);
        MODELS.push([pid, id, id, 128000, 32768, 'toggle', [
          { choice: 'default', label: 'default — the provider decides (unknown)', available: true },
          { choice: 'off', label: 'off — no thinking', available: true },
          { choice: 'medium', label: 'on — thinking on', available: true },
        ]]);
        settings.providers[pid] = { ...(settings.providers[pid] ?? { enabled: true, baseUrl: null }), models: [...(settings.providers[pid]?.models ?? []), id] };
      }
      return findModel(pid, id);
    },
    refresh_models: () => ({ listed: {}, failed: {} }),
    open_external: ({ url }) => {
      fake.opened = [...(fake.opened ?? []), url];
      return null;
    },
    // The app fetches the image; here every address is a one-pixel PNG, and no request is made.
    load_image: ({ url }) => {
      if (!/^https:\/\//i.test(url)) fail('invalidInput', `Ponder loads images from https:// addresses only, not from “${url}”`);
      return 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNk+A8AAQUBAScY42YAAAAASUVORK5CYII=';
    },
    translate_preview: ({ provider: pid, model, choice, settings: s, conversationId }) => {
      const m = findModel(pid, model) ?? fail('notFound', `unknown model ${model}`);
      const level = m.levels.find((l) => l.choice === choice);
      const warnings = level && !level.available && choice === 'off' ? ['This model does not support disabling thinking'] : [];
      const what = level ? level.label.split(' — ')[1] : 'no thinking';
      const lines = [`✓ Switched to ${m.providerName} ${m.id}`, ...warnings.map((w) => `⚠ ${w}`), `Thinking: ${choice} (${what})`];
      const tokens = Number((what.match(/^([\d,]+) tokens/)?.[1] ?? '0').replace(/,/g, ''));
      let request = {};
      if (pid === 'anthropic' && tokens) {
        // As the engine does: the cap is on the whole answer; the budget leaves 4,000 for the answer.
        const maxTokens = s?.maxOutputTokens ?? tokens + 4000;
        const budget = Math.max(1024, Math.min(tokens, maxTokens - 4000));
        request = { max_tokens: maxTokens, thinking: { type: 'enabled', budget_tokens: budget } };
      }
      else if (pid === 'openai') request = { reasoning: { effort: choice === 'default' ? 'medium' : choice, summary: 'auto' }, include: ['reasoning.encrypted_content'] };
      else if (pid === 'google') request = { generationConfig: { thinkingConfig: { thinkingLevel: choice === 'high' || choice === 'default' ? 'HIGH' : 'LOW', includeThoughts: true } } };
      const base = settings.providers[pid]?.baseUrl || provider(pid).base;
      const url = pid === 'openai' ? `${base}/responses` : pid === 'google' ? `${base}/models/${model}:streamGenerateContent?alt=sse` : `${base}/v1/messages`;
      return {
        feedback: lines.join('\n  '),
        warnings,
        meaning: tokens ? { kind: 'budget', tokens } : { kind: 'effort', value: String(choice) },
        url,
        request: { model, stream: true, messages: [{ role: 'user', content: '(your next message)' }], ...request },
        headers: pid === 'anthropic' ? { 'x-api-key': '<your key>', 'anthropic-version': '2023-06-01', 'anthropic-beta': 'interleaved-thinking-2025-05-14' } : {},
        stream: true,
        api: pid === 'openai' ? 'responses' : pid === 'google' ? 'generate_content' : 'messages',
        outputCap: request.max_tokens ?? null,
        thinkingBudget: request.thinking?.budget_tokens ?? null,
        contextTokens: conversationId ? { ...estimateContext(conversationId), exact: pid === 'openai' } : null,
      };
    },
    list_conversations: ({ includeArchived, first }) =>
      [...conversations.values()]
        .filter((c) => includeArchived || !c.archived)
        .sort((a, b) => Number(b.pinned) - Number(a.pinned) || b.updatedAt - a.updatedAt)
        .slice(0, first ?? undefined)
        .map(summary),
    get_conversation: ({ id: cid, tail }) => (tail == null ? withVersions(need(cid)) : tailOf(withVersions(need(cid)), tail)),
    earlier_messages: ({ messageId }) => {
      const whole = withVersions(holding(messageId)).messages;
      const at = whole.findIndex((m) => m.id === messageId);
      return at < 0 ? fail('notFound', 'no such message') : whole.slice(0, at);
    },
    show_version: ({ messageId }) => {
      const c = holding(messageId);
      bringIn(c, messageId);
      return withVersions(c);
    },
    usage_report: ({ days }) => {
      const since = now() - days * DAY;
      const rows = new Map();
      for (const c of conversations.values()) {
        const every = [...c.messages, ...[...stashOf(c.id).values()].flatMap((v) => v.tail)];
        for (const m of every.filter((m) => m.role === 'assistant' && m.createdAt >= since && m.model)) {
          const day = new Date(m.createdAt).toISOString().slice(0, 10);
          const key = `${day}/${m.provider}/${m.model}`;
          const row = rows.get(key) ?? { day, provider: m.provider, model: m.model, answers: 0, usage: {}, cost: null };
          row.answers += 1;
          for (const k of ['input', 'output', 'reasoning', 'cached']) {
            if (typeof m.usage?.[k] === 'number') row.usage[k] = (row.usage[k] ?? 0) + m.usage[k];
          }
          const cost = priced(m);
          if (cost !== null) row.cost = (row.cost ?? 0) + cost;
          rows.set(key, row);
        }
      }
      return [...rows.values()].sort((a, b) => a.day.localeCompare(b.day) || a.model.localeCompare(b.model));
    },
    compare_versions: ({ messageId }) => {
      const c = holding(messageId);
      const at = c.messages.findIndex((m) => m.id === messageId);
      const parent = at >= 0 ? (at > 0 ? c.messages[at - 1].id : null) : stashOf(c.id).get(messageId)?.parent ?? null;
      const shownAt = parent === null ? 0 : c.messages.findIndex((m) => m.id === parent) + 1;
      const tails = [c.messages.slice(shownAt), ...[...stashOf(c.id).values()].filter((v) => v.parent === parent).map((v) => v.tail)];
      const sum = (steps, key) => (steps.some((m) => typeof m.usage?.[key] === 'number') ? steps.reduce((n, m) => n + (m.usage?.[key] ?? 0), 0) : null);
      return tails
        .filter((tail) => tail.length > 0)
        .map((tail) => {
          const end = tail.findIndex((m, i) => i > 0 && m.role === 'user');
          const turn = end < 0 ? tail : tail.slice(0, end);
          const steps = turn.filter((m) => m.role === 'assistant');
          const last = steps.at(-1) ?? turn[0];
          const thinking = steps.reduce((n, m) => n + (m.thinkingMs ?? 0), 0);
          return {
            figures: {
              id: turn[0].id,
              provider: turn[0].provider,
              model: turn[0].model,
              choice: turn[0].choice,
              status: last.status,
              steps: steps.length,
              // The fake's answers start after 0.4 s and take their thinking time and 1.5 s more.
              firstTokenMs: 400,
              thinkingMs: thinking || null,
              totalMs: thinking + 1500,
              usage: { input: sum(steps, 'input'), output: sum(steps, 'output'), reasoning: sum(steps, 'reasoning'), cached: sum(steps, 'cached') },
              cost: cost(turn[0].provider, turn[0].model, { input: sum(steps, 'input'), output: sum(steps, 'output') }),
            },
            messages: clone(turn),
          };
        })
        .sort((a, b) => a.messages[0].createdAt - b.messages[0].createdAt);
    },
    delete_branch: ({ messageId }) => {
      const c = holding(messageId);
      const at = c.messages.findIndex((m) => m.id === messageId);
      if (at >= 0) {
        setAside(c, at);
        const gone = stashOf(c.id).get(messageId);
        stashOf(c.id).delete(messageId);
        deleted.set(messageId, { cid: c.id, ...gone });
        // The newest version left beside it is shown.
        const parent = at > 0 ? c.messages[at - 1].id : null;
        const beside = [...stashOf(c.id).values()].filter((v) => v.parent === parent).sort((a, b) => b.tail[0].createdAt - a.tail[0].createdAt)[0];
        if (beside) bringIn(c, beside.tail[0].id);
      } else if (stashOf(c.id).has(messageId)) {
        deleted.set(messageId, { cid: c.id, ...stashOf(c.id).get(messageId) });
        stashOf(c.id).delete(messageId);
      }
      return withVersions(c);
    },
    restore_branch: ({ messageId }) => {
      const c = holding(messageId);
      const gone = deleted.get(messageId);
      if (gone) {
        deleted.delete(messageId);
        stashOf(c.id).set(messageId, { parent: gone.parent, tail: gone.tail });
        bringIn(c, messageId);
      }
      return withVersions(c);
    },
    create_conversation: ({ provider: pid, model, settings: s }) =>
      withVersions(conversation('New chat', now(), [], { provider: pid, model, settings: { ...reasoningDefaults(), ...s } })),
    rename_conversation: ({ id: cid, title }) => {
      need(cid).title = title;
      return null;
    },
    delete_conversation: ({ id: cid }) => {
      need(cid);
      conversations.delete(cid);
      return null;
    },
    pin_conversation: ({ id: cid, pinned }) => {
      need(cid).pinned = pinned;
      return null;
    },
    set_conversation_model: ({ id: cid, provider: pid, model }) => {
      const c = need(cid);
      c.provider = pid;
      c.model = model;
      return null;
    },
    set_conversation_settings: ({ id: cid, settings: s }) => {
      const c = need(cid);
      c.settings = { ...reasoningDefaults(), ...clone(s) };
      return withVersions(c);
    },
    context_tokens: ({ id: cid }) => estimateContext(cid),
    send_message: ({ request, onEvent }) => {
      if (fake.failSend) {
        const err = fake.failSend;
        fake.failSend = null;
        fail(err.code, err.message);
      }
      const p = provider(request.provider);
      if (p?.needsKey && !p.hasKey) fail('missingKey', `No API key for ${p.name}: add one in Settings, or set PONDER_${p.id.toUpperCase()}_API_KEY.`);
      let c = request.conversationId ? need(request.conversationId) : conversation('New chat', now(), []);
      c.provider = request.provider;
      c.model = request.model;
      c.settings = { ...c.settings, choice: request.choice };
      if (c.messages.length === 0 || c.title === 'New chat') c.title = titleFrom(request.text);
      const user = userMessage(request.text, now());
      // The files go before the words, as the backend stores them; their kind and size are the
      // store's, found by hash among the files this backend handed out.
      for (const ref of [...(request.files ?? [])].reverse()) {
        const file = picked.find((f) => f.sha256 === ref.sha256) ?? fail('invalidInput', `${ref.name} is no longer in Ponder's files; attach it again.`);
        user.parts.unshift({ type: 'attachment', ...file, name: ref.name });
      }
      c.messages.push(user);
      c.updatedAt = now();
      const wantsTool = (c.settings.tools?.servers ?? []).length > 0 && /tool/i.test(request.text);
      const runId = wantsTool
        ? startToolRun(c, user.id, request.once ?? request.choice, onEvent, request.text)
        : startRun(c, user.id, request.once ?? request.choice, onEvent);
      return { runId, conversationId: c.id };
    },
    regenerate: ({ messageId, onEvent }) => {
      const c = [...conversations.values()].find((x) => x.messages.some((m) => m.id === messageId)) ?? fail('notFound', 'no such message');
      const at = c.messages.findIndex((m) => m.id === messageId);
      // The answer and what followed it stay, as the other version.
      setAside(c, at);
      const user = [...c.messages].reverse().find((m) => m.role === 'user');
      const runId = startRun(c, user?.id ?? '', c.settings.choice, onEvent);
      return { runId, conversationId: c.id };
    },
    rerun: ({ request: { messageId, provider: pid, model, choice, shows }, onEvent }) => {
      const beside = shows === 'current';
      const c = [...conversations.values()].find((x) => x.messages.some((m) => m.id === messageId)) ?? fail('notFound', 'no such message');
      const at = c.messages.findIndex((m) => m.id === messageId);
      // Another answer to a question, kept beside the one shown (or still streaming).
      if (beside && c.messages[at].role === 'user') return { runId: startRun(c, messageId, choice, onEvent, { provider: pid, model }, true), conversationId: c.id };
      setAside(c, at);
      const user = [...c.messages].reverse().find((m) => m.role === 'user');
      const runId = startRun(c, user?.id ?? '', choice, onEvent, { provider: pid, model });
      return { runId, conversationId: c.id };
    },
    edit_and_resend: ({ messageId, text, onEvent }) => {
      const c = [...conversations.values()].find((x) => x.messages.some((m) => m.id === messageId)) ?? fail('notFound', 'no such message');
      const at = c.messages.findIndex((m) => m.id === messageId);
      setAside(c, at);
      const user = userMessage(text, now());
      c.messages.push(user);
      const runId = startRun(c, user.id, c.settings.choice, onEvent);
      return { runId, conversationId: c.id };
    },
    cancel_run: ({ runId }) => {
      const run = runs.get(runId);
      if (!run || run.closed) return null;
      run.closed = true;
      run.timers.forEach(clearTimeout);
      const stored = { ...run.message, parts: run.partial(), status: 'cancelled', stop: { kind: 'cancelled' } };
      (run.place ?? ((m) => run.conversation.messages.push(m)))(stored);
      setTimeout(() => run.send({ type: 'cancelled', message: clone(stored) }), ms(20));
      return null;
    },
    search: ({ query, inThoughts }) => {
      const words = query.toLowerCase().split(/\s+/).filter(Boolean);
      const hits = [];
      const mark = (text) => {
        const lower = text.toLowerCase();
        const at = lower.indexOf(words[0]);
        const start = Math.max(0, at - 30);
        let snippet = (start > 0 ? '…' : '') + text.slice(start, at + 60) + (at + 60 < text.length ? '…' : '');
        for (const w of words) snippet = snippet.replace(new RegExp(`(${w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\w*)`, 'i'), '[$1]');
        return snippet.replace(/\n/g, ' ');
      };
      for (const c of conversations.values()) {
        for (const m of c.messages) {
          const text = m.parts.filter((p) => p.type === 'text').map((p) => p.text).join(' ');
          const thoughts = m.parts.filter((p) => p.type === 'thinking').map((p) => p.text).join(' ');
          if (words.every((w) => text.toLowerCase().includes(w))) hits.push({ conversationId: c.id, conversationTitle: c.title, messageId: m.id, snippet: mark(text), inThoughts: false });
          else if (inThoughts && thoughts && words.every((w) => thoughts.toLowerCase().includes(w))) {
            hits.push({ conversationId: c.id, conversationTitle: c.title, messageId: m.id, snippet: mark(thoughts), inThoughts: true });
          }
        }
      }
      return hits;
    },
    purge_thoughts: ({ olderThanDays }) => {
      const before = now() - olderThanDays * DAY;
      let messages = 0;
      let bytesFreed = 0;
      for (const c of conversations.values()) {
        for (const m of c.messages) {
          if (m.createdAt > before) continue;
          const thoughts = m.parts.filter((p) => p.type === 'thinking');
          if (thoughts.length === 0) continue;
          messages += 1;
          bytesFreed += thoughts.reduce((n, p) => n + new TextEncoder().encode(p.text).length, 0);
          m.parts = m.parts.filter((p) => p.type !== 'thinking');
        }
      }
      return { messages, bytesFreed };
    },
    export_conversation: ({ id: cid, format }) => ({ path: `/home/ada/Documents/${need(cid).title}.${format}` }),
    // The files the "dialog" chooses, in turn: options.attach is a list of answers, each a
    // list of files ({ name, kind, bytes }) or { refused: [...] }.
    pick_attachments: () => {
      const answer = attachAnswers.shift() ?? [];
      const refused = Array.isArray(answer) ? [] : answer.refused;
      const files = (Array.isArray(answer) ? answer : []).map((f, i) => ({ sha256: (f.sha256 ?? `${f.name}${i}`).padEnd(64, '0').slice(0, 64), pages: null, ...f }));
      picked.push(...files);
      return { files, refused };
    },
    // Called through mockIPC alone (no headers), the file has no name, as in the backend.
    attach_bytes: (body) => attachBytes(body),
    // An export of 40 MB read 4 MB at a time, 250 conversations a step, each step after
    // options.importStepMs (or until window.__fake.importStep() while options.importHold);
    // cancel_import stops it after the step under way, keeping the conversations read.
    import_file: ({ onEvent }) =>
      new Promise((resolve) => {
        const send = /** @type {any} */ (channelSender(onEvent));
        const total = 40e6;
        let read = 0;
        fake.importCancelled = false;
        const finish = (cancelled) => {
          const n = Math.round((read / total) * 10);
          // The first half were in a project.
          for (let i = 0; i < n; i++) {
            const c = conversation(`Imported from ChatGPT ${i + 1}`, now(), [userMessage('An imported question', now())]);
            if (i < n / 2) Object.assign(/** @type {any} */ (c), { project: 'Chemistry' });
          }
          resolve({ conversations: n, messages: n, updated: 0, unchanged: 0, cancelled });
        };
        const step = () => {
          if (fake.importCancelled) return finish(true);
          read = Math.min(total, read + 4e6);
          send({ read, total, conversations: Math.round((read / total) * 2500) });
          if (read >= total) return finish(false);
          if (options.importHold) fake.importStep = step;
          else setTimeout(step, options.importStepMs ?? 30);
        };
        setTimeout(step, 0);
      }),
    cancel_import: () => {
      fake.importCancelled = true;
      if (options.importHold) fake.importStep?.();
      return null;
    },
  };

  let problems = [...(options.problems ?? [])];
  /** The pieces of each file sent in pieces, by upload, until its last. */
  const uploads = new Map();

  // A pasted or dropped file: its bytes are the call's body, its name the x-ponder-name
  // header (which mockIPC does not pass on: see the wrapper at the end). Stored as the backend
  // stores one: by what its first bytes say it is, under its real SHA-256.
  /**
   * @param {Uint8Array} body
   * @param {Record<string, string>} [headers]
   * @returns {Promise<import('../../ui/src/lib/ipc-generated').Picked>}
   */
  async function attachBytes(body, headers = {}) {
    const name = decodeURIComponent(headers['x-ponder-name'] ?? '').split(/[/\\]/).pop().trim() || 'Pasted file';
    let data = body instanceof Uint8Array ? body : new Uint8Array(body ?? []);
    // A large file comes in pieces, in order; the last one stores it whole.
    const upload = headers['x-ponder-upload'];
    if (upload) {
      const had = uploads.get(upload) ?? [];
      const at = had.reduce((n, piece) => n + piece.length, 0);
      if (Number(headers['x-ponder-offset']) !== at) {
        uploads.delete(upload);
        return { files: [], refused: [`${name} could not be read: a piece at byte ${headers['x-ponder-offset']} came where byte ${at} was due.`] };
      }
      had.push(data);
      uploads.set(upload, had);
      if (headers['x-ponder-final'] !== '1') return { files: [], refused: [] };
      uploads.delete(upload);
      data = new Uint8Array(at + data.length);
      let offset = 0;
      for (const piece of had) {
        data.set(piece, offset);
        offset += piece.length;
      }
    }
    const refuse = (why) => ({ files: [], refused: [`${name} ${why}.`] });
    if (data.length === 0) return refuse('is empty');
    if (data.length > 100 * 1048576) return refuse(`is ${(data.length / 1048576).toFixed(1)} MiB; Ponder takes files of at most 100 MiB`);
    const kind = sniffKind(data);
    if (!kind) return refuse('is not a file Ponder can send (it takes PNG, JPEG, GIF and WebP images, PDFs and text files)');
    const latin = kind === 'pdf' ? new TextDecoder('latin1').decode(data) : '';
    if (kind === 'pdf' && !latin.slice(-1024).includes('%%EOF')) return refuse('is not a whole PDF (it ends before its end-of-file mark)');
    const pageCount = (latin.match(/\/Type\s*\/Page(?![a-z])/g) ?? []).length;
    const digest = new Uint8Array(await (win.crypto?.subtle ?? globalThis.crypto.subtle).digest('SHA-256', data));
    const sha256 = Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
    /** @type {import('../../ui/src/lib/ipc-generated').AttachedFile} */
    const file = { sha256, kind, name, bytes: data.length, pages: kind === 'pdf' && pageCount > 0 ? pageCount : null };
    picked.push(file);
    return { files: [file], refused: [] };
  }

  /** What a file is, from its first bytes, as the backend tells it (null: not one it sends). */
  function sniffKind(data) {
    const starts = (...bytes) => bytes.every((b, i) => data[i] === b);
    const ascii = (from, to) => String.fromCharCode(...data.subarray(from, to));
    if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
    if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
    if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'gif';
    if (data.length >= 12 && ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
    if (ascii(0, Math.min(1024, data.length)).includes('%PDF-')) return 'pdf';
    // Text: no NUL and valid UTF-8 in the first 64 KiB (a character cut by the probe's end is allowed).
    const probe = data.subarray(0, 65536);
    if (probe.includes(0)) return null;
    for (let cut = 0; cut <= (probe.length === 65536 ? 3 : 0); cut += 1) {
      try {
        new TextDecoder('utf-8', { fatal: true }).decode(probe.subarray(0, probe.length - cut));
        return 'text';
      } catch {
        // not text, or a character cut at the end: try one byte less
      }
    }
    return null;
  }

  mockIPC((cmd, args) => {
    fake.calls.push({ cmd, args: cmd === 'set_api_key' ? { provider: args.provider, key: '(redacted)' } : args });
    const handler = handlers[cmd];
    if (!handler) fail('internal', `unexpected command ${cmd}`);
    return handler(args ?? {});
  });
  // mockIPC passes an invoke's arguments but not its options, and attach_bytes takes its file's
  // name from a header: its calls are answered here, before mockIPC's invoke sees them.
  const internals = win.__TAURI_INTERNALS__;
  const mockedInvoke = internals.invoke;
  internals.invoke = async (cmd, args, invokeOptions) => {
    if (cmd !== 'attach_bytes') return mockedInvoke(cmd, args, invokeOptions);
    /** @type {Record<string, string>} */
    const headers = {};
    new Headers(invokeOptions?.headers ?? {}).forEach((value, key) => (headers[key] = value));
    fake.calls.push({ cmd, args, headers });
    return attachBytes(args, headers);
  };
  // Images are drawn from the ponder-file scheme; as on Windows, its URLs are http ones here
  // (http://ponder-file.localhost/thumb%2F<sha256>), which the tests can answer.
  internals.convertFileSrc = (path, protocol = 'asset') => `http://${protocol}.localhost/${encodeURIComponent(path)}`;
  return fake;
}

/** A classic script for Playwright's addInitScript: needs tauriMocksScript() to run first. */
export function fakeBackendScript(options = {}) {
  return `(${installFakeBackend.toString()})(window, window.TauriMocks.mockIPC, ${JSON.stringify(options)});`;
}
