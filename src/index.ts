/**
 * deeptab: the browser-safe library entry. Everything here runs in a Web
 * Worker or a page; nothing imports Node built-ins.
 */
export { createDeepAgent, collectTools, type CreateDeepAgentOptions, type DeepAgent } from "./harness/create-deep-agent.ts";
export { buildAgentLoop, pendingToolCalls, lastAIMessage, type LoopSpec } from "./harness/loop.ts";
export { assembleStack, type BuiltinSlot } from "./harness/stack.ts";
export { fromLangChainTool, isAgentTool } from "./harness/langchain-tools.ts";
export { HarnessError, toErrorInfo, type ErrorInfo, type HarnessErrorCode } from "./harness/errors.ts";
export * from "./harness/types.ts";
export * from "./backends/protocol.ts";
export { StateBackend, filesReducer } from "./backends/state.ts";
export { createBackendRuntime, resolveBackend, type BackendFactory, type BackendOption, type BackendRuntime } from "./backends/runtime.ts";
export { normalizePath } from "./backends/paths.ts";
export { filesystemMiddleware, FILESYSTEM, type FilesystemMiddlewareOptions } from "./middleware/filesystem.ts";
export { filesystemTools, TOOLS_EXCLUDED_FROM_EVICTION } from "./middleware/fs-tools.ts";
export { patchToolCallsMiddleware, patchDanglingToolCalls, PATCH_TOOL_CALLS } from "./middleware/patch-tool-calls.ts";
export { evictLargeResult, LARGE_RESULTS_DIR, TOOL_RESULT_TOKEN_LIMIT } from "./middleware/eviction.ts";
export { IndexedDBSaver } from "./storage/indexeddb-saver.ts";
export { StorageError, type StorageErrorCode } from "./storage/errors.ts";
export { CompositeBackend, compositeBackend } from "./backends/composite.ts";
export { StoreBackend } from "./backends/store.ts";
export { PermissionedBackend, withPermissions, type FilesystemPermission } from "./backends/permissions.ts";
export { summarizationMiddleware, SUMMARIZATION, type SummarizationOptions } from "./middleware/summarization.ts";
export { hitlMiddleware, HITL, type Decision, type HITLRequest, type HITLResponse, type InterruptOnConfig } from "./middleware/hitl.ts";
export { subagentMiddleware, SUBAGENTS, GENERAL_PURPOSE } from "./middleware/subagents.ts";
export { promptCachingMiddleware, PROMPT_CACHING } from "./middleware/prompt-caching.ts";
export { interruptWithConfig } from "./harness/interrupt.ts";
export type { SubAgent } from "./harness/create-deep-agent.ts";
