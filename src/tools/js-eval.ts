/**
 * `js_eval`: upstream @langchain/quickjs's tool (deepagentsjs `createQuickJSMiddleware`) for the tab. The model
 * writes JavaScript; it runs in QuickJS (js-run.ts, loaded on first use) with `readFile`/`writeFile` over the
 * agent's backend and, as upstream's programmatic tool calling, the agent's other tools under `tools.<camelCase
 * name>`. Differences from upstream, and why: every call is a fresh context (no state survives between calls: a
 * run cannot leak into the next, and a checkpoint never has to hold interpreter state); no TypeScript stripping
 * (plain JavaScript); `fs.ls/glob` besides `readFile/writeFile`; tools that ask the person first (`interruptOn`)
 * are refused from code with an error saying to call them directly, so code never bypasses an approval.
 */
import type { LangGraphRunnableConfig } from "@langchain/langgraph/web";
import { isBackendError, type BackendError, type BackendProtocol } from "../backends/protocol.ts";
import { checkArgs } from "../harness/validate-args.ts";
import type { AgentMiddleware, AgentTool, StateUpdate, ToolOutput, ToolRuntime } from "../harness/types.ts";
import type { FilesystemPermission } from "../backends/permissions.ts";
import { permissionInterruptRules } from "../middleware/fs-interrupt.ts";
import type { InterruptOnConfig } from "../middleware/hitl.ts";
import type { HostFunction, JsRunResult } from "./js-run.ts";
import { TOOL } from "../core/tool-names.ts";

export const JS_EVAL_TOOL_NAME = TOOL.js_eval;

export interface JsEvalOptions {
  /** Seconds one call may run (default 30, upstream's). */
  timeoutSeconds?: number;
  /** Bytes QuickJS may allocate (default 50 MB, upstream's). */
  memoryLimitBytes?: number;
  /** Characters of console output returned (default 1,000,000, the shell's cap); larger results are offloaded by the harness. */
  maxOutputChars?: number;
  /** The agent's approvals: a tool (or file write) that asks first is refused from code. */
  interruptOn?: InterruptOnConfig;
  /** The agent's permission rules: the backend enforces `deny`; an `interrupt` rule's paths are refused from code. */
  permissions?: readonly FilesystemPermission[];
  /** The run's shared stop flag (js-run.ts `stopFlag`): Stop ends even a synchronous loop where memory can be shared. */
  stopFlag?: Int32Array | undefined;
}

export const JS_EVAL_DESCRIPTION = [
  "Evaluate JavaScript code in a sandboxed QuickJS interpreter (no network, no DOM, no timers, no require/import).",
  "Each call starts fresh: nothing survives to the next call. Use console.log() for output; the value of the last",
  "expression is returned too. Top-level `await` works (then `export default value` to return a value).",
  "Files: `await readFile(path)` → string, `await writeFile(path, content)`, `await fs.ls(path)`,",
  "`await fs.glob(pattern, path?)` → [{path, isDir, size}].",
  "The agent's other tools are async functions taking one object argument and resolving to the tool's text:",
  '`await tools.grep({ pattern: "TODO", glob: "*.ts" })` (names in camelCase or as listed; a failing tool throws).',
  "Use it to loop over many files or tool calls in one step.",
].join("\n");

