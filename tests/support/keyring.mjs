// A real Secret Service for end-to-end tests: gnome-keyring, unlocked with a throwaway
// password, in the D-Bus session the test runs in (the test script wraps it in
// dbus-run-session), keeping its files under `dataHome`.
import { spawn } from 'node:child_process';

export function startKeyring(dataHome) {
  return new Promise((resolve, reject) => {
    const daemon = spawn('gnome-keyring-daemon', ['--unlock', '--components=secrets', '--foreground'], {
      env: { ...process.env, XDG_DATA_HOME: dataHome },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    daemon.stdin.end('test-password-not-real');
    let out = '';
    daemon.stdout.on('data', (d) => (out += d));
    daemon.stderr.on('data', (d) => (out += d));
    daemon.on('error', reject);
    // The daemon registers org.freedesktop.secrets on the bus once it is up.
    setTimeout(() => resolve({ stop: () => daemon.kill('SIGTERM'), log: () => out }), 800);
  });
}
