import { describe, expect, it } from 'vitest';

import { estimateRow, joinAtEnd, threadItems, ThreadRows, type Note, type ThreadItem } from './thread';
import type { ConversationView, MessageView } from './types';

function message(role: 'user' | 'assistant', parts: MessageView['parts']): ThreadItem {
  const m = { id: `${role}-${Math.random()}`, role, parts } as unknown as MessageView;
  return { kind: 'message', key: m.id, message: m, live: false };
}

const paragraph = (chars: number) => 'w'.repeat(chars);

describe('row estimates', () => {
  // Heights measured in the thread (Chromium, the default window): a one-line question is 55 px,
  // one that wraps once 76 px; an answer of 17 source lines with a folded thought about 670 px.
  it('are a question’s wrapped lines', () => {
    expect(estimateRow(message('user', [{ type: 'text', text: paragraph(62) }]))).toBe(55);
    expect(estimateRow(message('user', [{ type: 'text', text: paragraph(86) }]))).toBe(76);
  });

  it('are near an answer’s measured height', () => {
    const text = Array.from({ length: 17 }, (_, i) => paragraph(i % 3 === 0 ? 120 : 40)).join('\n');
    const thought = { type: 'thinking', text: 'x', source: null, summary: false, redacted: false, hidden: false, durationMs: null, tokenEstimate: null } as unknown as MessageView['parts'][number];
    const h = estimateRow(message('assistant', [thought, { type: 'text', text }]));
    expect(h).toBeGreaterThan(670 * 0.8);
    expect(h).toBeLessThan(670 * 1.2);
  });

  it('are worked out once per message', () => {
    const item = message('user', [{ type: 'text', text: paragraph(10) }]);
    const first = estimateRow(item);
    (item as { message: MessageView }).message.parts.push({ type: 'text', text: paragraph(500) });
    expect(estimateRow(item)).toBe(first);
  });
});

describe('the end of a thread read again', () => {
  const view = (ids: string[], earlier: number, cost: number | null = null): ConversationView =>
    ({ id: 'c', messages: ids.map((id) => ({ id }) as MessageView), earlier, cost }) as unknown as ConversationView;
  const ids = (v: ConversationView | null) => v?.messages.map((m) => m.id) ?? null;

  it('is joined below the messages shown above it, which stay the same objects', () => {
    const shown = view(['q1', 'a1', 'q2', 'a2'], 0);
    const joined = joinAtEnd(shown, view(['q2', 'a2-low'], 2, 0.5));
    expect(ids(joined)).toEqual(['q1', 'a1', 'q2', 'a2-low']);
    expect(joined?.messages[0]).toBe(shown.messages[0]);
    expect(joined?.earlier).toBe(0);
    expect(joined?.cost).toBe(0.5);
  });

  // (shown, read again, what the thread then holds; null: read it whole)
  const cases: [string[], number, string[], number, string[] | null][] = [
    [['q1', 'a1', 'q2', 'a2'], 0, ['q1', 'a1', 'q2', 'a2', 'x'], 0, ['q1', 'a1', 'q2', 'a2', 'x']],
    [['q2', 'a2'], 7, ['q2', 'a2', 'a3'], 7, ['q2', 'a2', 'a3']],
    [['q1', 'a1', 'q2', 'a2'], 0, ['q9', 'a9'], 5, null],
    [['q1', 'a1'], 0, [], 3, null],
  ];
  it.each(cases)('shown %j (%i earlier), read %j (%i earlier)', (shown, shownEarlier, end, endEarlier, expected) => {
    const joined = joinAtEnd(view(shown, shownEarlier), view(end, endEarlier));
    expect(ids(joined)).toEqual(expected);
    if (joined) expect(joined.earlier).toBe(endEarlier === 0 ? 0 : shownEarlier);
  });
});

