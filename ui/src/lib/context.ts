// The app's state objects, shared with every component through Svelte's context.
import { getContext, setContext } from 'svelte';

import type { ChatState } from './chat.svelte';
import type { Shell } from './shell.svelte';
import type { Ui } from './ui.svelte';

export interface Ponder {
  shell: Shell;
  chat: ChatState;
  ui: Ui;
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
