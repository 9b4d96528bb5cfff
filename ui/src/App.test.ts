import { clearMocks, mockIPC } from '@tauri-apps/api/mocks';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/svelte';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

// The same in-memory backend the Chromium tests use, sped up.
import { installFakeBackend } from '../../tests/support/fake-backend.mjs';
import App from './App.svelte';
// The app loads the chat's script once the list is drawn; loaded here first, the tests do not
// wait on it being compiled.
import './components/chat-parts';

const about = {
  name: 'Ponder',
  version: '0.1.0',
  dataDir: '/home/ada/.local/share/dev.ponder.desktop',
  databasePath: '/home/ada/.local/share/dev.ponder.desktop/ponder.sqlite3',
};

const DEFAULTS = { defaultProvider: 'anthropic', defaultModel: 'claude-sonnet-4-5', defaultChoice: 'medium' };

type Handler = (cmd: string, args: Record<string, unknown>) => unknown;
type Fake = { calls: { cmd: string; args: Record<string, unknown> }[]; hold: boolean; release: () => void };

/** Installs the fake backend; `overrides` answer some commands instead of it. */
function backend(options: Record<string, unknown> = {}, overrides: Record<string, Handler> = {}): Fake {
  return installFakeBackend(
    window,
    (handler: Handler) =>
      mockIPC((cmd, args) => (overrides[cmd] ? overrides[cmd](cmd, args as Record<string, unknown>) : handler(cmd, args as Record<string, unknown>))),
    { about, speed: 0.02, ...options },
  ) as Fake;
}

beforeEach(() => {
  localStorage.clear();
  sessionStorage.clear();
});
afterEach(() => {
  cleanup();
  clearMocks();
});

describe('App shell', () => {
  it('shows the version and data directory from the backend', async () => {
    backend();
    render(App);
    expect(await screen.findByTestId('status-version')).toHaveProperty('textContent', 'Ponder 0.1.0');
    expect(screen.getByTestId('status-data-dir').textContent).toBe(about.dataDir);
    expect((await screen.findByTestId('sidebar-empty')).textContent).toContain('No conversations yet');
    // The chat is made in the frame after the list.
    expect((await screen.findByTestId('thread-empty')).textContent).toContain('What are you pondering?');
  });

  it('reads the list before it makes the chat, and makes the chat once the list is drawn', async () => {
    let chatMadeAtRead: boolean | null = null;
    backend(
      {},
      {
        list_conversations: () => {
          chatMadeAtRead = document.querySelector('[data-testid="thread-empty"], [data-testid="composer-input"]') !== null;
          return [];
        },
      },
    );
    render(App);
    await screen.findByTestId('sidebar-empty');
    expect(await screen.findByTestId('thread-empty')).toBeTruthy();
    expect(chatMadeAtRead).toBe(false);
  });

  it('reads the list alone, and the settings and the catalog once it is drawn', async () => {
    let askedBeforeList: string[] | null = null;
    const fake: Fake = backend(
      {},
      {
        list_conversations: () => {
          askedBeforeList = fake.calls.map((c) => c.cmd);
          return [];
        },
      },
    );
    render(App);
    await screen.findByTestId('sidebar-empty');
    await screen.findByTestId('status-version');
    expect(askedBeforeList).toEqual(['startup_problems']);
    const asked = fake.calls.map((c) => c.cmd);
    for (const later of ['app_info', 'get_settings', 'list_models', 'list_providers', 'keyring_status']) expect(asked).toContain(later);
  });

  it('applies the saved theme and saves a new one', async () => {
    const fake = backend({ theme: 'light' });
    render(App);
    await screen.findByTestId('status-version');
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('light'));
    await fireEvent.click(screen.getByTestId('theme-dark'));
    expect(document.documentElement.dataset.theme).toBe('dark');
    await waitFor(() => expect(fake.calls.filter((c) => c.cmd === 'set_theme').map((c) => c.args)).toEqual([{ theme: 'dark' }]));
    expect(screen.getByTestId('theme-dark').getAttribute('aria-pressed')).toBe('true');
  });

  it('says what went wrong when the backend fails, and keeps the theme that was', async () => {
    backend(
      {},
      {
        set_theme: () => {
          throw { code: 'storage', message: 'Ponder could not read or save its settings: read-only file system' };
        },
      },
    );
    render(App);
    await screen.findByTestId('status-version');
    await fireEvent.click(screen.getByTestId('theme-dark'));
    const error = await screen.findByTestId('status-error');
    expect(error.textContent).toContain('read-only file system');
    expect(document.documentElement.dataset.theme).toBe('system');
  });

  it('keeps Send disabled while no model is chosen, and says why', async () => {
    backend();
    render(App);
    const input = await screen.findByTestId('composer-input');
    await fireEvent.input(input, { target: { value: 'hello' } });
    expect(screen.getByRole('button', { name: 'Send' })).toHaveProperty('disabled', true);
    expect(screen.getByTestId('composer-hint').textContent).toBe('No model chosen yet.');
  });
});

