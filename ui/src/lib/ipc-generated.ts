// Generated from the Rust types of the IPC contract by src-tauri/src/ts_bindings.rs.
// Do not edit: run `PONDER_BLESS=1 cargo test -p ponder ts_bindings` after changing them.

export type Choice = "default" | "off" | "minimal" | "low" | "medium" | "high" | "max" | number;

export type ApiChoice = "chat" | "responses";

export type Endpoint = "messages" | "chat" | "responses" | "generate_content" | "ollama_chat";

export type Protocol = "anthropic" | "openai_chat" | "openai_responses" | "gemini" | "ollama";

export type ThoughtSource = "thinking" | "reasoning_content" | "reasoning" | "reasoning_details" | "summary" | "reasoning_text" | "thought" | "think_tag";

export type ToolContent = { "type": "text", text: string, } | { "type": "image", mime_type: string, data: string, };

export type AttachmentKind = "png" | "jpeg" | "gif" | "webp" | "pdf" | "text";

export type MessageStatus = "streaming" | "complete" | "cancelled" | "error" | "interrupted";

export type StopReason = { "kind": "end" } | { "kind": "max_tokens", whileThinking: boolean, } | { "kind": "tool_use" } | { "kind": "refusal" } | { "kind": "content_filter" } | { "kind": "cancelled" } | { "kind": "other", reason: string, };

export type Usage = { input?: number | null, 
/** Output tokens including reasoning, as every provider but Gemini counts them. */
output?: number | null, reasoning?: number | null, cached?: number | null, };

export type TokenCount = { tokens: number, 
/** False when the figure is the four-characters-a-token estimate. */
exact: boolean, };

export type MeaningKind = "budget" | "adaptive" | "effort" | "level" | "disabled" | "provider_default" | "toggle" | "always";

export type Meaning = { kind: MeaningKind, 
/** The budget the level stands for (before any cut to keep the request valid). */
tokens?: number | null, 
/** The effort, level or toggle value. */
value?: string | null, };

export type LevelOption = { choice: Choice, 
/** `medium — 43,008 tokens`, `off — not available, minimum is LOW`. */
label: string, 
/** False when the model cannot do this choice, or does exactly what another choice does. */
available: boolean, };

export type StripFromContext = "all" | "allButLast" | "none";

export type ThoughtFormat = "native" | "field";

export type ReasoningSettings = { 
/** False sends no reasoning parameters, but thoughts a model returns are still kept. */
enabled: boolean, includeInContext: boolean, includeInResponse: boolean, format: ThoughtFormat, stripFromContext: StripFromContext, 
/**
 * The most one answer may hold, thinking included (`max_tokens`, `max_output_tokens`,
 * `maxOutputTokens`). Where the level sets a thinking budget, the budget is cut to leave
 * room for the answer within it. The older name `maxTokens` still reads.
 */
maxOutputTokens?: number | null, 
/**
 * Past 150,000 tokens of conversation, budgets are cut to 10,000, so that a long
 * conversation still leaves room for the answer.
 */
longContextCut: boolean, 
/** The conversation's system prompt (a profile can carry one too). */
systemPrompt?: string | null, 
/**
 * A system prompt that came with an imported file. It is not sent until the user has
 * read it and chosen to use it: a shared conversation must not instruct the model
 * unseen.
 */
importedSystemPrompt?: string | null, 
/** For providers that have both, Chat Completions or Responses; `None` lets Ponder choose. */
api?: ApiChoice | null, choice: Choice, 
/**
 * The tools this conversation offers the model (MCP servers, tools switched off, tools
 * allowed without asking).
 */
tools?: ToolChoice, };

export type Profiles = { [key in string]?: ReasoningSettings };

export type Scalar = number | string;

export type Mapping = null | Scalar | [Scalar, Scalar, Scalar, Scalar];

export type Caching = "full" | "none";

export type ModelOverrides = { reasoning?: Mapping | null, 
/** Whether this model's answers stream; unset follows the provider. */
stream?: boolean | null, };

