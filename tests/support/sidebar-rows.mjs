// The sidebar draws only the rows near its view. These run in the page, through Playwright's
// `page.evaluate(fn, arg)` or WebDriver's `execute(inPage(fn), [arg])`, and find rows by
// scrolling its list a screen at a time, as a user looking for one would. Each is whole in
// itself: it is sent to the page as its source.

/** Every row's text, the list scrolled from its top to its end (and back to the top). */
export async function readAllRows() {
  const el = document.querySelector('aside .scroll');
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const rows = new Map();
  el.scrollTop = 0;
  for (;;) {
    await frame();
    for (const row of document.querySelectorAll('[data-testid="conversation"]')) {
      rows.set(`${row.closest('ul')?.dataset.testid}:${row.getAttribute('aria-posinset') ?? row.textContent}`, row.innerText);
    }
    const before = el.scrollTop;
    el.scrollTop = before + el.clientHeight;
    if (el.scrollTop === before) break;
  }
  el.scrollTop = 0;
  return [...rows.values()];
}

/**
 * Brings into view the row `wanted` names ({ position }: its place in the list, from 1; or
 * { text }: a part of its text) and, with `click`, clicks it. A row drawn already (the next
 * one down usually is) is taken as it is; any other is looked for from the list's top. False
 * when there is none.
 */
export async function scrollToRow(wanted) {
  const el = document.querySelector('aside .scroll');
  const frame = () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  const test = (row) => (wanted.position ? row.getAttribute('aria-posinset') === String(wanted.position) : row.textContent.includes(wanted.text));
  const find = () => [...document.querySelectorAll('[data-testid="conversation"]')].find(test);
  if (!find()) el.scrollTop = 0;
  for (;;) {
    await frame();
    const row = find();
    if (row) {
      const button = row.querySelector('button');
      button.scrollIntoView({ block: 'nearest' });
      if (wanted.click) button.click();
      return true;
    }
    const before = el.scrollTop;
    el.scrollTop = before + el.clientHeight;
    if (el.scrollTop === before) return false;
  }
}

/** A WebDriver script that runs `fn` in the page with the script's first argument. */
export const inPage = (fn) => `return (${fn})(arguments[0]);`;
