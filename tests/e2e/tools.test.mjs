// Tools in the real app: the reference "everything" MCP server is added in Settings and
// tested, switched on for a conversation, and called by the model (Claude's recorded thinking
// + tool use, pointed at the server's echo tool); the user approves the call on its card, the
// result goes back with the signed thinking block, the answer follows, and after a restart
// the whole turn is there again. Then the approval card's memory: "Allow for this
// conversation" asks no more in that conversation, "Always allow" asks nowhere, after a
// restart too.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { answerNativeDialog, appBinary, runningApps, startDriver, waitFor } from '../support/app.mjs';
import { pickBudgetModelMedium, send, storeKey, textOf } from '../support/flows.mjs';
import { startKeyring } from '../support/keyring.mjs';
import { startMockProvider } from '../support/mock-provider.mjs';
import { repoRoot } from '../support/paths.mjs';
import { anthropicStream, realRecording } from '../support/recorded.mjs';

const IDENTIFIER = 'dev.ponder.desktop';
const EVERYTHING = join(repoRoot, 'tests', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');
const MESSAGE = 'hello from the model';
const FINAL = 'anthropic/pydantic-sonnet4-thinking-stream.sse';
/** The title of the dialog in which the user allows a change that runs or sends something. */
const CONSENT = 'Allow this change?';

let dataHome;
let keyring;
let driver;
let anthropic;
let record;
let recording;

before(async () => {
  assert.ok(existsSync(EVERYTHING), '`./.ci/test` installs the MCP servers the tests use');
  dataHome = mkdtempSync(join(tmpdir(), 'ponder-e2e-tools-'));
  keyring = await startKeyring(dataHome);
  recording = realRecording('anthropic/pydantic-sonnet4-thinking-tool-use.json');
  const toolCall = join(dataHome, 'tool-call.sse');
  writeFileSync(toolCall, anthropicStream(recording, { name: 'echo', input: { message: MESSAGE } }));
  record = join(dataHome, 'anthropic-requests.jsonl');
  // Every turn of this file calls the tool once, then answers: the first test's turn, then
  // the four turns of the approval test.
  const answer = join(repoRoot, 'tests', 'fixtures', 'real', FINAL);
  const loops = Array.from({ length: 5 }, () => [toolCall, answer]).flat();
  anthropic = await startMockProvider(FINAL, { first: loops, record });
  const appDir = join(dataHome, IDENTIFIER);
  mkdirSync(appDir, { recursive: true });
  writeFileSync(join(appDir, 'settings.json'), JSON.stringify({ providers: { anthropic: { enabled: true, baseUrl: anthropic.url } } }));
  driver = await startDriver({ env: { XDG_DATA_HOME: dataHome, NO_AT_BRIDGE: '1' } });
});

after(async () => {
  await driver?.stop();
  anthropic?.stop();
  await keyring?.stop();
  if (dataHome) rmSync(dataHome, { recursive: true, force: true });
});

async function withApp(body) {
  const s = await driver.newSession();
  try {
    await s.waitForText('[data-testid="status-version"]');
    return await body(s);
  } finally {
    await s.end().catch(() => {});
  }
}

/** The bodies of the turns the mock provider answered. */
function turns() {
  if (!existsSync(record)) return [];
  return readFileSync(record, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((r) => r.method === 'POST')
    .map((r) => (typeof r.body === 'string' ? JSON.parse(r.body) : r.body));
}

/** Processes running the everything server (by their command line). */
function serversRunning() {
  const found = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (cmdline.includes(EVERYTHING)) found.push(pid);
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

/** Sets a text field's value as typing would, for multi-line fields. */
async function fill(s, css, value) {
  await s.execute(
    `const el = document.querySelector(arguments[0]); el.value = arguments[1]; el.dispatchEvent(new Event('input', { bubbles: true })); return null;`,
    [css, value],
  );
}

/** A new conversation on the budget model with the everything server's tools on. */
async function newConversationWithTools(s) {
  await s.click(await s.waitFind('[data-testid="new-chat"]'));
  await pickBudgetModelMedium(s);
  await s.click(await s.waitFind('[data-testid="tools-button"]'));
  await s.click(await s.waitFind('[data-testid="tools-server"][data-server="everything"] [data-testid="tools-server-toggle"]', 30000));
  await waitFor(async () => (await textOf(s, '[data-testid="tools-button"]')).includes('1'), 'the server is on');
  await s.click(await s.waitFind('[data-testid="tools-panel"] .close'));
}

/** Asks, and waits for the turn to end with `calls` results shown; `answer` clicks that choice on the card first. */
async function askWithTool(s, text, { answer = null, calls, consent = false }) {
  await send(s, text);
  if (answer) {
    await s.waitFind('[data-testid="tool-approval"]', 30000);
    // The card may re-render as the call's events arrive: a click on a replaced node is tried again.
    await waitFor(
      async () => {
        const [button] = await s.findAll(`[data-testid="${answer}"]`);
        return button ? s.click(button).then(() => true, () => false) : false;
      },
      `"${answer}" is clicked`,
    );
    // "Always" is confirmed in the native dialog.
    if (consent) await answerNativeDialog(CONSENT, 'allow');
  }
  // A call that asked where it should not would wait on its card, and the turn never end.
  await waitFor(async () => (await s.findAll('[data-testid="stop"]')).length === 0 && (await s.findAll('[data-testid="tool-card"]')).length === calls, 'the turn ends', 30000);
  assert.equal((await s.findAll('[data-testid="tool-approval"]')).length, 0, 'no card is left asking');
  const cards = await s.findAll('[data-testid="tool-card"]');
  assert.equal(await s.execute(`return [...document.querySelectorAll('[data-testid="tool-card"]')].at(-1).dataset.state`), 'done', `${cards.length} cards`);
}

describe('tools in the real app', () => {
  it('adds a server, asks before the call, sends the result back with the thinking, and keeps it all', async () => {
    await withApp(async (s) => {
      await storeKey(s, 'FAKE-key-not-real');

      // Settings → Tools: add the server and test it.
      await s.click(await s.waitFind('[data-testid="open-settings"]'));
      await s.click(await s.waitFind('[data-testid="mcp-add"]'));
      await s.type(await s.waitFind('[data-testid="mcp-name"]'), 'Everything');
      await s.type(await s.waitFind('[data-testid="mcp-command"]'), 'node');
      await fill(s, '[data-testid="mcp-args"]', `${EVERYTHING}\nstdio`);
      await s.click(await s.waitFind('[data-testid="mcp-save"]'));
      // A new program runs only once the user allows it, in the dialog Rust shows.
      await answerNativeDialog(CONSENT, 'allow');
      await s.waitFind('[data-testid="mcp-server"][data-server="everything"]');
      await s.click(await s.waitFind('[data-testid="mcp-test"]'));
      await waitFor(async () => (await textOf(s, '[data-testid="mcp-test-result"]')).includes('echo'), 'the test lists the tools', 30000);
      assert.match(await textOf(s, '[data-testid="mcp-state"]'), /Connected · \d+ tools/);
      await s.click(await s.waitFind('[data-testid="settings-close"]'));

      // A new conversation with the server's tools on.
      await s.click(await s.waitFind('[data-testid="new-chat"]'));
      await pickBudgetModelMedium(s);
      await s.click(await s.waitFind('[data-testid="tools-button"]'));
      await s.click(await s.waitFind('[data-testid="tools-server"][data-server="everything"] [data-testid="tools-server-toggle"]', 30000));
      await waitFor(async () => (await textOf(s, '[data-testid="tools-button"]')).includes('1'), 'the server is on');
      await s.click(await s.waitFind('[data-testid="tools-panel"] .close'));

      await send(s, 'Say hello through the echo tool.');
      await s.waitFind('[data-testid="tool-approval"]', 30000);
      assert.match(await textOf(s, '[data-testid="tool-approval"]'), /Run echo from everything\?/);
      assert.match(await textOf(s, '[data-testid="tool-arguments"]'), new RegExp(MESSAGE));
      await s.click(await s.waitFind('[data-testid="allow-once"]'));

      await waitFor(async () => (await textOf(s, '[data-testid="tool-result"]')).includes(`Echo: ${MESSAGE}`), 'the result is on the card', 30000);
      await waitFor(async () => (await s.findAll('[data-testid="stop"]')).length === 0, 'the turn ends', 30000);
      await waitFor(async () => (await s.findAll('[data-testid="answer"]')).length > 0, 'the answer is shown');

      // The request preview shows what the next turn sends: the running server's tools and
      // the header that lets the model think between calls.
      await s.click(await s.waitFind('[data-testid="reasoning-toggle"]'));
      await waitFor(async () => (await textOf(s, '[data-testid="preview-request"]')).includes('"echo"'), 'the preview has the tools', 15000);
      const preview = JSON.parse(await textOf(s, '[data-testid="preview-request"]'));
      assert.ok(preview.tools.some((t) => t.name === 'echo'), 'the tools are in the previewed body');
      assert.match(await textOf(s, '[data-testid="preview-headers"]'), /interleaved-thinking/);
    });

    // What went back to the provider: the signed thinking block, the call, and its result.
    const bodies = turns();
    assert.equal(bodies.length, 2, 'one request per step');
    assert.ok(bodies[0].tools.some((t) => t.name === 'echo'), 'the tools were offered');
    const [, step, results] = bodies[1].messages;
    const thinking = recording.content.find((b) => b.type === 'thinking');
    assert.deepEqual(step.content[0], thinking, 'the thinking block went back unchanged, signature included');
    assert.equal(results.content[0].type, 'tool_result');
    assert.equal(results.content[0].content[0].text, `Echo: ${MESSAGE}`);

    // After a restart the turn is all there: the call, its result and the answer.
    await withApp(async (s) => {
      await waitFor(async () => (await s.findAll('[data-testid="conversation"]')).length > 0, 'the conversation is listed');
      await s.click((await s.findAll('[data-testid="conversation"]'))[0]);
      await s.waitFind('[data-testid="tool-card"]', 10000);
      await s.click(await s.waitFind('[data-testid="tool-card"] summary'));
      await waitFor(async () => (await textOf(s, '[data-testid="tool-result"]')).includes(`Echo: ${MESSAGE}`), 'the stored result');
      assert.ok((await s.findAll('[data-testid="answer"]')).length > 0, 'the answer is kept');
    });

    // The app has quit: the server, and whatever it started, went with it.
    await waitFor(() => runningApps(appBinary()).length === 0, 'the app to exit', 15000);
    await waitFor(() => serversRunning().length === 0, 'no MCP server outlives the app', 15000).catch(() => {
      throw new Error(`left running: ${serversRunning().join(', ')}`);
    });
  });

  it('remembers "Allow for this conversation" in the conversation and "Always allow" across restarts', async () => {
    const before = turns().length;
    await withApp(async (s) => {
      // Allowed for this conversation: the next call in it runs without asking.
      await newConversationWithTools(s);
      await askWithTool(s, 'Echo something, please.', { answer: 'allow-conversation', calls: 1 });
      await askWithTool(s, 'And once more.', { calls: 2 });

      // A new conversation asks again; "Always allow" is answered there.
      await newConversationWithTools(s);
      await askWithTool(s, 'Echo in a new conversation.', { answer: 'always-allow', calls: 1, consent: true });
    });
    assert.equal(turns().length - before, 6, 'three turns of two steps each');

    // After a restart: Settings list the tool as always allowed, and a new conversation runs
    // it without asking.
    await withApp(async (s) => {
      await s.click(await s.waitFind('[data-testid="open-settings"]'));
      await waitFor(async () => (await textOf(s, '.allowed')).includes('everything/echo'), 'the tool is listed as always allowed', 10000);
      await s.click(await s.waitFind('[data-testid="settings-close"]'));
      await newConversationWithTools(s);
      await askWithTool(s, 'Echo after the restart.', { calls: 1 });
    });
    assert.equal(turns().length - before, 8);
    const last = turns().at(-1);
    const results = last.messages.at(-1).content.filter((b) => b.type === 'tool_result');
    assert.equal(results[0].content[0].text, `Echo: ${MESSAGE}`, 'the call ran and its result went back');
  });
});