export type ProviderOverrides = { reasoning?: Mapping | null, 
/** The lowest level at which streaming is forced on. */
reasoningAutoStreamLevel?: "minimal" | "low" | "medium" | "high" | "max", caching?: Caching | null, 
/**
 * Whether answers stream (unset: they do). Off, each answer comes whole — for an
 * organisation OpenAI will not stream reasoning models to, or a proxy that buffers —
 * except at and above `reasoningAutoStreamLevel`, and where a request must stream.
 */
stream?: boolean | null, models?: { [key in string]?: ModelOverrides }, };

export type Overrides = { providers: { [key in string]?: ProviderOverrides }, };

export type CustomProvider = { 
/** `custom-…`, unique; keys are stored under it. */
id: string, name: string, baseUrl: string, protocol: Protocol, 
/** The built-in provider whose reasoning dialect and generic rule it follows. */
preset: string, 
/** Whether it takes an API key. */
needsKey: boolean, };

export type ToolChoice = { 
/** Server ids whose tools are offered. */
servers: Array<string>, 
/** Tools of those servers left out, as `server/tool`. */
off: Array<string>, 
/**
 * Tools this conversation runs without asking (the user chose "Allow for this
 * conversation"), as `server/tool`.
 */
allowed: Array<string>, };

export type Transport = { "type": "stdio", command: string, args: Array<string>, 
/** Plain values; a secret's entry is its name with an empty value here. */
env: { [key in string]?: string }, 
/** Names in `env` whose values are in the keyring. */
secretEnv: Array<string>, cwd: string | null, } | { "type": "http", url: string, headers: { [key in string]?: string }, 
/** Names in `headers` whose values are in the keyring. */
secretHeaders: Array<string>, };

export type ServerConfig = { 
/** Stable, short and safe in tool names: lowercase letters, digits, `-` and `_`. */
id: string, 
/** What the user calls it. */
name: string, enabled: boolean, transport: Transport, };

export type Theme = "light" | "dark" | "system";

export type ThoughtVisibility = "auto" | "expanded" | "collapsed";

export type ProviderSettings = { 
/** On unless switched off: an entry written by hand for its address alone stays enabled. */
enabled: boolean, 
/** Overrides the provider's base URL (a proxy, a local server, the mock provider). */
baseUrl: string | null, 
/** Model ids the user typed in the picker, offered from then on. */
models: Array<string>, };

export type PriceOverride = { provider: string, model: string, input: number | null, output: number | null, cachedInput: number | null, reasoning: number | null, };

export type Settings = { theme: Theme, defaultProvider: string | null, defaultModel: string | null, defaultChoice: Choice, thoughtVisibility: ThoughtVisibility, 
/** False: thoughts are shown while they stream but never written to disk. */
storeThoughts: boolean, 
/** Delete stored thoughts older than this many days (checked at start-up). */
retentionDays: number | null, 
/**
 * Seconds a provider may stay silent (before its answer starts, or in the middle of
 * it) before the turn ends as a network error with what arrived kept.
 */
stallTimeoutSecs: number, providers: { [key in string]?: ProviderSettings }, profiles: Profiles, 
/**
 * The reasoning maps, per provider and per model, with the auto-stream level
 * and Anthropic's caching toggle.
 */
reasoningOverrides: Overrides, 
/** Servers the user added, each following a built-in provider's way of reasoning. */
customProviders: Array<CustomProvider>, 
/** MCP servers whose tools conversations can offer the model. */
mcpServers: Array<ServerConfig>, 
/** Tools that run in every conversation without asking, as `server/tool`. */
alwaysAllowedTools: Array<string>, 
/** Model steps in one turn with tools before Ponder stops the loop. */
toolStepLimit: number, 
/** Seconds a tool call may take. */
toolTimeoutSecs: number, 
/** The user's own prices, over the listed ones. */
prices: Array<PriceOverride>, };

export type IpcErrorCode = "invalidInput" | "storage" | "internal" | "notFound" | "missingKey" | "keyringUnavailable" | "auth" | "rateLimited" | "quota" | "overloaded" | "contextTooLong" | "badRequest" | "network" | "decode" | "server" | "declined" | "pdfUnread";

