// The shapes that cross IPC, mirroring src-tauri by hand: `src/ipc.rs` (MessageView, PartView,
// ConversationView, ModelView, ProviderView, StreamEvent, SendRequest), the app's settings,
// and ponder-core's reasoning (Choice, LevelOption, Meaning, ReasoningSettings), chat (Usage,
// StopReason, ThoughtSource) and store (ConversationSummary, SearchHit) types.

export interface About {
  name: string;
  version: string;
  dataDir: string;
  databasePath: string;
}

/** A file Ponder could not use at start-up (`src/state.rs`, StartupProblem). */
export interface StartupProblem {
  file: 'history' | 'settings';
  path: string;
  message: string;
  /** Besides quitting: keep the file aside and start afresh, or fix it and try again. */
  remedy: 'moveAside' | 'retry';
}

export const THEMES = ['light', 'dark', 'system'] as const;
export type Theme = (typeof THEMES)[number];

// ---- reasoning ----

export const NAMED_CHOICES = ['default', 'off', 'minimal', 'low', 'medium', 'high', 'max'] as const;
export type NamedChoice = (typeof NAMED_CHOICES)[number];
/** A named level, or a token budget (a number above zero). */
export type Choice = NamedChoice | number;

export interface LevelOption {
  choice: Choice;
  /** `medium — 43,008 tokens`, `off — not available, minimum is LOW`. */
  label: string;
  available: boolean;
}

export type MeaningKind =
  | 'budget'
  | 'adaptive'
  | 'effort'
  | 'level'
  | 'disabled'
  | 'provider_default'
  | 'toggle'
  | 'always';

export interface Meaning {
  kind: MeaningKind;
  tokens?: number;
  value?: string;
}

export type ThoughtFormat = 'native' | 'field';
export type StripFromContext = 'all' | 'allButLast' | 'none';

export interface ReasoningSettings {
  enabled: boolean;
  includeInContext: boolean;
  includeInResponse: boolean;
  format: ThoughtFormat;
  stripFromContext: StripFromContext;
  /** The most one answer may hold, thinking included; a budget is cut to fit within it. */
  maxOutputTokens?: number | null;
  /** Past 150,000 tokens of conversation, thinking budgets are cut to 10,000. */
  longContextCut: boolean;
  /** The conversation's system prompt. */
  systemPrompt?: string | null;
  /** Chat Completions or Responses where a provider has both; unset lets Ponder choose. */
  api?: 'chat' | 'responses' | null;
  choice: Choice;
}

/** Seed 001's defaults (REQ-THINK-006). */
export function defaultReasoningSettings(): ReasoningSettings {
  return {
    enabled: true,
    includeInContext: false,
    includeInResponse: true,
    format: 'field',
    stripFromContext: 'none',
    maxOutputTokens: null,
    longContextCut: true,
    choice: 'default',
  };
}

// ---- app settings ----

export type ThoughtVisibility = 'auto' | 'expanded' | 'collapsed';

export interface ProviderSettings {
  enabled: boolean;
  baseUrl: string | null;
  /** Model ids the user typed in the picker, offered from then on. */
  models?: string[];
}

export interface AppSettings {
  theme: Theme;
  defaultProvider?: string | null;
  defaultModel?: string | null;
  defaultChoice: Choice;
  thoughtVisibility: ThoughtVisibility;
  storeThoughts: boolean;
  retentionDays: number | null;
  /** Seconds a silent provider is waited for before the answer ends with Retry. */
  stallTimeoutSecs: number;
  providers: Record<string, ProviderSettings>;
  profiles: Record<string, ReasoningSettings>;
  /** Seed 002's reasoning maps per provider and per model. */
  reasoningOverrides?: ReasoningOverrides;
}

/** A budget (number) or an effort or level name (string). */
export type OverrideScalar = number | string;
/** `null` disables reasoning; one value is sent at every level; four are minimal, low, medium, high. */
export type OverrideMapping = null | OverrideScalar | [OverrideScalar, OverrideScalar, OverrideScalar, OverrideScalar];

export interface ProviderOverrides {
  reasoning?: OverrideMapping;
  /** The lowest level at which streaming is forced on. */
  reasoningAutoStreamLevel?: string;
  /** Anthropic: `full` keeps the cache marker on the last message, `none` sends none. */
  caching?: 'full' | 'none';
  models?: Record<string, { reasoning?: OverrideMapping }>;
}

export interface ReasoningOverrides {
  providers: Record<string, ProviderOverrides>;
}

/** The older shape (`{theme}`) kept as a name for the status line. */
export type Settings = AppSettings;

export type SettingsPatch = Partial<Omit<AppSettings, 'theme'>> & { theme?: Theme };

// ---- providers and models ----

export interface ProviderView {
  id: string;
  name: string;
  enabled: boolean;
  baseUrl: string;
  defaultBaseUrl: string;
  needsKey: boolean;
  hasKey: boolean;
  /** The environment variable that can hold the key instead of the keyring. */
  keyEnv: string;
  /** A server the user added (it can be removed). */
  custom?: boolean;
}

export type Protocol = 'openai_chat' | 'openai_responses' | 'anthropic' | 'gemini' | 'ollama';

export interface NewCustomProvider {
  name: string;
  baseUrl: string;
  protocol: Protocol;
  /** The built-in provider whose way of reasoning it follows. */
  preset: string;
  needsKey: boolean;
}

export interface KeyringStatus {
  available: boolean;
  message: string | null;
}

