// The only module that talks to the Rust side. Everything else imports these wrappers,
// so a rejected call always arrives as an AppError with a code the UI can branch on.
import { Channel, convertFileSrc, invoke, type InvokeArgs, type InvokeOptions } from '@tauri-apps/api/core';

import { perFrame } from './frames';
import { measureDelivery, measurePaint, paintFloor } from './perf';
import {
  ERROR_CODES,
  type NewCustomProvider,
  type OverrideMapping,
  type Choice,
  type ErrorCode,
  type ExportFormat,
  type ExportThoughts,
  type ReasoningSettings,
  type RunStarted,
  type SendRequest,
  type SettingsPatch,
  type StartupProblem,
  type StreamEvent,
  type Theme,
} from './types';
import type { Piece } from './attaching';
import type * as Ipc from './ipc-generated';

const KNOWN_CODES: ReadonlySet<string> = new Set<string>(ERROR_CODES);

export class AppError extends Error {
  readonly code: ErrorCode;
  /** How long the provider asked to wait, for rate limits. */
  readonly retryAfterMs: number | undefined;

  constructor(code: ErrorCode, message: string, retryAfterMs?: number) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.retryAfterMs = retryAfterMs;
  }

  static from(raw: unknown): AppError {
    if (raw instanceof AppError) return raw;
    if (typeof raw === 'object' && raw !== null && 'message' in raw) {
      const { code, message, retryAfterMs } = raw as { code?: unknown; message?: unknown; retryAfterMs?: unknown };
      const known = typeof code === 'string' && KNOWN_CODES.has(code) ? (code as ErrorCode) : 'internal';
      return new AppError(known, String(message), typeof retryAfterMs === 'number' ? retryAfterMs : undefined);
    }
    if (raw instanceof Error) return new AppError('internal', raw.message);
    return new AppError('internal', typeof raw === 'string' ? raw : 'Something went wrong.');
  }
}

type Commands = Ipc.Commands;
type Command = keyof Commands;
/** The commands that stream a run's events through a channel. */
type RunCommand = { [K in Command]: Commands[K] extends { events: StreamEvent } ? K : never }[Command];

/** Invokes a command; a rejection arrives as an AppError. */
async function send<T>(command: Command, args?: InvokeArgs, options?: InvokeOptions): Promise<T> {
  try {
    return await invoke<T>(command, args, options);
  } catch (raw) {
    throw AppError.from(raw);
  }
}

/**
 * Invokes a command with the arguments its Rust function takes and resolves to what it
 * returns; both come from the generated contract, so a renamed command, argument or result
 * fails the type check here rather than at run time.
 */
function call<K extends Command>(command: K, ...rest: Commands[K]['args'] extends Record<string, never> ? [] : [Commands[K]['args']]): Promise<Commands[K]['result']> {
  return send(command, rest[0]);
}

/**
 * Stores a file the page holds as bytes (pasted or dropped): the bytes go as the request's
 * body and the name, which may be any text, percent-encoded in a header; a large file's
 * pieces say which upload they belong to and where they go. Resolves to the file stored (or,
 * for a piece before the last, to nothing yet), or to the line saying why it was refused.
 */
function attachBytes(name: string, bytes: Uint8Array, piece: Piece | null = null): Promise<Commands['attach_bytes']['result']> {
  const args: Commands['attach_bytes']['args'] = bytes;
  const headers: Record<string, string> = { 'x-ponder-name': encodeURIComponent(name) };
  if (piece) {
    headers['x-ponder-upload'] = piece.upload;
    headers['x-ponder-offset'] = String(piece.offset);
    headers['x-ponder-final'] = piece.last ? '1' : '0';
  }
  return send('attach_bytes', args, { headers });
}

/** The two sizes a stored image is served in: a thumbnail (its long edge at most 320 px) or
 * the file as it was given. */
export type FileVariant = 'thumb' | 'full';

/**
 * The address a stored image is shown from: the backend serves it by its hash through the
 * `ponder-file` scheme (images only; PDFs and text are not served). Null where the page is
 * not in the app (nothing serves it).
 */
export function fileUrl(sha256: string, variant: FileVariant): string | null {
  try {
    return convertFileSrc(`${variant}/${sha256}`, 'ponder-file');
  } catch {
    return null;
  }
}

/** Receives the events of one run; `close()` stops delivering them (after a terminal event). */
export interface EventStream {
  close(): void;
}

/**
 * A channel for one run's events. Events after `close()` are dropped, so a stream ends on
 * its terminal event (`done`, `error`, `cancelled`) and never on the invoke promise.
 */
