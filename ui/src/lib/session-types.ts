// What the chat session and its helpers share. It imports none of them, so each helper can
// name these without importing the session, which imports the helpers.
import type { CatalogState } from './catalog.svelte';
import type { ConversationsState } from './conversations.svelte';
import type { RunsState } from './runs.svelte';
import type { SettingsState } from './settings.svelte';
import type { ToolsState } from './tools.svelte';
import type { ContextTokens, TranslatePreview } from './types';
import type { Ui } from './ui.svelte';

/** The key of the conversation not yet created ("New chat"). */
export const DRAFT = '';

/** The pieces a session works with, made once by the app. */
export interface SessionParts {
  ui: Ui;
  settings: SettingsState;
  catalog: CatalogState;
  conversations: ConversationsState;
  runs: RunsState;
  tools: ToolsState;
}

/** What the next request will be, for the reasoning panel. */
export interface NextRequest {
  preview: TranslatePreview | null;
  error: string | null;
  context: ContextTokens | null;
}