export type IpcError = { code: IpcErrorCode, message: string, 
/** How long the provider asked to wait, for rate limits. */
retryAfterMs?: number, };

export type ProblemFile = "history" | "settings";

export type Remedy = "moveAside" | "retry";

export type StartupProblem = { file: ProblemFile, path: string, 
/** What went wrong, in a sentence. */
message: string, 
/** What the user can do besides quitting. */
remedy: Remedy, };

export type KeyringStatus = { available: boolean, message: string | null, };

export type PartView = { "type": "text", text: string, } | { "type": "thinking", text: string, source: ThoughtSource | null, 
/** A summary written by another model (OpenAI, Gemini, Claude 4), labelled as such. */
summary: boolean, 
/** Encrypted thoughts with no readable text. */
redacted: boolean, hidden: boolean, durationMs: number | null, tokenEstimate: number | null, 
/**
 * `text` is only the start of a long thought (enough for the folded preview); the
 * `thought_text` command gives the whole when the pane opens. A long thread then
 * opens without carrying every thought across.
 */
partial: boolean, } | { "type": "toolCall", id: string, name: string, arguments: string, } | { "type": "toolResult", callId: string, name: string, content: Array<ToolContent>, isError: boolean, durationMs: number | null, } | { "type": "attachment", sha256: string, kind: AttachmentKind, name: string, bytes: number, 
/** A PDF's page count, where it could be read. */
pages: number | null, };

export type MessageView = { id: string, role: "user" | "assistant" | "tool", status: MessageStatus, parts: Array<PartView>, provider: string | null, model: string | null, choice: Choice | null, usage: Usage, thinkingMs: number | null, stop: StopReason | null, error: IpcError | null, 
/**
 * What Ponder told the user about the turn when it was sent: how the level was read,
 * warnings, how the history went (a quiet line under the answer).
 */
notes: Array<string>, createdAt: number, 
/**
 * The ids of every version of this message (its siblings and itself, oldest first);
 * empty when there is only this one.
 */
versions: Array<string>, 
/** US dollars, where the model's prices are listed. */
cost: number | null, };

export type ConversationSummary = { id: string, title: string, updatedAt: number, provider: string | null, model: string | null, pinned: boolean, archived: boolean, messageCount: number, 
/** The project it belongs to, by name. */
project: string | null, };

export type ConversationView = { id: string, title: string, createdAt: number, updatedAt: number, provider: string | null, model: string | null, settings: ReasoningSettings, pinned: boolean, archived: boolean, messages: Array<MessageView>, 
/**
 * How many messages of the shown path come before `messages` and were not read: a view
 * opened at its end (`earlier_messages` reads them). 0 for a whole view.
 */
earlier: number, 
/**
 * What every answer in it cost, every version included (US dollars); none when no
 * answer's model has listed prices.
 */
cost: number | null, 
/** What its answers took, every version included: thinking time, tokens, cost. */
totals: ConversationTotals, };

export type VersionFigures = { 
/** The version's first message (its id in the tree). */
id: string, provider: string | null, model: string | null, choice: Choice | null, 
/** How the last step ended. */
status: MessageStatus, 
/** Model steps (more than one when it called tools). */
steps: number, 
/** From the request to the first thought, text or call. */
firstTokenMs: number | null, thinkingMs: number | null, 
/** From the request to the last step's end. */
totalMs: number, usage: Usage, 
/** US dollars, where the model's prices are known. */
cost: number | null, };

export type VersionView = { figures: VersionFigures, messages: Array<MessageView>, };

export type UsageRow = { 
/** YYYY-MM-DD. */
day: string, provider: string, model: string, answers: number, usage: Usage, 
/** US dollars, where the model's prices are known. */
cost: number | null, };

export type ConversationTotals = { 
/** Assistant messages: answers, their versions and the steps of tool loops. */
answers: number, 
/** Time spent thinking, as measured while the thoughts streamed. */
thinkingMs: number, inputTokens: number, 
/** Output tokens, thinking included (as every provider counts them for billing). */
outputTokens: number, 
/** The part of the output that was thinking, where the provider reports it. */
thinkingTokens: number, 
/** US dollars, where any answer's model is priced. */
cost: number | null, };

