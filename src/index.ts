/**
 * deeptab: the browser-safe library entry. Everything here runs in a Web
 * Worker or a page; nothing imports Node built-ins. This file names the
 * stable API; anything not exported here is internal and may change.
 */

// The agent.
export {
  createDeepAgent,
  type CreateDeepAgentOptions,
  type DeepAgent,
  type ForkedSubAgent,
  type SubAgent,
} from "./agent/create-deep-agent.ts";
export {
  asyncSubagentMiddleware,
  isAsyncSubAgent,
  ASYNC_TASK_TOOL_NAMES,
  type AsyncSubAgent,
  type AsyncSubagentMiddlewareOptions,
  type AsyncTask,
  type AsyncTaskStatus,
} from "./middleware/async-subagents.ts";

// Agents defined in files (a folder, a zip or a JSON bundle).
export { loadAgent, agentFromFiles, AGENT_SKILLS_DIR, type AgentSource } from "./agent-folders/load.ts";
export {
  agentOptions,
  agentSeedFiles,
  mergeInterruptOn,
  type AgentFolderOptions,
  type AgentOptionsContext,
} from "./agent-folders/options.ts";
export type {
  AgentDefinition,
  AgentManifest,
  DemoDefinition,
  AgentInterruptRule,
  AgentSandbox,
  AgentToolSelection,
  McpServerSpec,
  ModelRef,
  SkillDefinition,
  SubagentDefinition,
} from "./agent-folders/definition.ts";
export type { SandboxKind } from "./agent/sandbox-kinds.ts";
export type { Inbox } from "./harness/loop.ts";
export { readAgentFiles, type AgentFileInput, type AgentFiles } from "./agent-folders/file-map.ts";
export { isAgentFolderError, type AgentFolderError, type AgentProblem, type AgentProblemCode } from "./agent-folders/problems.ts";
export { zipAgent, unzipAgent } from "./agent-folders/zip.ts";
export { agentBundle, parseAgentBundle, type AgentBundle, type AgentBundleFile } from "./agent-folders/bundle.ts";
export { hashAgentFiles } from "./agent-folders/hash.ts";
export { agentHosts, type AgentHost } from "./agent-folders/hosts.ts";

// Writing tools and middleware.
export {
  ToolError,
  type AgentMiddleware,
  type AgentState,
  type AgentTool,
  type JsonSchema,
  type ModelHandler,
  type ModelRequest,
  type ModelResponse,
  type StateField,
  type StateUpdate,
  type ToolCallRequest,
  type ToolCallResult,
  type ToolHandler,
  type ToolOutput,
  type ToolRuntime,
} from "./harness/types.ts";
export { defineStateField, stateSchema, type StateKey } from "./harness/state.ts";
export { type ToolImage } from "./core/tool-images.ts";
export { TOOL_IMAGE_TYPES } from "./core/tool-image-check.ts";
export { fromLangChainTool } from "./harness/langchain-tools.ts";

// Tools of remote MCP servers (Streamable HTTP, or the older HTTP+SSE), for createDeepAgent({ tools }).
export {
  connectMcpServer,
  mcpInterruptOn,
  MAX_MCP_DESCRIPTION,
  type ConnectMcpOptions,
  type McpAgentTool,
  type McpConnection,
  type McpSkippedTool,
  type McpToolInfo,
} from "./tools/mcp-tools.ts";
export { DEFAULT_MCP_TIMEOUT_MS, type McpServerOptions } from "./tools/mcp-client.ts";
export { MCP_REQUEST_HEADERS, type McpError, type McpErrorCode } from "./tools/mcp-errors.ts";
export { MAX_TOOL_NAME, mcpToolName } from "./tools/mcp-names.ts";
export {
  createFetchUrlTool,
  FETCH_URL_DESCRIPTION,
  FETCH_URL_TIMEOUT,
  FETCH_URL_TOOL_NAME,
  type FetchUrlToolOptions,
} from "./tools/fetch-url.ts";
export { serverToolsOf, withServerTools, type ServerToolDefinition } from "./harness/bind-tools.ts";
export { webSearchBlocks, type CitationInfo, type WebSearchInfo } from "./core/web-search-blocks.ts";
export { WEB_SEARCH_TOOL, withMcpWebSearch } from "./tools/web-search-mcp.ts";
export { formatJsResult, JS_EVAL_DESCRIPTION, JS_EVAL_TOOL_NAME, jsEvalMiddleware, type JsEvalOptions } from "./tools/js-eval.ts";
export {
  fetchPage,
  MAX_PAGE_BYTES,
  MAX_REDIRECTS,
  type FetchedPage,
  type FetchPageError,
  type FetchPageErrorCode,
  type FetchPageOptions,
} from "./tools/fetch-page.ts";