describe('the thread\'s rows', () => {
  const stored = (id: string) => ({ id, role: 'user', parts: [] }) as unknown as MessageView;
  const note = (id: string, after: string | null): Note => ({ id, tone: 'info', lines: [id], after });
  const keys = (rows: ThreadItem[]) => rows.map((row) => row.key);

  it('put each note after its message, a note before any first, and one whose message is gone at the end', () => {
    const shown = [stored('m1'), stored('m2'), stored('m3')];
    const live = stored('live');
    const notes = [note('gone', 'm-other'), note('top', null), note('after-m2', 'm2'), note('after-live', 'live'), note('after-m2-too', 'm2')];
    expect(keys(threadItems(shown, live, notes))).toEqual([
      'note-top',
      'm1',
      'm2',
      'note-after-m2',
      'note-after-m2-too',
      'm3',
      'live',
      'note-after-live',
      'note-gone',
    ]);
    // The streaming answer once stored is not shown twice.
    expect(keys(threadItems([...shown, live], live, []))).toEqual(['m1', 'm2', 'm3', 'live']);
    // Once it has ended, a note after it stays after it.
    expect(keys(threadItems([...shown, live], null, [note('after-live', 'live')]))).toEqual(['m1', 'm2', 'm3', 'live', 'note-after-live']);
  });

  it('are the same objects from one change to the next, but for the streaming answer\'s', () => {
    const shown = [stored('m1'), stored('m2')];
    const notes = [note('n', 'm1')];
    const before = threadItems(shown, stored('live'), notes);
    const after = threadItems([...shown, stored('m3')], stored('live'), notes);
    expect(after.slice(0, 3)).toEqual(before.slice(0, 3));
    expect(after.slice(0, 3).every((row, i) => row === before[i])).toBe(true);
    expect(after[4]).not.toBe(before[3]);
    expect(after[4]).toMatchObject({ key: 'live', live: true });
  });
});

describe('the thread\'s rows as it changes', () => {
  const stored = (id: string) => ({ id, role: 'user', parts: [] }) as unknown as MessageView;
  const note = (id: string, after: string | null): Note => ({ id, tone: 'info', lines: [id], after });
  /** The rule in its plainest form: the keys in order. */
  const reference = (shown: readonly MessageView[], live: MessageView | null, notes: readonly Note[]): string[] => {
    const list = shown.filter((m) => m.id !== live?.id);
    const ids = new Set([...list.map((m) => m.id), ...(live ? [live.id] : [])]);
    const after = (id: string | null) => notes.filter((n) => n.after === id).map((n) => `note-${n.id}`);
    return [
      ...after(null),
      ...list.flatMap((m) => [m.id, ...after(m.id)]),
      ...(live ? [live.id, ...after(live.id)] : []),
      ...notes.filter((n) => n.after !== null && !ids.has(n.after)).map((n) => `note-${n.id}`),
    ];
  };

  it('are what they would be made afresh, through every kind of change', () => {
    // A small seeded generator: the same states every run.
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const rows = new ThreadRows();
    let shown = Array.from({ length: 30 }, (_, i) => stored(`m${i}`));
    let notes: Note[] = [];
    let live: MessageView | null = null;
    for (let step = 0; step < 2000; step++) {
      const change = next(7);
      if (change === 0) shown = [...shown, stored(`m${shown.length}-${step}`)];
      else if (change === 1) shown = shown.slice(0, Math.max(1, shown.length - 1 - next(3)));
      else if (change === 2) live = next(2) === 0 ? null : next(3) === 0 && shown.length > 0 ? shown.at(-1)! : stored(`live-${step}`);
      else if (change === 3) {
        // After a message, before any, after the streaming answer, or after one gone.
        const anchors = [null, shown[next(shown.length)]?.id, shown.at(-1)?.id, shown[next(shown.length)]?.id, live?.id, 'gone'];
        notes = [...notes, note(`n${step}`, anchors[next(anchors.length)] ?? 'gone')];
      } else if (change === 4) notes = next(3) === 0 ? [] : notes.filter((_, i) => i !== next(notes.length + 1));
      else if (change === 5) notes = notes.map((n) => (next(4) === 0 ? { ...n, lines: [`${n.id} again`] } : n));
      else shown = [...shown];
      const made = rows.of(shown, live, notes);
      const fresh = threadItems(shown, live, notes);
      expect(made.map((r) => r.key)).toEqual(reference(shown, live, notes));
      expect(fresh.map((r) => r.key)).toEqual(reference(shown, live, notes));
      // The same row objects as made afresh, but for the streaming answer's (made each time).
      expect(made.every((r, i) => r === fresh[i] || (r.kind === 'message' && r.live))).toBe(true);
    }
  });

  it('are the same list while nothing but the batches of an answer changes', () => {
    const rows = new ThreadRows();
    const shown = [stored('m1'), stored('m2')];
    expect(rows.of(shown, null, [])).toBe(rows.of(shown, null, []));
  });
});