describe('App chat', () => {
  it('lists conversations pinned first and shows one with its folded thought', async () => {
    backend({ seed: true, settings: DEFAULTS });
    render(App);
    await waitFor(() => expect(screen.getAllByTestId('conversation')).toHaveLength(3));
    const titles = screen.getAllByTestId('conversation').map((row) => row.querySelector('.title')?.textContent);
    expect(titles).toEqual(['Prime sieve in Rust', 'Why the sky is blue', 'Trip to Lisbon']);
    await fireEvent.click(screen.getByText('Why the sky is blue'));
    const header = await screen.findByTestId('thought-header');
    expect(header.textContent).toContain('Thought for 14 s · 610 tokens');
    expect(screen.queryByTestId('thought-body')).toBeNull();
    expect(screen.getByTestId('answer').textContent).toContain('Rayleigh scattering');
    await fireEvent.click(header);
    expect((await screen.findByTestId('thought-body')).textContent).toContain('Shorter wavelengths scatter more');
  });

  it('streams an answer over the channel and folds it into the thread', async () => {
    const fake = backend({ settings: DEFAULTS });
    render(App);
    await waitFor(() => expect(screen.getByTestId('model-button').textContent).toContain('Claude Sonnet 4.5'));
    const input = await screen.findByTestId('composer-input');
    await fireEvent.input(input, { target: { value: 'How many primes are below 100?' } });
    await fireEvent.keyDown(input, { key: 'Enter' });
    await waitFor(() => expect(screen.getByTestId('message-meta').textContent).toContain('860 reasoning'), { timeout: 4000 });
    expect(screen.getByTestId('answer').textContent).toContain('There are 25 primes below 100');
    expect(screen.getByTestId('thought-header').textContent).toMatch(/^\s*Thought for/);
    expect(screen.getByTestId('message-user').textContent).toContain('How many primes are below 100?');
    const sent = fake.calls.find((c) => c.cmd === 'send_message')?.args.request;
    expect(sent).toMatchObject({ provider: 'anthropic', model: 'claude-sonnet-4-5', choice: 'medium', text: 'How many primes are below 100?' });
    expect((input as HTMLTextAreaElement).value).toBe('');
  });

  it('runs /model and shows the feedback line', async () => {
    backend({ settings: DEFAULTS });
    render(App);
    await waitFor(() => expect(screen.getByTestId('model-button').textContent).toContain('Claude Sonnet 4.5'));
    const input = await screen.findByTestId('composer-input');
    await fireEvent.input(input, { target: { value: '/model gemini-3.1-pro-preview/low' } });
    await fireEvent.keyDown(input, { key: 'Enter' });
    const note = await screen.findByTestId('note');
    expect(note.textContent).toContain('✓ Switched to Google gemini-3.1-pro-preview');
    expect(note.textContent).toContain('Thinking: low (LOW)');
    expect(screen.getByTestId('model-button').textContent).toContain('Gemini 3.1 Pro preview');
  });
});

describe('a model the provider has retired', () => {
  it('is not offered, but a conversation that used it shows it, its levels and a warning', async () => {
    backend({ seed: true, settings: DEFAULTS, retired: { 'anthropic/claude-sonnet-4-5': '2026-11-30' } });
    render(App);
    await waitFor(() => expect(screen.getAllByTestId('conversation')).toHaveLength(3));
    // The default is no longer offered: a new chat has no model until one is chosen.
    const input = await screen.findByTestId('composer-input');
    await fireEvent.input(input, { target: { value: 'hello' } });
    expect(screen.getByTestId('composer-hint').textContent).toBe('No model chosen yet.');
    await fireEvent.click(screen.getByTestId('model-button'));
    const picker = await screen.findByRole('dialog');
    await waitFor(() => expect(picker.textContent).toContain('Claude Haiku 4.5'));
    expect(picker.textContent).not.toContain('Claude Sonnet 4.5');
    await fireEvent.keyDown(picker, { key: 'Escape' });

    await fireEvent.click(await screen.findByText('Why the sky is blue'));
    await waitFor(() => expect(screen.getByTestId('model-button').textContent).toContain('Claude Sonnet 4.5'));
    expect(screen.getByTestId('model-button-level').textContent).toContain('medium');
    const hint = screen.getByTestId('composer-hint');
    expect(hint.textContent).toBe('Anthropic retired Claude Sonnet 4.5 on 2026-11-30; it may no longer answer. Choose another model (Ctrl+M).');
    expect(hint.classList.contains('warn')).toBe(true);
    // It can still be asked: the provider says whether it answers.
    await fireEvent.input(screen.getByTestId('composer-input'), { target: { value: 'Still there?' } });
    expect(screen.getByRole('button', { name: 'Send' })).toHaveProperty('disabled', false);
  });
});

describe('files the backend could not use', () => {
  const corrupt = {
    file: 'history',
    path: '/home/ada/.local/share/dev.ponder.desktop/ponder.sqlite3',
    message: 'the history database failed: file is not a database',
    remedy: 'moveAside',
  };

  it('come first, with the path and a choice, and the app starts once they are dealt with', async () => {
    const fake = backend({ problems: [corrupt] }) as Fake & { movedAside?: string[] };
    render(App);
    const card = await screen.findByTestId('problem-history');
    expect(card.textContent).toContain('file is not a database');
    expect(screen.getByTestId('problem-path').textContent).toBe(corrupt.path);
    expect(screen.queryByTestId('composer-input')).toBeNull();
    await fireEvent.click(screen.getByTestId('problem-move-aside'));
    expect(await screen.findByTestId('composer-input')).toBeTruthy();
    expect(fake.movedAside).toEqual(['history']);
  });

  it('say so when trying again did not help, and can quit', async () => {
    const fake = backend({
      problems: [{ ...corrupt, file: 'settings', message: 'Your settings could not be read: it cannot be read: permission denied.', remedy: 'retry' }],
    }) as Fake & { quit?: boolean };
    render(App);
    await fireEvent.click(await screen.findByTestId('problem-retry'));
    expect((await screen.findByTestId('problem-error')).textContent).toContain('permission denied');
    await fireEvent.click(screen.getByTestId('problem-quit'));
    await waitFor(() => expect(fake.quit).toBe(true));
  });
});