export type SearchHit = { conversationId: string, conversationTitle: string, messageId: string, 
/** A short excerpt with the matches between `[` and `]`. */
snippet: string, 
/** The match was in the thoughts, not the visible text. */
inThoughts: boolean, };

export type PurgeReport = { messages: number, bytesFreed: number, };

export type Exported = { path: string | null, };

export type Imported = { conversations: number, messages: number, 
/** Of an export imported before: conversations with new messages, and those unchanged. */
updated: number, unchanged: number, 
/** Stopped by the user: what is above was imported and stays. */
cancelled: boolean, };

export type ImportProgress = { read: number, total: number, conversations: number, };

export type Format = "md" | "json" | "html";

export type ThoughtsMode = "details" | "section" | "omit";

export type About = { name: string, version: string, dataDir: string, databasePath: string, 
/** The day the embedded model list (its prices among its facts) was copied. */
modelsDated: string, };

export type ModelSource = "catalog" | "live" | "added";

export type RuleSource = "hand" | "derived" | "none";

export type PriceFigures = { input: number | null, output: number | null, cachedInput: number | null, reasoning: number | null, };

export type ModelView = { provider: string, providerName: string, id: string, name: string, contextWindow: number, maxOutput: number, 
/** budget, adaptive, effort, level, toggle, always or none. */
thinking: string, canDisable: boolean, 
/** Chat Completions and Responses can both serve it (the conversation may choose). */
apiChoice: boolean, 
/** full, summary or none. */
shows: string, 
/** The provider needs a key and none is stored. */
needsKey: boolean, 
/**
 * False when no source knows the id (no hand rule, nothing in the model list or the
 * provider's live list): it gets the provider's generic rule and the picker says
 * "thinking support unknown".
 */
known: boolean, 
/** Where its thinking rule comes from: a hand rule, derived from the model list, or none. */
rule: RuleSource, 
/** Where the id comes from. */
source: ModelSource, 
/** The day its newest snapshot came out (YYYY-MM-DD), where known. */
released: string | null, 
/**
 * The day the provider retired it (YYYY-MM-DD), once that day has come: the picker no
 * longer offers it, and a conversation that used it shows it with a warning.
 */
retired?: string | null, 
/** Only the choices this model supports, each with its meaning. */
levels: Array<LevelOption>, 
/** Its prices in the embedded model list, where listed (dollars per million tokens). */
listedPrice: PriceFigures | null, };

export type ProviderView = { id: string, name: string, 
/**
 * The wire protocol it speaks: settings that exist for one protocol (Anthropic's prompt
 * caching) show for every provider speaking it, custom ones included.
 */
protocol: Protocol, enabled: boolean, baseUrl: string, defaultBaseUrl: string, needsKey: boolean, hasKey: boolean, 
/** The environment variable that can hold the key instead of the keyring. */
keyEnv: string, 
/** A server the user added (it can be removed). */
custom: boolean, 
/** Signed in to instead of given a key: `github` (Copilot's device flow). */
signIn?: string | null, };

export type RefreshReport = { listed: { [key in string]?: number }, failed: { [key in string]?: string }, };

export type DeviceCodeView = { userCode: string, verificationUri: string, expiresInSecs: number, };

export type SignInEvent = { "type": "waiting", nextInSecs: number, } | { "type": "slowedDown", intervalSecs: number, } | { "type": "signedIn", provider: ProviderView, } | { "type": "failed", error: IpcError, };

export type TranslatePreview = { 
/** The feedback lines for the choice: a headline, then one indented line per detail. */
feedback: string, warnings: Array<string>, meaning: Meaning, 
/** Where the next turn goes. */
url: string, 
/** The whole body of the next turn's request, as `run_turn` will send it. */
request: Record<string, unknown>, 
/** Its headers, the key replaced by a placeholder. */
headers: { [key in string]?: string }, stream: boolean, api: Endpoint, 
/** The cap on the answer (thinking included) the request sends, if any. */
outputCap: number | null, 
/** The thinking budget it sends, where the model takes one. */
thinkingBudget: number | null, 
/** What the conversation costs in context once stripped (none for a new chat). */
contextTokens: TokenCount | null, };

