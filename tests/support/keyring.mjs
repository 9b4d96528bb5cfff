// A real Secret Service for end-to-end tests, holding none of Ponder's keys when a test file
// starts and when it ends.
//
// The test script's D-Bus session starts gnome-keyring on demand, unlocked with a throwaway
// password, its files in a temporary folder, and starts it again the same way if it stops
// (.ci/lib.sh, keyring_session). A file run by hand under a plain dbus-run-session has no
// such service: it starts a daemon of its own, since the system's service file would start a
// locked keyring that answers no one.
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SERVICE = 'org.freedesktop.secrets';
/** keyring-rs stores each key under `service` = the app's identifier. */
const APP_IDENTIFIER = 'dev.ponder.desktop';

async function serviceIsUp() {
  try {
    const { stdout } = await run('dbus-send', [
      '--session',
      '--print-reply=literal',
      '--dest=org.freedesktop.DBus',
      '/org/freedesktop/DBus',
      'org.freedesktop.DBus.NameHasOwner',
      `string:${SERVICE}`,
    ]);
    return stdout.includes('true');
  } catch {
    return false;
  }
}

async function waitUntil(check, what, timeoutMs = 10000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out after ${timeoutMs} ms: ${what}`);
}

/** `secret-tool`, where exit status 1 with nothing on stderr means "nothing matched". */
async function secretTool(...args) {
  try {
    return (await run('secret-tool', args, { timeout: 10000 })).stdout;
  } catch (err) {
    if (err.code === 1 && !String(err.stderr ?? '').trim()) return String(err.stdout ?? '');
    throw err;
  }
}

/** Removes every key Ponder stored, and proves the service answers (a locked one would not). */
export async function clearPonderKeys() {
  await secretTool('clear', 'service', APP_IDENTIFIER);
  const found = await secretTool('search', '--all', 'service', APP_IDENTIFIER);
  if (found.trim() !== '') throw new Error(`the keyring still holds Ponder's keys:\n${found}`);
}

/**
 * Whether the service stores and gives back a secret. A keyring D-Bus started on demand is
 * locked: it owns the name but asks for a password no one can type, so owning the name is not
 * enough.
 */
async function serviceAnswers() {
  const attrs = ['service', 'ponder-test-probe', 'probe', String(process.pid)];
  try {
    const store = execFile('secret-tool', ['store', '--label=ponder test probe', ...attrs], { timeout: 3000 });
    store.stdin.end('probe-not-a-secret');
    await new Promise((resolve, reject) => store.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`exit ${code}`)))));
    const back = (await run('secret-tool', ['lookup', ...attrs], { timeout: 3000 })).stdout;
    await run('secret-tool', ['clear', ...attrs], { timeout: 3000 });
    return back === 'probe-not-a-secret';
  } catch {
    return false;
  }
}

export async function startKeyring(dataHome) {
  let daemon = null;
  let out = '';
  if (process.env.PONDER_KEYRING_PROVIDED === '1') {
    // The test script's D-Bus session starts an unlocked daemon on demand, and again if it
    // stops: asking is enough, and a second daemon of our own would only race it.
    await waitUntil(serviceAnswers, 'the Secret Service of the test script’s session to answer', 30000);
  } else if (!(await serviceIsUp())) {
    daemon = spawn('gnome-keyring-daemon', ['--unlock', '--components=secrets', '--foreground'], {
      env: { ...process.env, XDG_DATA_HOME: dataHome },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    daemon.stdin.end('test-password-not-real');
    daemon.stdout.on('data', (d) => (out += d));
    daemon.stderr.on('data', (d) => (out += d));
    await waitUntil(serviceIsUp, `gnome-keyring to take ${SERVICE}:\n${out}`);
  }
  await clearPonderKeys();
  return {
    stop: async () => {
      await clearPonderKeys().catch(() => {});
      if (daemon) {
        const exited = new Promise((r) => daemon.once('exit', r));
        daemon.kill('SIGTERM');
        await exited;
      }
    },
    log: () => out,
  };
}