function eventChannel(onEvent: (event: StreamEvent) => void): { channel: Channel<StreamEvent>; stream: EventStream } {
  let open = true;
  const deliver = perFrame<StreamEvent>((events) => {
    let arrived = Infinity;
    const floor = paintFloor();
    for (const event of events) {
      if (!open) return;
      if (event.type === 'done' || event.type === 'error' || event.type === 'cancelled') open = false;
      if (event.type === 'textDelta' || event.type === 'thinkingDelta') {
        arrived = Math.min(arrived, event.at);
        if (floor) {
          floor(event.text);
          continue;
        }
      }
      onEvent(event);
    }
    if (arrived !== Infinity) measurePaint(arrived);
  });
  const channel = new Channel<StreamEvent>((event) => {
    if (!open) return;
    if (event.type === 'textDelta' || event.type === 'thinkingDelta') measureDelivery(event.at);
    deliver(event);
  });
  return { channel, stream: { close: () => (open = false) } };
}

/** Starts a run whose events go to `onEvent`; resolves once the backend has accepted it. */
async function startRun<K extends RunCommand>(
  command: K,
  args: Commands[K]['args'],
  onEvent: (event: StreamEvent) => void,
): Promise<RunStarted & { stream: EventStream }> {
  const { channel, stream } = eventChannel(onEvent);
  const started = await send<RunStarted | null>(command, { ...args, onEvent: channel });
  return { runId: started?.runId ?? '', conversationId: started?.conversationId ?? '', stream };
}