export interface ModelView {
  provider: string;
  providerName: string;
  id: string;
  name: string;
  contextWindow: number;
  maxOutput: number;
  /** budget, adaptive, effort, level, toggle, always or none. */
  thinking: string;
  canDisable: boolean;
  /** full, summary or none. */
  shows: string;
  /** The provider needs a key and none is stored. */
  needsKey: boolean;
  /** False when no rule covers the id and it may reason: "thinking support unknown". */
  known: boolean;
  /** Chat Completions and Responses can both serve it (the conversation may choose). */
  apiChoice?: boolean;
  /** Where the id comes from: the model list Ponder ships, the provider's own list, the user. */
  source: ModelSource;
  /** The day its newest snapshot came out (YYYY-MM-DD), where known. */
  released: string | null;
  /** Only the choices this model supports, each with its meaning. */
  levels: LevelOption[];
}

export type ModelSource = 'catalog' | 'live' | 'added';

export interface ContextTokens {
  tokens: number;
  exact: boolean;
}

export interface TranslatePreview {
  feedback: string;
  warnings: string[];
  meaning: Meaning;
  /** Where the next turn goes. */
  url: string;
  /** The whole body of the next turn's request, as `run_turn` will send it. */
  request: Record<string, unknown>;
  /** Its headers, the key replaced by a placeholder. */
  headers: Record<string, string>;
  stream: boolean;
  api: string;
  /** The cap on the answer (thinking included) the request sends, if any. */
  outputCap: number | null;
  /** The thinking budget it sends, where the model takes one. */
  thinkingBudget: number | null;
  contextTokens: ContextTokens | null;
}

// ---- messages and conversations ----

export type ThoughtSource =
  | 'thinking'
  | 'reasoning_content'
  | 'reasoning'
  | 'reasoning_details'
  | 'summary'
  | 'reasoning_text'
  | 'thought'
  | 'think_tag';

/** Whether the provider returns a summary written by another model rather than the thoughts. */
export function isSummarySource(source: ThoughtSource | null | undefined): boolean {
  return source === 'summary' || source === 'thought';
}

export interface Usage {
  input?: number;
  output?: number;
  reasoning?: number;
  cached?: number;
}

export type StopReason =
  | { kind: 'end' }
  | { kind: 'max_tokens'; while_thinking: boolean }
  | { kind: 'tool_use' }
  | { kind: 'refusal' }
  | { kind: 'content_filter' }
  | { kind: 'cancelled' }
  | { kind: 'other'; reason: string };

export interface TextPart {
  type: 'text';
  text: string;
}

export interface ThinkingPart {
  type: 'thinking';
  text: string;
  source: ThoughtSource | null;
  summary: boolean;
  redacted: boolean;
  hidden: boolean;
  durationMs: number | null;
  tokenEstimate: number | null;
}

export interface ToolCallPart {
  type: 'toolCall';
  name: string;
  arguments: string;
}

export type PartView = TextPart | ThinkingPart | ToolCallPart;

export type MessageStatus = 'streaming' | 'complete' | 'cancelled' | 'error' | 'interrupted';

export interface IpcErrorView {
  code: ErrorCode;
  message: string;
  retryAfterMs?: number;
}

export interface MessageView {
  id: string;
  role: 'user' | 'assistant';
  status: MessageStatus;
  parts: PartView[];
  provider: string | null;
  model: string | null;
  choice: Choice | null;
  usage: Usage;
  thinkingMs: number | null;
  stop: StopReason | null;
  error: IpcErrorView | null;
  /** What Ponder told the user about the turn when it was sent (a quiet line under it). */
  notes?: string[];
  createdAt: number;
}

export interface ConversationView {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  provider: string | null;
  model: string | null;
  settings: ReasoningSettings;
  pinned: boolean;
  archived: boolean;
  messages: MessageView[];
}

export interface ConversationSummary {
  id: string;
  title: string;
  updatedAt: number;
  provider: string | null;
  model: string | null;
  pinned: boolean;
  archived: boolean;
  messageCount: number;
}

export interface SearchHit {
  conversationId: string;
  conversationTitle: string;
  messageId: string;
  /** A short excerpt with the matches between `[` and `]`. */
  snippet: string;
  inThoughts: boolean;
}

// ---- a running turn ----

export interface SendRequest {
  conversationId: string | null;
  text: string;
  provider: string;
  model: string;
  /** The conversation's choice; saved on it. */
  choice: Choice;
  /** A choice for this message only; not saved. */
  once?: Choice | null;
}

export interface RunStarted {
  runId: string;
  conversationId: string;
}

export type StreamEvent =
  | { type: 'started'; runId: string; userMessageId: string; messageId: string }
  | { type: 'plan'; feedback: string; warnings: string[]; meaning: Meaning; notes: string[] }
  | { type: 'notice'; text: string }
  | { type: 'retry'; attempt: number; waitMs: number; message: string }
  | { type: 'thinkingStart'; source: ThoughtSource }
  | { type: 'thinkingDelta'; text: string }
  | { type: 'thinkingEnd' }
  | { type: 'thinkingRedacted' }
  | { type: 'textDelta'; text: string }
  | { type: 'toolCall'; name: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'done'; message: MessageView }
  | { type: 'error'; error: IpcErrorView; message: MessageView | null }
  | { type: 'cancelled'; message: MessageView };

// ---- history ----

export interface PurgeReport {
  messages: number;
  bytesFreed: number;
}

export type ExportFormat = 'md' | 'json' | 'html';
export type ExportThoughts = 'details' | 'section' | 'omit';

export interface ImportReport {
  conversations: number;
  messages: number;
}

export const ERROR_CODES = [
  'invalidInput',
  'storage',
  'internal',
  'notFound',
  'missingKey',
  'keyringUnavailable',
  'auth',
  'rateLimited',
  'quota',
  'overloaded',
  'contextTooLong',
  'badRequest',
  'network',
  'decode',
  'server',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];
