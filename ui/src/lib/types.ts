// The shapes that cross IPC. Everything the backend sends or takes is generated from the Rust
// types into `ipc-generated.ts` (src-tauri/src/ts_bindings.rs; a test fails when it is stale);
// this file gives some of them the names the UI uses and adds what only the UI needs.
import type * as Ipc from './ipc-generated';

export type {
  About,
  ApiChoice,
  ConversationSummary,
  ConversationView,
  CustomProvider,
  LevelOption,
  Meaning,
  MeaningKind,
  MessageStatus,
  MessageView,
  ModelSource,
  ModelView,
  PartView,
  PriceFigures,
  PriceOverride,
  Protocol,
  ProviderOverrides,
  ProviderSettings,
  ProviderView,
  PurgeReport,
  ReasoningSettings,
  SearchHit,
  SendRequest,
  StartupProblem,
  StopReason,
  StreamEvent,
  StripFromContext,
  ThoughtFormat,
  ThoughtSource,
  ThoughtVisibility,
  KeyringStatus,
  Usage,
  UsageRow,
  VersionFigures,
  VersionView,
} from './ipc-generated';

export const THEMES = ['light', 'dark', 'system'] as const satisfies readonly Ipc.Theme[];
export type Theme = Ipc.Theme;

// ---- reasoning ----

export const NAMED_CHOICES = ['default', 'off', 'minimal', 'low', 'medium', 'high', 'max'] as const satisfies readonly Ipc.Choice[];
export type NamedChoice = (typeof NAMED_CHOICES)[number];
/** A named level, or a token budget (a number above zero). */
export type Choice = Ipc.Choice;

/** A new conversation's reasoning settings: thoughts shown, kept out of later requests. */
export function defaultReasoningSettings(): Ipc.ReasoningSettings {
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

export type AppSettings = Ipc.Settings;
/** The older name, kept for the status line. */
export type Settings = AppSettings;
export type SettingsPatch = Partial<AppSettings>;

/** A budget (number) or an effort or level name (string). */
export type OverrideScalar = Ipc.Scalar;
/** `null` disables reasoning; one value is sent at every level; four are minimal, low, medium, high. */
export type OverrideMapping = Ipc.Mapping;
export type ReasoningOverrides = Ipc.Overrides;

// ---- providers and models ----

/** What "Add a server of your own" sends (`add_custom_provider`). */
export type NewCustomProvider = Omit<Ipc.CustomProvider, 'id'>;

export type ContextTokens = Ipc.TokenCount;

export type { RefreshReport, TranslatePreview } from './ipc-generated';

// ---- messages and conversations ----

/** Whether the provider returns a summary written by another model rather than the thoughts. */
export function isSummarySource(source: Ipc.ThoughtSource | null | undefined): boolean {
  return source === 'summary' || source === 'thought';
}

export type TextPart = Extract<Ipc.PartView, { type: 'text' }>;
export type ThinkingPart = Extract<Ipc.PartView, { type: 'thinking' }>;
export type ToolCallPart = Extract<Ipc.PartView, { type: 'toolCall' }>;
export type ToolResultPart = Extract<Ipc.PartView, { type: 'toolResult' }>;
export type AttachmentPart = Extract<Ipc.PartView, { type: 'attachment' }>;
export type ToolContent = Ipc.ToolContent;
export type ToolDecision = Ipc.Decision;
export type McpServer = Ipc.ServerConfig;
export type McpTransport = Ipc.Transport;
export type McpServerStatus = Ipc.ServerStatus;
export type McpServerState = Ipc.ServerState;
export type McpServerTools = Ipc.ServerTools;
export type McpToolInfo = Ipc.ToolInfo;
export type ToolChoice = Ipc.ToolChoice;

export type IpcErrorView = Ipc.IpcError;

// ---- a running turn ----

export type RunStarted = Ipc.Sent;

// ---- history ----

export type ExportFormat = Ipc.Format;
export type ExportThoughts = Ipc.ThoughtsMode;
export type ImportReport = Ipc.Imported;

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
  'pdfUnread',
] as const satisfies readonly Ipc.IpcErrorCode[];
export type ErrorCode = Ipc.IpcErrorCode;