// Built-in middleware, by name (to replace one in place or exclude it) and their options.
export { FILESYSTEM } from "./middleware/filesystem.ts";
export { SUBAGENTS, GENERAL_PURPOSE } from "./middleware/subagents.ts";
export { SUMMARIZATION, type ContextSize, type SummarizationOptions } from "./middleware/summarization.ts";
export { PATCH_TOOL_CALLS } from "./middleware/patch-tool-calls.ts";
export { PROMPT_CACHING } from "./middleware/prompt-caching.ts";
export { TOOL_IMAGES } from "./middleware/tool-images.ts";
export { SKILLS, skillsMetadataValue, type SkillMetadata } from "./middleware/skills.ts";
export { MEMORY } from "./middleware/memory.ts";
export { TODO_LIST, type Todo, type TodoStatus } from "./middleware/todos.ts";
export {
  HITL,
  type ActionRequest,
  type Decision,
  type DecisionType,
  type HITLRequest,
  type HITLResponse,
  type InterruptOnConfig,
  type InterruptRule,
  type ReviewConfig,
} from "./middleware/hitl.ts";
export { LARGE_RESULTS_DIR, TOOL_RESULT_TOKEN_LIMIT } from "./middleware/eviction.ts";

// The rubric loop (opt-in): grade the answer against a rubric before the agent finishes.
export {
  rubricMiddleware,
  RUBRIC,
  RUBRIC_START_EVENT,
  RUBRIC_END_EVENT,
  GRADER_SYSTEM_PROMPT,
  RUBRIC_GRADER_SOURCE,
  isGraderFeedback,
  type RubricOptions,
  type RubricEvaluation,
  type RubricResult,
  type CriterionEval,
  type GraderResponse,
} from "./middleware/rubric.ts";

// Backends: where files live (and, for a sandbox, where commands run).
export {
  backendError,
  canExecute,
  isBackendError,
  type BackendError,
  type BackendErrorCode,
  type BackendProtocol,
  type DeleteOptions,
  type DownloadOutcome,
  type EditOutcome,
  type ExecuteOptions,
  type ExecuteResult,
  type FileData,
  type FileInfo,
  type FilesUpdate,
  type GrepMatch,
  type Outcome,
  type ReadResult,
  type ReadSlice,
  type SandboxBackendProtocol,
  type UploadOutcome,
} from "./backends/protocol.ts";
export type { BackendFactory, BackendOption, BackendRuntime, CallIdentity } from "./backends/runtime.ts";
export { normalizePath } from "./backends/paths.ts";
export { FileBackend } from "./backends/file-backend.ts";
export type { FileSnapshot, FileStore, FileTx, MutateOptions, StoredFile } from "./backends/file-store.ts";
export { StateBackend } from "./backends/state.ts";
export { StoreBackend } from "./backends/store.ts";
export { CompositeBackend, compositeBackend } from "./backends/composite.ts";
export {
  IndexedDBBackend,
  IndexedDBFiles,
  indexedDBBackend,
  type IndexedDBBackendFactory,
  type IndexedDBBackendOptions,
} from "./backends/indexeddb.ts";
export type { IndexedDBFilesOptions } from "./backends/indexeddb-files.ts";
export type { FilesystemPermission, PermissionMode, PermissionOperation } from "./backends/permissions.ts";
export { MemoryFileStore, type ByteCap } from "./backends/memory-store.ts";

// Sandboxes: a shell over the backend's own files, offline everywhere; WebContainer where it boots.
export {
  ShellBackend,
  DEFAULT_EXECUTE_TIMEOUT,
  DEFAULT_MAX_EXECUTE_TIMEOUT,
  DEFAULT_MAX_OUTPUT_BYTES,
  type ShellBackendOptions,
} from "./backends/sandbox/shell.ts";
export { newShellSession, type ShellSession, type ShellSessionOptions } from "./backends/sandbox/shell-session.ts";
export { DEFAULT_MAX_SCRATCH_BYTES } from "./backends/sandbox/scratch-store.ts";
export { PythonPackages, PYODIDE_CDN, type PackageDelivery, type PackageRequest } from "./backends/sandbox/python-packages.ts";
export {
  ShellThreads,
  defaultShellThreads,
  workerShellThread,
  type ShellThread,
  type ShellThreadFactory,
} from "./backends/sandbox/shell-thread.ts";
export { MAX_FILE_WRITE_BYTES } from "./backends/file-ops.ts";
export {
  WebContainerBackend,
  REBUILDABLE_DIRS,
  type ContainerFile,
  type ContainerHost,
  type ContainerRun,
  type WebContainerBackendOptions,
} from "./backends/sandbox/container.ts";

