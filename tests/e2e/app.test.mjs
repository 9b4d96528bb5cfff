// The real Ponder binary in a real WebKitGTK webview, driven through tauri-driver:
// the shell renders, the status line carries what came over IPC, the theme is saved
// in the settings store and survives a restart, and the CSP is in force.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';

import { runningApps, startDriver, waitFor, workspaceVersion } from '../support/app.mjs';
import { artifactsDir } from '../support/paths.mjs';

const IDENTIFIER = 'dev.ponder.desktop';

let xdgDataHome;
let driver;

before(async () => {
  xdgDataHome = mkdtempSync(join(tmpdir(), 'ponder-e2e-'));
  driver = await startDriver({ env: { XDG_DATA_HOME: xdgDataHome, NO_AT_BRIDGE: '1' } });
});

after(async () => {
  await driver?.stop();
  if (xdgDataHome) rmSync(xdgDataHome, { recursive: true, force: true });
});

async function withApp(body) {
  const session = await driver.newSession();
  try {
    await session.waitForText('[data-testid="status-version"]');
    return await body(session);
  } finally {
    await session.end().catch(() => {});
  }
}

describe('the installed-style app through WebDriver', () => {
  it('renders the shell with the version and data directory from the backend', async () => {
    await withApp(async (s) => {
      const dataDir = join(xdgDataHome, IDENTIFIER);
      assert.equal(await s.waitForText('[data-testid="status-version"]'), `Ponder ${workspaceVersion()}`);
      assert.equal(await s.waitForText('[data-testid="status-data-dir"]'), dataDir);
      assert.ok(existsSync(dataDir), 'the app created its data directory');
      assert.match(await s.text(await s.find('[data-testid="sidebar-empty"]')), /No conversations yet/);
      // The chat comes with its own script, once the list is drawn.
      assert.match(await s.waitForText('[data-testid="thread-empty"]'), /What are you pondering\?/);
      await s.waitFind('[data-testid="composer-input"]');
      assert.equal(await s.execute('return document.title'), 'Ponder');
      writeFileSync(join(artifactsDir(), 'app-window.png'), await s.screenshot());
    });
  });

  it('keeps OpenGL out of the app process (it only shows the web process\'s bitmaps), not out of the web process, whose JavaScript heap is bounded and can be collected at once by the app\'s page, and whose memory check runs off the page\'s thread', async () => {
    await withApp(async (s) => {
      await s.waitFind('[data-testid="composer-input"]');
      const [app] = runningApps();
      assert.ok(app, 'the app is running');
      const gl = /\/(libLLVM[^/]*|swrast_dri\.so|libGLX_mesa[^/]*|libEGL_mesa[^/]*)$/m;
      const maps = readFileSync(`/proc/${app}/maps`, 'utf8');
      assert.doesNotMatch(maps, gl, 'no GL library is mapped in the app process');
      // The web process still opens its EGL display (it exits without one) and draws the page.
      const web = readdirSync('/proc').filter((p) => /^\d+$/.test(p)).find((p) => {
        try {
          return readFileSync(`/proc/${p}/stat`, 'utf8').split(' ')[3] === String(app) && readFileSync(`/proc/${p}/comm`, 'utf8').startsWith('WebKitWebProces');
        } catch {
          return false;
        }
      });
      assert.ok(web, 'the web process is a child of the app');
      assert.match(readFileSync(`/proc/${web}/maps`, 'utf8'), /libEGL/, 'the web process has EGL');
      // Its JavaScript heap is bounded as the app set it (webview.rs): the web process reads it
      // from the environment it inherits.
      const environment = readFileSync(`/proc/${web}/environ`, 'utf8').split('\0');
      assert.ok(environment.includes('JSC_heapGrowthMaxIncrease=0.3'), 'the web process has the heap bound');
      assert.ok(environment.includes('JSC_percentCPUPerMBForFullTimer=0.05'), 'the web process has the whole collection\'s share');
      assert.ok(environment.includes('JSC_collectionTimerMaxPercentCPU=0.1'), 'the web process has the timed collection\'s cap');
      // WebKit loaded the app's web-process extension from beside the program (webview.rs), and
      // through it the page runs a whole collection at once (src-tauri/web-extension/collect.c):
      // an object only a WeakRef points to is gone right after it, with no allocation between.
      assert.match(readFileSync(`/proc/${web}/maps`, 'utf8'), /\/web-extension\/libponder_web_extension\.so$/m, 'the web process loaded the web extension');
      // Calls the page function `name`: what it returned, and whether an object only a WeakRef
      // made before the call points to is gone after it.
      const collectsAtOnce = async (name) => {
        await s.execute(`(() => { window.__weak = new WeakRef({ rows: new Array(10000).fill('row') }); })(); return true;`);
        return s.execute(`
          if (typeof window[arguments[0]] !== 'function') return 'no function';
          const returned = window[arguments[0]]();
          return { returned: String(returned), gone: window.__weak.deref() === undefined };
        `, [name]);
      };
      assert.deepEqual(await collectsAtOnce('__ponderCollectGarbage'), { returned: 'undefined', gone: true }, 'the whole collection ran at once');
      // After it the module hands WebKit's free pages back through a function it looks up
      // (not API, so not linked): the JavaScriptCore this web process runs still exports it.
      const jsc = readFileSync(`/proc/${web}/maps`, 'utf8').match(/\S*libjavascriptcoregtk-4\.1\.so\S*/)?.[0];
      assert.ok(jsc, 'the web process maps JavaScriptCore');
      const exported = execFileSync('nm', ['-D', '--defined-only', jsc], { encoding: 'utf8', maxBuffer: 1 << 26 });
      assert.match(exported, /\b_ZN3WTF27releaseFastMallocFreeMemoryEv$/m, 'JavaScriptCore exports WTF::releaseFastMallocFreeMemory');
      // WebKit's own release for when the system is short of memory, looked up the same way, is
      // there and runs: it collects at once, and the page's scripts still run after it (their
      // compiled code is deleted once the call returns, and compiled again).
      assert.match(exported, /\b_ZN3WTF21MemoryPressureHandler9singletonEv$/m, 'JavaScriptCore exports WTF::MemoryPressureHandler::singleton');
      assert.match(exported, /\b_ZN3WTF21MemoryPressureHandler13releaseMemoryENS_8CriticalENS_11SynchronousE$/m, 'JavaScriptCore exports MemoryPressureHandler::releaseMemory');
      await s.execute(`window.__sum = (n) => { let t = 0; for (let i = 0; i < n; i++) t += i; return t; }; window.__sum(1e5); return true;`);
      assert.deepEqual(await collectsAtOnce('__ponderReleaseMemory'), { returned: 'undefined', gone: true }, 'WebKit released its memory, collecting at once');
      assert.equal(await s.execute(`return window.__sum(1e5);`), 4999950000, 'a script compiled before runs after');
      assert.equal(await s.execute(`return document.querySelectorAll('[data-testid="new-chat"]').length;`), 1, 'the page is still there');
      // Only the app's own page has it: not a frame inside it.
      const inFrame = await s.execute(`
        const frame = document.createElement('iframe');
        document.body.append(frame);
        const there = typeof frame.contentWindow.__ponderCollectGarbage + ' ' + typeof frame.contentWindow.__ponderReleaseMemory;
        frame.remove();
        return there;
      `);
      assert.equal(inFrame, 'undefined undefined', 'a frame in the page has no such function');
      // WebKit's periodic check of the web process's own memory reads /proc/self/smaps on the
      // page's thread every 30 s; the module stops it and makes the same check on a thread of
      // its own (src-tauri/web-extension/footprint.c), through functions it looks up: this
      // WebKit has them all, and the thread is there.
      assert.match(exported, /\b_ZN3WTF21MemoryPressureHandler33setShouldUsePeriodicMemoryMonitorEb$/m, 'JavaScriptCore exports MemoryPressureHandler::setShouldUsePeriodicMemoryMonitor');
      const threads = readdirSync(`/proc/${web}/task`).map((tid) => readFileSync(`/proc/${web}/task/${tid}/comm`, 'utf8').trim());
      assert.ok(threads.includes('ponder-memory'), `the web process checks its memory on a thread of its own (its threads: ${threads.join(', ')})`);
    });
  });

  it('enforces the content security policy (no eval, no remote fetch)', async () => {
    await withApp(async (s) => {
      const evalResult = await s.execute(
        'try { return String(eval("1 + 1")); } catch (e) { return e.name; }',
      );
      assert.equal(evalResult, 'EvalError', 'eval is blocked by script-src');
      // A refused connection and a blocked one both reject; the violation event tells them apart.
      const violated = await s.execute(`
        const seen = new Promise((resolve) =>
          document.addEventListener('securitypolicyviolation', (e) => resolve(e.effectiveDirective), { once: true }));
        fetch('http://127.0.0.1:9/').catch(() => {});
        return Promise.race([seen, new Promise((resolve) => setTimeout(() => resolve('none'), 3000))]);
      `);
      assert.equal(violated, 'connect-src', 'connect-src allows only IPC');
    });
  });

  it('saves the theme in the settings store and restores it after a restart', async () => {
    await withApp(async (s) => {
      await s.click(await s.find('[data-testid="theme-dark"]'));
      const settingsFile = join(xdgDataHome, IDENTIFIER, 'settings.json');
      await waitFor(() => existsSync(settingsFile) && JSON.parse(readFileSync(settingsFile, 'utf8')).theme === 'dark', 'settings.json is written');
      assert.deepEqual(readdirSync(dirname(settingsFile)).filter((f) => f.includes('settings.json')), ['settings.json'], 'no half-written file left (the side files are ".settings.json.*.partial")');
      // Forget the webview's own copy, so the restart must get the theme from the store.
      await s.execute('localStorage.clear(); return null;');
    });
    await withApp(async (s) => {
      await waitFor(
        async () => (await s.execute('return document.documentElement.dataset.theme')) === 'dark',
        'the dark theme comes back from the store',
      );
      assert.equal(
        await s.execute('return getComputedStyle(document.documentElement).backgroundColor'),
        'rgb(21, 22, 26)',
      );
    });
  });
});
