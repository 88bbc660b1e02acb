/**
 * FilesystemMiddleware: the file tools over the configured backend.
 *
 * - Tools: ls, read_file, write_file, edit_file, delete, glob, grep, and
 *   execute. A tool the backend cannot serve (execute without a sandbox,
 *   delete without `delete`) is not shown to the model.
 * - Same-path guard: when one AI message mutates a path twice, the second
 *   call is rejected with an error result (parallel calls would race).
 * - Eviction: results over 20,000 tokens go to /large_tool_results/<id>.
 */
import { canExecute, type BackendProtocol } from "../backends/protocol.ts";
import { normalizePath } from "../backends/paths.ts";
import { createBackendRuntime, resolveBackend, type BackendOption } from "../backends/runtime.ts";
import { errorToolMessage } from "../harness/execute-tool.ts";
import type { AgentMiddleware, AgentTool, ToolCallRequest } from "../harness/types.ts";
import { evictLargeResult } from "./eviction.ts";
import { evictLargeHumanMessage, shortenEvictedHumanMessages } from "./human-eviction.ts";
import { resultCharBudget, resultTokenBudget, type ToolProfile } from "../context/budget.ts";
import { CHANGING_TOOLS, SELF_CAPPED_TOOLS } from "../core/tool-names.ts";
import { createFilesystemTools } from "./fs-tools.ts";
import type { ReadFormat } from "./fs-read-header.ts";

export const FILESYSTEM = "FilesystemMiddleware";

export interface FilesystemMiddlewareOptions {
  backend: BackendOption;
  now: () => string;
  /** Token limit above which a tool result is evicted; `false` disables eviction. Default: the window's result budget. */
  toolTokenLimitBeforeEvict?: number | false;
  /** The model's context window (max input tokens), when known: results and listings stay within its budget. */
  window?: number | undefined;
  /** Tool texts: deepagents' ("default") or short ones for small windows ("compact"). */
  profile?: ToolProfile;
  /** How read_file shows a file: numbered lines (default) or deepagentsjs 1.13.5's `@@ lines A-B of T @@` header. */
  readFormat?: ReadFormat;
  /** Token limit above which a user message is saved and shortened in requests; `false` disables it. */
  humanMessageTokenLimitBeforeEvict?: number | false;
}

/** Tools this backend can serve. */
function visibleFileTools(backend: BackendProtocol, tools: readonly AgentTool[]): AgentTool[] {
  return tools.filter((t) => {
    if (t.name === "execute") return canExecute(backend);
    if (t.name === "delete") return typeof backend.delete === "function";
    return true;
  });
}

function mutatedPath(call: { name: string; args: Record<string, unknown> }): string | undefined {
  if (!CHANGING_TOOLS.has(call.name)) return undefined;
  const raw = call.args.file_path;
  if (typeof raw !== "string") return undefined;
  const norm = normalizePath(raw);
  return typeof norm === "string" ? norm : undefined;
}

/** Per AI message (its list of calls): the position of each call id and of the first call mutating each path. */
const mutationIndex = new WeakMap<ToolCallRequest["siblings"], { at: Map<string, number>; first: Map<string, number> }>();

function indexMutations(siblings: ToolCallRequest["siblings"]) {
  let index = mutationIndex.get(siblings);
  if (!index) {
    index = { at: new Map(), first: new Map() };
    siblings.forEach((sibling, i) => {
      if (!index!.at.has(sibling.id)) index!.at.set(sibling.id, i);
      const path = mutatedPath(sibling);
      if (path && !index!.first.has(path)) index!.first.set(path, i);
    });
    mutationIndex.set(siblings, index);
  }
  return index;
}

/**
 * The error for a second mutation of one path in one AI message, if this
 * call is one: an earlier call of the message mutates the same path. The
 * message's calls are indexed once, so a message with thousands of calls
 * stays linear.
 */
function parallelMutationError(request: ToolCallRequest): string | undefined {
  const path = mutatedPath(request.toolCall);
  if (!path) return undefined;
  const { at, first } = indexMutations(request.siblings);
  const earlier = first.get(path);
  if (earlier === undefined || earlier >= (at.get(request.toolCall.id) ?? request.siblings.length)) return undefined;
  const sibling = request.siblings[earlier]!;
  return (
    `Error: ${request.toolCall.name} on '${path}' was rejected: ` +
    `another call in the same message (${sibling.name}, id ${sibling.id}) already modifies this file. ` +
    "Make one change per file per message, or combine the changes."
  );
}

export function filesystemMiddleware(options: FilesystemMiddlewareOptions): AgentMiddleware {
  const tools = createFilesystemTools({
    outputChars: resultCharBudget(options.window),
    profile: options.profile ?? "default",
    ...(options.readFormat ? { readFormat: options.readFormat } : {}),
  });
  const builtinNames = new Set(tools.map((t) => t.name));
  const limit = options.toolTokenLimitBeforeEvict ?? resultTokenBudget(options.window);
  /** Per tool list and per backend capability, the visible list (the same array on every call, so bindings are reused). */
  const visibleLists = new WeakMap<readonly AgentTool[], Map<string, readonly AgentTool[]>>();
  const visibleTools = (all: readonly AgentTool[], backend: BackendProtocol): readonly AgentTool[] => {
    const capability = `${canExecute(backend)}/${typeof backend.delete === "function"}`;
    let byCapability = visibleLists.get(all);
    if (!byCapability) visibleLists.set(all, (byCapability = new Map()));
    let visible = byCapability.get(capability);
    if (!visible) {
      const hide = tools.filter((t) => !visibleFileTools(backend, [t]).length).map((t) => t.name);
      visible = hide.length ? all.filter((t) => !(builtinNames.has(t.name) && hide.includes(t.name))) : all;
      byCapability.set(capability, visible);
    }
    return visible;
  };
  return {
    name: FILESYSTEM,
    tools,
    async beforeAgent(state, config) {
      const humanLimit = options.humanMessageTokenLimitBeforeEvict;
      if (humanLimit === false) return undefined;
      const runtime = createBackendRuntime(state.files, config, options.now);
      const tagged = await evictLargeHumanMessage(state.messages, resolveBackend(options.backend, runtime), humanLimit);
      if (!tagged) return undefined;
      return Object.keys(runtime.pendingFiles).length ? { messages: [tagged], files: runtime.pendingFiles } : { messages: [tagged] };
    },
    async wrapModelCall(request, next) {
      const backend = resolveBackend(options.backend, createBackendRuntime(request.state.files, request.config, options.now));
      const messages = shortenEvictedHumanMessages(request.messages);
      const visible = visibleTools(request.tools, backend);
      if (messages === request.messages && visible === request.tools) return next(request);
      return next({ ...request, messages, tools: visible });
    },
    async wrapToolCall(request, next) {
      const conflict = parallelMutationError(request);
      if (conflict) return { message: errorToolMessage(request.toolCall.id, request.toolCall.name, conflict) };
      const result = await next(request);
      if (limit === false || SELF_CAPPED_TOOLS.has(request.toolCall.name)) return result;
      return evictLargeResult(result, request.runtime.backend, limit);
    },
  };
}