// Persistence in IndexedDB.
export { IndexedDBSaver, type IndexedDBSaverOptions, type OpenResult, type SaverStats } from "./storage/indexeddb-saver.ts";
export { IndexedDBStore, type IndexedDBStoreOptions } from "./storage/indexeddb-store.ts";

// Models.
export {
  ScriptedChatModel,
  type RecordedCall,
  type Script,
  type ScriptContext,
  type ScriptedChatModelParams,
  type ScriptedError,
  type ScriptedToolCall,
  type ScriptedTurn,
} from "./models/scripted.ts";
// Recorded demos: record a run's model replies, keep them as a file, replay them while the tools run for real.
export {
  DEMO_FORMAT,
  DEMOS_DIR,
  serializeDemo,
  summarizeDemo,
  type Demo,
  type DemoCall,
  type DemoRequestPart,
  type DemoSummary,
  type DemoToolCall,
} from "./models/replay/format.ts";
export { parseDemo, type DemoProblems } from "./models/replay/parse.ts";
export { maskVolatile } from "./models/replay/match.ts";
export { DemoRecorder, demoOf, type DemoInfo } from "./models/replay/recorder.ts";
export { DemoDivergedError, ReplayChatModel, type ReplayChatModelParams } from "./models/replay/replay-chat-model.ts";
export {
  ChatWllama,
  type ChatWllamaCallOptions,
  type ChatWllamaFields,
  type ServerExtras,
  type ToolChoice,
  type WllamaEngine,
} from "./models/wllama/chat-wllama.ts";
export { loadWllamaModel, wllamaEngine, DEFAULT_CONTEXT, type LoadedModel } from "./models/wllama/engine.ts";
export { wllamaSupport, type WasmFeatures, type WllamaSupport } from "./models/wllama/support.ts";
export {
  ModelStore,
  MAX_FILE_BYTES,
  shardUrls,
  modelIdFor,
  type CachedModel,
  type DownloadError,
  type DownloadErrorCode,
  type DownloadProgress,
  type ModelSource,
  type ModelStoreOptions,
} from "./models/wllama/model-store.ts";
export {
  ChatChromeAI,
  promptApiAvailability,
  type ChatChromeAICallOptions,
  type ChatChromeAIFields,
  type PromptApiAvailability,
  type PromptMessage,
  type PromptApiPort,
  type PromptRequest,
} from "./models/chrome-ai.ts";
export {
  providerRetryMiddleware,
  classifyProviderError,
  type ClassifiedError,
  type ProviderFailure,
  PROVIDER_RETRY,
  RETRY_EVENT,
  type RetryOptions,
} from "./middleware/provider-retry.ts";
export { describeProviderFailure } from "./middleware/provider-failure.ts";

// Context sizing for small windows.
export { resultTokenBudget, toolProfileFor, COMPACT_PROFILE_BELOW, type ToolProfile } from "./context/budget.ts";

// Harness profiles (deepagentsjs): prompt additions, tool texts and exclusions by provider and model.
export type { ReadFormat } from "./middleware/fs-read-header.ts";
export {
  applyProfilePrompt,
  COMPACT_PROFILE,
  createHarnessProfile,
  EMPTY_HARNESS_PROFILE,
  getHarnessProfile,
  harnessProfileConfigSchema,
  harnessProfileKeys,
  hasHarnessProfile,
  hasUserRegisteredProfiles,
  isHarnessProfile,
  mergeProfiles,
  parseHarnessProfileConfig,
  registerHarnessProfile,
  resolveHarnessProfile,
  serializeProfile,
  validateProfileKey,
  type GeneralPurposeSubagentConfig,
  type HarnessProfile,
  type HarnessProfileConfigData,
  type HarnessProfileOptions,
  type ResolveHarnessProfileOpts,
} from "./agent/profiles/index.ts";

// Errors and results.
export { DeeptabError, toErrorInfo, type ErrorInfo } from "./core/errors.ts";
export { KEY_HIDDEN, redactSecrets } from "./core/redact.ts";
export { err, fail, ok, type Err, type Ok, type Result } from "./core/result.ts";
export { HarnessError, type HarnessErrorCode } from "./harness/errors.ts";
export { StorageError, type StorageErrorCode } from "./storage/errors.ts";