export type ServerState = { "kind": "stopped" } | { "kind": "starting" } | { "kind": "connected", tools: Array<string>, } | { "kind": "failed", reason: string, stderr: Array<string>, };

export type ServerStatus = { id: string, state: ServerState, };

export type ToolInfo = { name: string, description: string, };

export type ServerTools = { id: string, name: string, tools: Array<ToolInfo>, error: string | null, };

export type Decision = "allowOnce" | "allowConversation" | "alwaysAllow" | "deny";

export type FileRef = { sha256: string, name: string, };

export type SendRequest = { conversationId: string | null, text: string, provider: string, model: string, 
/** The conversation's choice; saved on it. */
choice: Choice, 
/** A choice for this message only (the one-message override); not saved. */
once: Choice | null, 
/** Files given with the question, stored already (`pick_attachments`). */
files: Array<FileRef>, 
/** The user agreed that a PDF goes as its text to a model that reads no PDFs. */
pdfAsText: boolean, };

export type AttachedFile = { sha256: string, kind: AttachmentKind, name: string, bytes: number, 
/** A PDF's page count, where it could be read. */
pages: number | null, };

export type Picked = { files: Array<AttachedFile>, refused: Array<string>, };

export type RerunRequest = { 
/** The answer (or question) to answer again. */
messageId: string, provider: string, model: string, choice: Choice, shows: RerunShows, };

export type RerunShows = "new" | "current";

export type Sent = { runId: string, conversationId: string, };

export type StreamEvent = { "type": "started", runId: string, 
/** The stored question, which the UI shows under a local id until now. */
userMessageId: string, messageId: string, } | { "type": "plan", feedback: string, warnings: Array<string>, meaning: Meaning, 
/** The turn's note line: how the level was read, warnings and notes. */
notes: Array<string>, } | { "type": "notice", text: string, } | { "type": "retry", attempt: number, waitMs: number, message: string, } | { "type": "thinkingStart", source: ThoughtSource, } | { "type": "thinkingDelta", text: string, 
/**
 * When the first of these words reached Ponder, in ms since the Unix epoch: what
 * the time from a token's arrival to its paint is counted from.
 */
at: number, } | { "type": "thinkingEnd" } | { "type": "thinkingRedacted" } | { "type": "textDelta", text: string, 
/** As for `ThinkingDelta`. */
at: number, } | { "type": "toolCall", name: string, } | { "type": "usage", usage: Usage, } | { "type": "stepFinished", messageId: string, } | { "type": "toolStarted", callId: string, name: string, server: string | null, arguments: string, } | { "type": "toolFinished", result: PartView, } | { "type": "approvalNeeded", callId: string, server: string, tool: string, 
/** The arguments, pretty-printed JSON. */
arguments: string, } | { "type": "nextStep", toolMessageId: string, messageId: string, } | { "type": "done", message: MessageView, } | { "type": "error", error: IpcError, message: MessageView | null, } | { "type": "cancelled", message: MessageView, };

