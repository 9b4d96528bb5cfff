// A canary API key, stored through the real app's Settings, then used every way there is:
// an answer, a 401, a 500, a cancel, a crash (SIGKILL mid-answer), a restart, exports in
// every format. Afterwards it is searched for everywhere Ponder writes or shows things: every
// file under the data, config and cache homes (database, WAL, settings, WebKit's storage),
// every export, the app's own output and its log, the web view's DOM and storage, and every IPC
// message the UI received. It may be found only in the keyring (and in the mock provider's
// record of the requests, which shows it was really sent). The log is also searched for the
// questions asked, the answer's words and the provider's error messages: it names what
// happened, never what was said.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { freePort, runningApps, startDriver, waitFor } from '../support/app.mjs';
import { startKeyring } from '../support/keyring.mjs';
import { startMockProvider } from '../support/mock-provider.mjs';
import { repoRoot } from '../support/paths.mjs';
import { pickBudgetModelMedium, send, storeKey, textOf } from '../support/flows.mjs';

const IDENTIFIER = 'dev.ponder.desktop';
const STREAM = 'anthropic/pydantic-sonnet4-thinking-stream.sse';
const CANARY = 'FAKE-canary-key-not-real-7f3e9b21c4d84a6e';
/** The canary as it might be encoded on its way somewhere. */
const FORMS = [CANARY, Buffer.from(CANARY).toString('base64'), Buffer.from(CANARY).toString('hex'), encodeURIComponent(CANARY)];

let root;
let homes;
let keyring;
let driver;
let mock;
let port;
let record;
const seenByUi = [];
const pages = [];


async function serve(fixture, options = {}) {
  mock?.stop();
  await new Promise((r) => setTimeout(r, 150));
  mock = await startMockProvider(fixture, { port, record, ...options });
}

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'ponder-e2e-canary-'));
  homes = { data: join(root, 'data'), config: join(root, 'config'), cache: join(root, 'cache'), state: join(root, 'state') };
  for (const dir of Object.values(homes)) mkdirSync(dir, { recursive: true });
  record = join(root, 'requests.jsonl');
  port = await freePort();
  await serve(STREAM);
  mkdirSync(join(homes.data, IDENTIFIER), { recursive: true });
  writeFileSync(
    join(homes.data, IDENTIFIER, 'settings.json'),
    JSON.stringify({ providers: { anthropic: { enabled: true, baseUrl: mock.url } } }),
  );
  keyring = await startKeyring(homes.data);
  driver = await startDriver({
    env: { XDG_DATA_HOME: homes.data, XDG_CONFIG_HOME: homes.config, XDG_CACHE_HOME: homes.cache, XDG_STATE_HOME: homes.state, NO_AT_BRIDGE: '1' },
  });
});

