// A small W3C WebDriver client: just the calls our app tests make, over fetch.
const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

export class WebDriverError extends Error {}

/** W3C key codes for `Session.type`. */
export const Keys = { enter: '\uE007', escape: '\uE00C', down: '\uE015', up: '\uE013', control: '\uE009', tab: '\uE004' };

export class Session {
  constructor(base, id) {
    this.base = base;
    this.id = id;
  }

  static async start(base, capabilities) {
    const value = await request(base, 'POST', '/session', { capabilities: { alwaysMatch: capabilities } });
    return new Session(base, value.sessionId);
  }

  command(method, path, body) {
    return request(this.base, method, `/session/${this.id}${path}`, body);
  }

  async find(css) {
    const value = await this.command('POST', '/element', { using: 'css selector', value: css });
    return value[ELEMENT];
  }

  /** Polls until an element matching `css` exists; returns it. */
  async waitFind(css, timeoutMs = 10000) {
    const deadline = Date.now() + timeoutMs;
    let last;
    while (Date.now() < deadline) {
      try {
        return await this.find(css);
      } catch (err) {
        last = err;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new WebDriverError(`timed out waiting for ${css}: ${last?.message}`);
  }

  /** Polls until an element matching `css` exists and `accept(text)` holds; returns the text. */
  async waitForText(css, accept = (text) => text.length > 0, timeoutMs = 15000) {
    const deadline = Date.now() + timeoutMs;
    let last = '(no element)';
    while (Date.now() < deadline) {
      try {
        const text = await this.text(await this.find(css));
        if (accept(text)) return text;
        last = JSON.stringify(text);
      } catch (err) {
        last = err.message;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new WebDriverError(`timed out waiting for ${css}; last seen: ${last}`);
  }

  text(element) {
    return this.command('GET', `/element/${element}/text`);
  }

  clear(element) {
    return this.command('POST', `/element/${element}/clear`, {});
  }

  click(element) {
    return this.command('POST', `/element/${element}/click`, {});
  }

  /** Types text into an element; `Keys.enter` and friends work inside the text. */
  type(element, text) {
    return this.command('POST', `/element/${element}/value`, { text });
  }

  async findAll(css) {
    const value = await this.command('POST', '/elements', { using: 'css selector', value: css });
    return value.map((v) => v[ELEMENT]);
  }

  execute(script, args = []) {
    return this.command('POST', '/execute/sync', { script, args });
  }

  screenshot() {
    return this.command('GET', '/screenshot').then((b64) => Buffer.from(b64, 'base64'));
  }

  end() {
    return this.command('DELETE', '');
  }
}

async function request(base, method, path, body) {
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) {
    const { error, message } = json.value ?? {};
    throw new WebDriverError(`${method} ${path}: ${res.status} ${error ?? ''} ${message ?? ''}`.trim());
  }
  return json.value;
}

/** Waits until the driver at `base` answers its status endpoint. */
export async function waitForDriver(base, timeoutMs = 20000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${base}/status`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new WebDriverError(`no WebDriver at ${base} after ${timeoutMs} ms`);
}
