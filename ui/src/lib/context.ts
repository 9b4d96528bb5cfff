// The app's state objects, shared with every component through Svelte's context.
import { getContext, setContext } from 'svelte';

import type { CatalogState } from './catalog.svelte';
import type { ChatSession } from './chat.svelte';
import type { ConversationsState, SearchState } from './conversations.svelte';
import type { RunsState } from './runs.svelte';
import type { SettingsState } from './settings.svelte';
import type { Shell } from './shell.svelte';
import type { ToolsState } from './tools.svelte';
import type { Ui } from './ui.svelte';

export interface Ponder {
  shell: Shell;
  ui: Ui;
  settings: SettingsState;
  catalog: CatalogState;
  conversations: ConversationsState;
  search: SearchState;
  runs: RunsState;
  /** MCP servers and their tools. */
  tools: ToolsState;
  /** The conversation on screen. */
  chat: ChatSession;
}

const KEY = Symbol('ponder');

export function providePonder(ponder: Ponder): Ponder {
  return setContext(KEY, ponder);
}

export function usePonder(): Ponder {
  const ponder = getContext<Ponder | undefined>(KEY);
  if (!ponder) throw new Error('usePonder() outside <App>');
  return ponder;
}