export const ipc = {
  appInfo: () => call('app_info'),
  startupProblems: () => call('startup_problems'),
  resolveStartupProblem: (file: StartupProblem['file'], remedy: StartupProblem['remedy']) =>
    call('resolve_startup_problem', { file, remedy }),
  /** Quits as closing the window does: running answers are stopped and stored first. */
  quit: () => call('quit'),
  getSettings: () => call('get_settings'),
  setTheme: (theme: Theme) => call('set_theme', { theme }),
  updateSettings: (patch: SettingsPatch) => call('update_settings', { patch }),
  /** Hides one thought of an answer (the index-th among its thoughts), or shows it again. */
  setThoughtHidden: (messageId: string, index: number, hidden: boolean) =>
    call('set_thought_hidden', { messageId, index, hidden }),
  /** The whole text of a message's index-th thought (views carry the start of long ones). */
  thoughtText: (messageId: string, index: number) => call('thought_text', { messageId, index }),
  addCustomProvider: (p: NewCustomProvider) => call('add_custom_provider', { ...p }),
  removeCustomProvider: (id: string) => call('remove_custom_provider', { id }),
  /** What an override map makes of each level (minimal to high), for the editor. */
  overrideMeanings: (provider: string, model: string | null, reasoning: OverrideMapping) =>
    call('override_meanings', { provider, model, reasoning }),

  listProviders: () => call('list_providers'),
  setApiKey: (provider: string, key: string) => call('set_api_key', { provider, key }),
  clearApiKey: (provider: string) => call('clear_api_key', { provider }),
  keyringStatus: () => call('keyring_status'),
  /**
   * Starts GitHub's device flow for Copilot and resolves to the code to show; the wait for
   * the user goes on in the backend and reports to `onEvent` until `signedIn` or `failed`.
   */
  copilotSignIn: (onEvent: (event: Ipc.SignInEvent) => void) =>
    send<Ipc.DeviceCodeView>('copilot_sign_in', { onEvent: new Channel<Ipc.SignInEvent>(onEvent) }),
  copilotCancelSignIn: () => call('copilot_cancel_sign_in'),

  listModels: () => call('list_models'),
  /** Adds an id the user typed to a provider's models; returns it as the picker shows it. */
  addModel: (provider: string, id: string) => call('add_model', { provider, id }),
  budgetOption: (provider: string, model: string, tokens: number) => call('budget_option', { provider, model, tokens }),
  /** Asks each provider with a key for its current models; `listModels` then includes them. */
  refreshModels: () => call('refresh_models'),
  /** Opens a link in the system's browser (only http and https). */
  openExternal: (url: string) => call('open_external', { url }),
  /** An image the user asked for, fetched by the app, as a `data:` URL. */
  loadImage: (url: string) => call('load_image', { url }),
  setConversationModel: (id: string, provider: string, model: string) =>
    call('set_conversation_model', { id, provider, model }),
  /** What a choice sends; with a conversation, also its effective context tokens. */
  translatePreview: (provider: string, model: string, choice: Choice, settings: ReasoningSettings, conversationId: string | null = null) =>
    call('translate_preview', { provider, model, choice, settings, conversationId }),

  /** Pinned first, then the most recently active; with `first`, only that many. */
  listConversations: (includeArchived = false, first: number | null = null) =>
    call('list_conversations', { includeArchived, first }),
  /** The conversation with the path it shows; with `tail`, only the path's end (at least
   * that many messages, from a question on) and how many come `earlier`. */
  getConversation: (id: string, tail: number | null = null) => call('get_conversation', { id, tail }),
  /** The shown path above a message, first message first (what a tail left out). */
  earlierMessages: (messageId: string) => call('earlier_messages', { messageId }),
  /** The conversation as it reads through another version of one of its messages. */
  showVersion: (messageId: string) => call('show_version', { messageId }),
  /** Deletes one version of a message and what followed it; `restoreBranch` brings it back. */
  deleteBranch: (messageId: string) => call('delete_branch', { messageId }),
  /** Tokens and cost per day and model over the last `days` days. */
  usageReport: (days: number) => call('usage_report', { days }),
  /** Every version of an answer with its figures and thoughts, oldest first. */
  compareVersions: (messageId: string) => call('compare_versions', { messageId }),
  restoreBranch: (messageId: string) => call('restore_branch', { messageId }),
  createConversation: (provider: string | null, model: string | null, settings: ReasoningSettings) =>
    call('create_conversation', { provider, model, settings }),
  renameConversation: (id: string, title: string) => call('rename_conversation', { id, title }),
  deleteConversation: (id: string) => call('delete_conversation', { id }),
  pinConversation: (id: string, pinned: boolean) => call('pin_conversation', { id, pinned }),
  setConversationSettings: (id: string, settings: ReasoningSettings) =>
    call('set_conversation_settings', { id, settings }),
  contextTokens: (id: string, provider: string, model: string) =>
    call('context_tokens', { id, provider, model }),

  /** Opens the system's file dialog (the page never names a path) and stores the files chosen. */
  pickAttachments: () => call('pick_attachments'),
  /** Stores one pasted or dropped file, given as its bytes. */
  attachBytes,
  sendMessage: (request: SendRequest, onEvent: (event: StreamEvent) => void) =>
    startRun('send_message', { request }, onEvent),
  regenerate: (messageId: string, onEvent: (event: StreamEvent) => void) =>
    startRun('regenerate', { messageId }, onEvent),
  /** Another answer to the same question with another model and level, beside the others. */
  rerun: (request: Ipc.RerunRequest, onEvent: (event: StreamEvent) => void) => startRun('rerun', { request }, onEvent),
  editAndResend: (messageId: string, text: string, onEvent: (event: StreamEvent) => void) =>
    startRun('edit_and_resend', { messageId, text }, onEvent),
  cancelRun: (runId: string) => call('cancel_run', { runId }),
  /** The user's answer to a tool call waiting on its approval card. */
  answerToolCall: (runId: string, callId: string, decision: Ipc.Decision) =>
    call('answer_tool_call', { runId, callId, decision }),
  mcpStatus: () => call('mcp_status'),
  /** Starts a server afresh and lists its tools (Settings' "Test"). */
  mcpTest: (id: string) => call('mcp_test', { id }),
  /** Every switched-on server's tools, starting those not running. */
  mcpTools: () => call('mcp_tools'),
  setMcpSecret: (serverId: string, name: string, value: string) => call('set_mcp_secret', { serverId, name, value }),
  clearMcpSecret: (serverId: string, name: string) => call('clear_mcp_secret', { serverId, name }),

  search: (query: string, inThoughts: boolean) => call('search', { query, inThoughts }),
  purgeThoughts: (olderThanDays: number) => call('purge_thoughts', { olderThanDays }),
  exportConversation: (id: string, format: ExportFormat, thoughts: ExportThoughts, tools = true, everyVersion = false) =>
    call('export_conversation', { id, format, thoughts, tools, everyVersion }),
  /**
   * Asks for a file and imports it; `onProgress` hears how far it has come a few times a
   * second. Resolves to the summary (`cancelled` when stopped), or null when no file was picked.
   */
  importFile: (onProgress: (progress: Ipc.ImportProgress) => void) =>
    send<Ipc.Imported | null>('import_file', { onEvent: new Channel<Ipc.ImportProgress>(onProgress) }),
  /** Stops the import under way after the conversation it is reading. */
  cancelImport: () => call('cancel_import'),
};