after(async () => {
  await driver?.stop();
  mock?.stop();
  await keyring?.stop();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Records every message the UI receives from the backend: command results, errors, and
 * channel events all arrive through Tauri's callback table. */
const LISTEN = `
  const seen = (window.__canarySeen = []);
  const callbacks = window.__TAURI_INTERNALS__.callbacks;
  callbacks.set = function (id, fn) {
    return Map.prototype.set.call(this, id, (data) => {
      try { seen.push(JSON.stringify(data)); } catch { seen.push(String(data)); }
      return fn(data);
    });
  };
  return true;`;

async function withApp(body) {
  const s = await driver.newSession();
  try {
    await s.waitForText('[data-testid="status-version"]');
    assert.equal(await s.execute(LISTEN), true);
    return await body(s);
  } finally {
    try {
      seenByUi.push(...(await s.execute('return window.__canarySeen || []')));
      pages.push(await s.execute('return document.documentElement.outerHTML'));
      pages.push(await s.execute('return JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })'));
    } catch {
      // the app is gone (the crash): what it showed was collected before
    }
    await s.end().catch(() => {});
  }
}

/** Every question asked: none may reach the log. */
const asked = [];

async function ask(s, text) {
  asked.push(text);
  await s.click(await s.waitFind('[data-testid="new-chat"]'));
  await pickBudgetModelMedium(s);
  await send(s, text);
}

const settled = (s) => waitFor(async () => (await s.findAll('[data-testid="stop"]')).length === 0, 'the answer settles', 30000);

function filesUnder(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

function leaks(where, bytes) {
  const text = Buffer.isBuffer(bytes) ? bytes.toString('latin1') : String(bytes);
  return FORMS.filter((form) => text.includes(form)).map((form) => `${where} (as ${form.slice(0, 12)}…)`);
}

describe('a canary key', () => {
  it('is found only in the keyring after answers, errors, a cancel, a crash, a restart and exports', async () => {
    await withApp(async (s) => {
      await storeKey(s, CANARY);

      await ask(s, 'How do I cross the street safely?');
      await waitFor(async () => (await textOf(s, '[data-testid="message-assistant"]')).includes('crossing'), 'an answer', 30000);
      await settled(s);

      const unauthorized = join(root, 'unauthorized.json');
      writeFileSync(unauthorized, JSON.stringify({ type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } }));
      await serve(unauthorized, { status: 401 });
      await ask(s, 'A 401, please.');
      await waitFor(async () => (await textOf(s, '[data-testid="error-message"]')).includes('invalid x-api-key'), 'the 401 card', 15000);

      const failing = join(root, 'server-error.json');
      writeFileSync(failing, JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'Internal server error' } }));
      await serve(failing, { status: 500 });
      await ask(s, 'A 500, please.');
      await waitFor(async () => (await textOf(s, '[data-testid="error-message"]')).includes('Internal server error'), 'the 500 card', 30000);

      await serve(STREAM, { chunkSize: 32, delayMs: 60 });
      await ask(s, 'Take your time, then stop.');
      await waitFor(async () => (await textOf(s, '[data-testid="thought-live"]')).length > 20, 'thinking started', 15000);
      await s.click(await s.waitFind('[data-testid="stop"]'));
      await waitFor(async () => (await s.findAll('[data-testid="stopped"]')).length > 0, 'stopped', 10000);

      await ask(s, 'And now a crash.');
      await waitFor(async () => (await textOf(s, '[data-testid="thought-live"]')).length > 20, 'thinking started', 15000);
      seenByUi.push(...(await s.execute('return window.__canarySeen')));
      pages.push(await s.execute('return document.documentElement.outerHTML'));
      for (const pid of runningApps()) process.kill(pid, 'SIGKILL');
    });

    await serve(STREAM);
    await withApp(async (s) => {
      await waitFor(async () => (await s.findAll('[data-testid="conversation"]')).length >= 5, 'every conversation is listed');
      for (const conversation of await s.findAll('[data-testid="conversation"]')) await s.click(conversation);
      await ask(s, 'One more after the restart.');
      await waitFor(async () => (await textOf(s, '[data-testid="message-assistant"]')).includes('crossing'), 'an answer', 30000);
      await settled(s);
    });

    // Exports of everything, in every format, as the app writes them (the same core code, run
    // by the command line on the same history).
    const cli = join(process.env.CARGO_TARGET_DIR ?? join(repoRoot, 'target'), 'debug', 'ponder-cli');
    const env = { ...process.env, XDG_DATA_HOME: homes.data };
    const exports = join(root, 'exports');
    mkdirSync(exports);
    const listed = spawnSync(cli, ['conversations', '--json'], { env, encoding: 'utf8' });
    assert.equal(listed.status, 0, listed.stderr);
    const ids = JSON.parse(listed.stdout).map((c) => c.id);
    assert.ok(ids.length >= 6, `${ids.length} conversations`);
    for (const id of ids) {
      for (const format of ['md', 'json', 'html']) {
        for (const thoughts of ['details', 'section', 'omit']) {
          const out = join(exports, `${id}.${thoughts}.${format}`);
          const made = spawnSync(cli, ['export', id, '--format', format, '--thoughts', thoughts, '-o', out], { env, encoding: 'utf8' });
          assert.equal(made.status, 0, made.stderr);
        }
      }
    }
    const backup = spawnSync(cli, ['export', '--all', '-o', join(exports, 'backup.json')], { env, encoding: 'utf8' });
    assert.equal(backup.status, 0, backup.stderr);

    const output = driver.log();
    await driver.stop();
    driver = null;

    // The key was really used: the provider saw it.
    assert.ok(readFileSync(record, 'utf8').includes(CANARY), 'the mock provider received the key');
    const found = [];
    const scanned = { files: 0 };
    for (const home of Object.values(homes)) {
      for (const file of filesUnder(home)) {
        // gnome-keyring's own store is where the key belongs (and is encrypted there).
        if (file.startsWith(join(homes.data, 'keyrings'))) continue;
        scanned.files += 1;
        found.push(...leaks(file, readFileSync(file)));
      }
    }
    for (const file of filesUnder(exports)) {
      scanned.files += 1;
      found.push(...leaks(file, readFileSync(file)));
    }
    found.push(...leaks("the app's output", output));
    pages.forEach((page, i) => found.push(...leaks(`the web view (DOM or storage, snapshot ${i})`, page)));
    seenByUi.forEach((message, i) => found.push(...leaks(`IPC message ${i} to the UI`, message)));
    const dbFiles = filesUnder(join(homes.data, IDENTIFIER)).filter((f) => f.includes('ponder.sqlite3'));
    assert.ok(dbFiles.some((f) => statSync(f).size > 0), 'the history was scanned');
    assert.ok(seenByUi.length > 50, `${seenByUi.length} IPC messages were seen`);
    console.log(
      `canary: ${scanned.files} files, ${pages.length} page snapshots, ${seenByUi.length} IPC messages scanned; ${found.length} leaks`,
    );
    assert.deepEqual(found, [], 'the key appears nowhere but the keyring');

    // The log: written, naming the commands and turns, and saying nothing that was said.
    const logs = filesUnder(join(homes.state, IDENTIFIER, 'logs'));
    assert.ok(logs.length >= 1, 'the app wrote its log in the XDG state directory');
    const log = logs.map((f) => readFileSync(f, 'utf8')).join('\n');
    for (const expected of ['Ponder started', 'send_message', 'turn started', 'turn ended', 'ended="failed"', 'error="auth"', 'ended="cancelled"']) {
      assert.ok(log.includes(expected), `the log says ${expected}: ${log.slice(0, 2000)}`);
    }
    const said = [...asked, 'crossing', 'invalid x-api-key', 'Internal server error', 'authentication_error'];
    const spoken = said.filter((text) => log.includes(text));
    assert.deepEqual(spoken, [], 'no question, answer or provider message is in the log');
    console.log(`log: ${logs.length} file(s), ${log.split('\n').length} lines; key, questions and answers found 0`);
  });
});
