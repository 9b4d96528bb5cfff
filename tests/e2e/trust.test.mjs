// The page is not trusted with power. A script running in the real app's page (as an XSS
// would) calls the backend directly: adding a program as a tool server, testing it, sending
// an API key to a new address, letting a tool run unasked. Each waits for the user in a native
// dialog that Rust shows and the page cannot answer; refused there, nothing runs, nothing is
// saved and no request carries the key. Allowed there, the change happens.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { answerNativeDialog, startDriver, waitFor, windowsTitled } from '../support/app.mjs';
import { startKeyring } from '../support/keyring.mjs';

const IDENTIFIER = 'dev.ponder.desktop';
const CONSENT = 'Allow this change?';
const KEY = 'FAKE-openai-key-not-real-5d1c';

let root;
let keyring;
let driver;
let settingsFile;
let marker;
/** Every request the address a script tries to send the key to receives. */
const caught = [];
let trap;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'ponder-e2e-trust-'));
  marker = join(root, 'ran');
  mkdirSync(join(root, IDENTIFIER), { recursive: true });
  settingsFile = join(root, IDENTIFIER, 'settings.json');
  writeFileSync(settingsFile, JSON.stringify({ theme: 'light' }));
  trap = createServer((req, res) => {
    caught.push({ url: req.url, authorization: req.headers.authorization ?? null });
    res.writeHead(404).end();
  });
  await new Promise((resolve) => trap.listen(0, '127.0.0.1', resolve));
  keyring = await startKeyring(root);
  driver = await startDriver({ env: { XDG_DATA_HOME: root, NO_AT_BRIDGE: '1', PONDER_OPENAI_API_KEY: KEY } });
});

after(async () => {
  await driver?.stop();
  await keyring?.stop();
  trap?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

/** Starts a backend call from the page as a script would, without waiting for it. */
async function invokeFromPage(s, command, args) {
  await s.execute(
    `window.__probe = window.__TAURI_INTERNALS__.invoke(arguments[0], arguments[1])
       .then((value) => ({ ok: true, value }), (error) => ({ ok: false, error }));
     return null;`,
    [command, args],
  );
}

/** What the call started by invokeFromPage came to. */
function outcome(s) {
  return s.execute('return window.__probe;');
}

function saved() {
  return JSON.parse(readFileSync(settingsFile, 'utf8'));
}

const program = (id) => ({
  id,
  name: 'Marker',
  enabled: true,
  transport: { type: 'stdio', command: 'sh', args: ['-c', `touch '${marker}'`] },
});

describe('what a script in the page can no longer do alone', () => {
  it('asks the user before a new program, a key to a new address or an always-allowed tool, and does nothing when refused', async () => {
    const s = await driver.newSession();
    try {
      await s.waitForText('[data-testid="status-version"]');

      // A new program, switched on in the same change.
      await invokeFromPage(s, 'update_settings', { patch: { mcpServers: [program('marker')] } });
      await answerNativeDialog(CONSENT, 'cancel');
      let result = await outcome(s);
      assert.equal(result.ok, false);
      assert.equal(result.error.code, 'declined');
      assert.equal(saved().mcpServers, undefined, 'not saved');
      // Testing it: there is nothing to start.
      await invokeFromPage(s, 'mcp_test', { id: 'marker' });
      result = await outcome(s);
      assert.equal(result.ok, false);

      // The OpenAI key to an address of the script's choosing.
      const trapUrl = `http://127.0.0.1:${trap.address().port}/v1`;
      await invokeFromPage(s, 'update_settings', { patch: { providers: { openai: { enabled: true, baseUrl: trapUrl, models: [] } } } });
      await answerNativeDialog(CONSENT, 'cancel');
      assert.equal((await outcome(s)).error.code, 'declined');
      assert.equal(saved().providers, undefined, 'not saved');
      // The model list is what would carry the key there first.
      await invokeFromPage(s, 'refresh_models', {});
      await new Promise((r) => setTimeout(r, 1500));

      // A tool run in every conversation without asking.
      await invokeFromPage(s, 'update_settings', { patch: { alwaysAllowedTools: ['files/write_file'] } });
      await answerNativeDialog(CONSENT, 'cancel');
      assert.equal((await outcome(s)).error.code, 'declined');
      assert.equal(saved().alwaysAllowedTools, undefined, 'not saved');

      // A change that needs no one's word goes through at once, with no dialog.
      await invokeFromPage(s, 'update_settings', { patch: { theme: 'dark' } });
      result = await outcome(s);
      assert.equal(result.ok, true);
      assert.deepEqual(windowsTitled(CONSENT), []);

      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(existsSync(marker), false, 'the program never ran');
      assert.deepEqual(caught.filter((r) => r.authorization?.includes(KEY)), [], 'the key went nowhere new');
    } finally {
      await s.end().catch(() => {});
    }
  });

  it('makes the change once the user allows it in the dialog', async () => {
    const s = await driver.newSession();
    try {
      await s.waitForText('[data-testid="status-version"]');
      await invokeFromPage(s, 'update_settings', { patch: { mcpServers: [program('marker')] } });
      await answerNativeDialog(CONSENT, 'allow');
      assert.equal((await outcome(s)).ok, true);
      assert.equal(saved().mcpServers[0].transport.command, 'sh');
      // Now a test starts it (it is no MCP server, so the test fails, after it ran).
      await invokeFromPage(s, 'mcp_test', { id: 'marker' });
      await waitFor(() => existsSync(marker), 'the allowed program runs', 20000);
    } finally {
      await s.end().catch(() => {});
    }
  });
});