function toCamelCase(name: string): string {
  return name.replace(/[-_]([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** upstream's formatReplResult: the logs, then `→ value`, or `Name: message` and the stack. */
export function formatJsResult(result: JsRunResult): string {
  const parts: string[] = [];
  if (result.logs.length > 0) {
    let logs = result.logs.join("\n");
    if (result.logsDroppedChars > 0) logs += `\n[truncated ${result.logsDroppedChars} chars]`;
    parts.push(logs);
  }
  if (result.ok && result.value !== undefined) {
    parts.push(`→ ${typeof result.value === "string" ? result.value : JSON.stringify(result.value, null, 2)}`);
  } else if (!result.ok && result.error) {
    parts.push(`${result.error.name}: ${result.error.message}`);
    if (result.error.stack) parts.push(result.error.stack);
  }
  return parts.join("\n") || "(no output)";
}

/** Whether a call of `name` with `args` would pause for the person (a rule's `when` decides path-aware rules). */
function asksFirst(interruptOn: InterruptOnConfig, name: string, args: Record<string, unknown>): boolean {
  const rule = interruptOn[name];
  if (rule === undefined || rule === false) return false;
  if (rule === true || !rule.when) return true;
  return rule.when({ name, args, id: "js_eval", type: "tool_call" });
}

/** The approvals code must respect: the agent's `interruptOn` and its `interrupt` permission rules, merged. */
function approvals(options: JsEvalOptions): InterruptOnConfig {
  const merged: InterruptOnConfig = { ...options.interruptOn };
  for (const [name, rule] of permissionInterruptRules(options.permissions ?? [])) {
    const own = merged[name];
    if (own === true) continue;
    merged[name] =
      own && typeof own === "object" && own.when
        ? { when: (call) => own.when!(call) || rule.when!(call) }
        : own && typeof own === "object"
          ? own
          : rule;
  }
  return merged;
}

function approvalError(name: string): Error {
  return new Error(`${name} asks the person before it runs, so it cannot be called from ${JS_EVAL_TOOL_NAME}; call ${name} directly.`);
}

function unwrap<T extends object>(outcome: T | BackendError): T {
  if (isBackendError(outcome)) throw new Error(outcome.message);
  return outcome;
}

function fileFunctions(backend: BackendProtocol, interruptOn: InterruptOnConfig) {
  const readFile: HostFunction = async (path) => {
    if (asksFirst(interruptOn, "read_file", { file_path: String(path) })) throw approvalError("read_file");
    // The file as it is (a trailing newline kept) where the backend can give its bytes; its lines otherwise.
    if (backend.downloadFiles) {
      const [file] = await backend.downloadFiles([String(path)]);
      if (file?.content) return new TextDecoder().decode(file.content);
      if (file?.error === "permission_denied") throw new Error(`Error: permission denied for ${String(path)}`);
    }
    const slice = unwrap(await backend.read(String(path), 0, Number.MAX_SAFE_INTEGER));
    return slice.lines.join("\n");
  };
  const writeFile: HostFunction = async (path, content) => {
    if (asksFirst(interruptOn, "write_file", { file_path: String(path), content: "" })) throw approvalError("write_file");
    unwrap(await backend.write(String(path), typeof content === "string" ? content : JSON.stringify(content)));
  };
  const ls: HostFunction = async (path) => {
    const dir = typeof path === "string" ? path : "/";
    if (asksFirst(interruptOn, "ls", { path: dir })) throw approvalError("ls");
    return unwrap(await backend.ls(dir));
  };
  const glob: HostFunction = async (pattern, path) => {
    const args = { pattern: String(pattern), ...(typeof path === "string" ? { path } : {}) };
    if (asksFirst(interruptOn, "glob", args)) throw approvalError("glob");
    return unwrap(await backend.glob(args.pattern, args.path));
  };
  return { readFile, writeFile, fs: { readFile, writeFile, ls, glob } };
}

function outputOf(output: ToolOutput): { text: string; error: boolean; update?: StateUpdate } {
  if (typeof output === "string") return { text: output, error: false };
  return { text: output.content, error: output.status === "error", ...(output.update ? { update: output.update } : {}) };
}

/** Merges a called tool's state update into the call's: files as a map, other fields last-write-wins; never messages. */
function mergeUpdate(into: StateUpdate, update: StateUpdate): void {
  for (const [key, value] of Object.entries(update)) {
    if (key === "messages") continue;
    const current = into[key];
    into[key] =
      key === "files" && typeof current === "object" && current !== null && typeof value === "object" && value !== null
        ? { ...current, ...value }
        : value;
  }
}

function toolFunctions(tools: readonly AgentTool[], runtime: ToolRuntime, interruptOn: InterruptOnConfig, update: StateUpdate) {
  const namespace: Record<string, HostFunction> = {};
  let n = 0;
  for (const tool of tools) {
    if (tool.name === JS_EVAL_TOOL_NAME) continue;
    const call: HostFunction = async (input) => {
      const checked = checkArgs(tool.schema, input ?? {});
      if (!checked.ok) throw new Error(`${tool.name}: ${checked.error}`);
      if (asksFirst(interruptOn, tool.name, checked.value)) throw approvalError(tool.name);
      const id = `${runtime.toolCall.id}-js${++n}`;
      const toolCall = { id, name: tool.name, args: checked.value, type: "tool_call" as const };
      const result = outputOf(
        await tool.run(checked.value, { ...runtime, toolCall, config: { ...runtime.config, toolCall } as LangGraphRunnableConfig }),
      );
      if (result.update) mergeUpdate(update, result.update);
      if (result.error) throw new Error(result.text);
      return result.text;
    };
    namespace[toCamelCase(tool.name)] = call;
    namespace[tool.name] = call;
  }
  return namespace;
}

/**
 * The `js_eval` tool and the middleware that gives it the agent's tools as the model sees them (after tool
 * exclusion and profiles), so code can call exactly what the model could. Approvals are read from `interruptOn`.
 */
export function jsEvalMiddleware(options: JsEvalOptions = {}): AgentMiddleware {
  let visible: readonly AgentTool[] = [];
  const tool: AgentTool = {
    name: JS_EVAL_TOOL_NAME,
    description: JS_EVAL_DESCRIPTION,
    schema: {
      type: "object",
      properties: { code: { type: "string", description: "JavaScript code to evaluate in the sandboxed interpreter" } },
      required: ["code"],
      additionalProperties: false,
    },
    async run(args, runtime): Promise<ToolOutput> {
      const { runJs, DEFAULT_JS_TIMEOUT_MS, DEFAULT_MEMORY_LIMIT_BYTES } = await import("./js-run.ts");
      const update: StateUpdate = {};
      const asks = approvals(options);
      const result = await runJs(String(args.code), {
        timeoutMs: options.timeoutSeconds ? options.timeoutSeconds * 1000 : DEFAULT_JS_TIMEOUT_MS,
        memoryLimitBytes: options.memoryLimitBytes ?? DEFAULT_MEMORY_LIMIT_BYTES,
        maxOutputChars: options.maxOutputChars ?? 1_000_000,
        signal: runtime.config.signal,
        stopFlag: options.stopFlag,
        globals: {
          ...fileFunctions(runtime.backend, asks),
          tools: toolFunctions(visible, runtime, asks, update),
        },
      });
      if (result.stopped === "aborted") throw new DOMException("The run was stopped.", "AbortError");
      const content = formatJsResult(result);
      const status = result.ok ? "success" : "error";
      return Object.keys(update).length > 0 ? { content, status, update } : { content, status };
    },
  };
  return {
    name: "JsEvalMiddleware",
    tools: [tool],
    wrapModelCall(request, next) {
      visible = request.tools;
      return next(request);
    },
  };
}