/** Every command the backend answers: its arguments, its result, and the events of a run. */
export interface Commands {
  app_info: { args: Record<string, never>; result: About };
  open_external: { args: { url: string }; result: null };
  load_image: { args: { url: string }; result: string };
  startup_problems: { args: Record<string, never>; result: Array<StartupProblem> };
  resolve_startup_problem: { args: { file: ProblemFile; remedy: Remedy }; result: Array<StartupProblem> };
  quit: { args: Record<string, never>; result: null };
  pick_attachments: { args: Record<string, never>; result: Picked };
  attach_bytes: { args: Uint8Array; result: Picked };
  send_message: { args: { request: SendRequest }; result: Sent; events: StreamEvent };
  regenerate: { args: { messageId: string }; result: Sent; events: StreamEvent };
  rerun: { args: { request: RerunRequest }; result: Sent; events: StreamEvent };
  edit_and_resend: { args: { messageId: string; text: string }; result: Sent; events: StreamEvent };
  cancel_run: { args: { runId: string }; result: null };
  list_conversations: { args: { includeArchived?: boolean | null; first?: number | null }; result: Array<ConversationSummary> };
  get_conversation: { args: { id: string; tail?: number | null }; result: ConversationView };
  earlier_messages: { args: { messageId: string }; result: Array<MessageView> };
  create_conversation: { args: { provider?: string | null; model?: string | null; settings?: ReasoningSettings | null }; result: ConversationView };
  rename_conversation: { args: { id: string; title: string }; result: null };
  delete_conversation: { args: { id: string }; result: null };
  pin_conversation: { args: { id: string; pinned: boolean }; result: null };
  set_thought_hidden: { args: { messageId: string; index: number; hidden: boolean }; result: MessageView };
  thought_text: { args: { messageId: string; index: number }; result: string };
  set_conversation_model: { args: { id: string; provider: string; model: string }; result: null };
  set_conversation_settings: { args: { id: string; settings: ReasoningSettings }; result: ConversationView };
  search: { args: { query: string; inThoughts?: boolean | null }; result: Array<SearchHit> };
  show_version: { args: { messageId: string }; result: ConversationView };
  usage_report: { args: { days: number }; result: Array<UsageRow> };
  compare_versions: { args: { messageId: string }; result: Array<VersionView> };
  delete_branch: { args: { messageId: string }; result: ConversationView };
  restore_branch: { args: { messageId: string }; result: ConversationView };
  copilot_sign_in: { args: Record<string, never>; result: DeviceCodeView; events: SignInEvent };
  copilot_cancel_sign_in: { args: Record<string, never>; result: null };
  export_conversation: { args: { id: string; format: Format; thoughts: ThoughtsMode; tools: boolean; everyVersion?: boolean | null }; result: Exported };
  import_file: { args: Record<string, never>; result: Imported | null; events: ImportProgress };
  cancel_import: { args: Record<string, never>; result: null };
  mcp_status: { args: Record<string, never>; result: Array<ServerStatus> };
  mcp_test: { args: { id: string }; result: Array<ToolInfo> };
  mcp_tools: { args: Record<string, never>; result: Array<ServerTools> };
  set_mcp_secret: { args: { serverId: string; name: string; value: string }; result: null };
  clear_mcp_secret: { args: { serverId: string; name: string }; result: null };
  answer_tool_call: { args: { runId: string; callId: string; decision: Decision }; result: null };
  list_models: { args: Record<string, never>; result: Array<ModelView> };
  budget_option: { args: { provider: string; model: string; tokens: number }; result: LevelOption | null };
  add_model: { args: { provider: string; id: string }; result: ModelView };
  refresh_models: { args: Record<string, never>; result: RefreshReport };
  translate_preview: { args: { provider: string; model: string; choice: Choice; settings: ReasoningSettings; conversationId?: string | null }; result: TranslatePreview };
  override_meanings: { args: { provider: string; model?: string | null; reasoning: unknown }; result: Array<string> };
  context_tokens: { args: { id: string; provider: string; model: string }; result: TokenCount };
  list_providers: { args: Record<string, never>; result: Array<ProviderView> };
  set_api_key: { args: { provider: string; key: string }; result: ProviderView };
  clear_api_key: { args: { provider: string }; result: ProviderView };
  add_custom_provider: { args: { name: string; baseUrl: string; protocol: Protocol; preset: string; needsKey: boolean }; result: ProviderView };
  remove_custom_provider: { args: { id: string }; result: null };
  keyring_status: { args: Record<string, never>; result: KeyringStatus };
  get_settings: { args: Record<string, never>; result: Settings };
  update_settings: { args: { patch: unknown }; result: Settings };
  set_theme: { args: { theme: Theme }; result: Settings };
  purge_thoughts: { args: { olderThanDays: number }; result: PurgeReport };
}
