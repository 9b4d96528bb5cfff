// The app tests' WebDriver session: WebdriverIO's protocol client (`webdriver`), with the few
// waits our tests need on top.

// Its loggers otherwise print every connection at INFO into the test output; they read the
// level when the module loads, so it is loaded (once) after this.
process.env.WDIO_LOG_LEVEL ??= 'warn';
const { default: WebDriver } = await import('webdriver');

const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf';

export class WebDriverError extends Error {}

/** W3C key codes for `Session.type`. */
export const Keys = { enter: '\uE007', escape: '\uE00C', down: '\uE015', up: '\uE013', control: '\uE009', tab: '\uE004' };

export class Session {
  constructor(client) {
    this.client = client;
  }

  static async start(base, capabilities) {
    const url = new URL(base);
    const client = await WebDriver.newSession({
      protocol: 'http',
      hostname: url.hostname,
      port: Number(url.port),
      path: '/',
      // WebKitWebDriver speaks classic WebDriver only.
      capabilities: { ...capabilities, 'wdio:enforceWebDriverClassic': true },
      logLevel: 'silent',
      connectionRetryCount: 0,
    });
    return new Session(client);
  }

  async find(css) {
    return elementId(await this.client.findElement('css selector', css), css);
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
    return this.client.getElementText(element);
  }

  clear(element) {
    return this.client.elementClear(element);
  }

  click(element) {
    return this.client.elementClick(element);
  }

  /** Types text into an element; `Keys.enter` and friends work inside the text. */
  type(element, text) {
    return this.client.elementSendKeys(element, text);
  }

  /** The role the browser's accessibility tree gives the element (WebDriver's computed role). */
  role(element) {
    return this.client.getElementComputedRole(element);
  }

  /** The name the browser's accessibility tree gives the element (WebDriver's computed label). */
  label(element) {
    return this.client.getElementComputedLabel(element);
  }

  attribute(element, name) {
    return this.client.getElementAttribute(element, name);
  }

  async findAll(css) {
    const found = await this.client.findElements('css selector', css);
    return found.map((v) => elementId(v, css));
  }

  /** Runs `script` (a function body; `arguments` holds `args`) in the page; resolves to its result. */
  async execute(script, args = []) {
    // The client reads any result with an `error` field as a failed command, so the result
    // travels one level down.
    // A returned promise is awaited, as WebDriver does for a script's own result.
    const wrapped = `return Promise.resolve((function () {\n${script}\n}).apply(null, arguments)).then((result) => ({ result }));`;
    return (await this.client.executeScript(wrapped, args)).result;
  }

  async screenshot() {
    // The app draws without accelerated compositing, and then WebKit answers a screenshot at
    // the page's next paint, which an idle page never makes: one pixel in a corner changes
    // while the screenshot is taken.
    await this.execute(`
      const dot = document.createElement('div');
      dot.id = '__ponder_shot';
      dot.style.cssText = 'position:fixed;right:0;bottom:0;width:1px;height:1px;pointer-events:none;opacity:0.01';
      document.body.append(dot);
      let n = 0;
      window.__ponderShot = setInterval(() => (dot.style.opacity = n++ % 2 ? '0.01' : '0.02'), 40);
      return true;`);
    try {
      return Buffer.from(await this.client.takeScreenshot(), 'base64');
    } finally {
      await this.execute(`clearInterval(window.__ponderShot); document.getElementById('__ponder_shot')?.remove(); return true;`);
    }
  }

  end() {
    return this.client.deleteSession();
  }
}

/** The element reference of a find, or the driver's "no such element" as an error. */
function elementId(found, css) {
  const id = found?.[ELEMENT];
  if (!id) throw new WebDriverError(`no element for ${css}: ${found?.message ?? found?.error ?? 'not found'}`);
  return id;
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
