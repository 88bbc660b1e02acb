/**
 * Type tests of the public API (src/index.ts): what createDeepAgent takes and gives, the backends, the middleware
 * contract, approvals' decisions, results and errors. `tsc` (in `npm run check`) checks them, the
 * `@ts-expect-error` lines included (each must stay an error); vitest runs the file as a plain test.
 */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { AIMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import type { BaseCheckpointSaver, BaseStore } from "@langchain/langgraph-checkpoint";
import { describe, expect, expectTypeOf, it } from "vitest";
import { z } from "zod";
import type {
  ChatChromeAI,
  ChatWllama,
  CompositeBackend,
  DeeptabError,
  FileBackend,
  HarnessError,
  IndexedDBBackend,
  IndexedDBSaver,
  IndexedDBStore,
  StateBackend,
  StoreBackend,
  ToolError,
  WebContainerBackend,
} from "./index.ts";
import {
  canExecute,
  createDeepAgent,
  createHarnessProfile,
  parseHarnessProfileConfig,
  resolveHarnessProfile,
  serializeProfile,
  type HarnessProfile,
  type HarnessProfileConfigData,
  type HarnessProfileOptions,
  defineStateField,
  err,
  fail,
  fromLangChainTool,
  isBackendError,
  ok,
  rubricMiddleware,
  ScriptedChatModel,
  ShellBackend,
  stateSchema,
  toErrorInfo,
  type AgentMiddleware,
  type AgentTool,
  type BackendError,
  type BackendFactory,
  type BackendOption,
  type BackendProtocol,
  type CreateDeepAgentOptions,
  type Decision,
  type DecisionType,
  type DeepAgent,
  type ErrorInfo,
  type FileInfo,
  type HITLRequest,
  type HITLResponse,
  type InterruptOnConfig,
  type ModelHandler,
  type ModelRequest,
  type ModelResponse,
  type Outcome,
  type Result,
  type RubricEvaluation,
  type RubricResult,
  type SandboxBackendProtocol,
  type StateKey,
  type ForkedSubAgent,
  type AsyncSubAgent,
  type SubAgent,
  type ToolCallRequest,
  type ToolCallResult,
  type ToolHandler,
  type ToolOutput,
  type ToolImage,
  type ToolRuntime,
} from "./index.ts";

const model = new ScriptedChatModel({ script: [{ text: "ok" }] });

describe("the public API's types", () => {
  it("createDeepAgent takes CreateDeepAgentOptions (a model at least) and gives a LangGraph graph", () => {
    expectTypeOf(createDeepAgent).parameter(0).toEqualTypeOf<CreateDeepAgentOptions>();
    expectTypeOf(createDeepAgent).returns.toEqualTypeOf<DeepAgent>();
    expectTypeOf<CreateDeepAgentOptions["model"]>().toEqualTypeOf<BaseChatModel>();
    // @ts-expect-error: the model is required
    expectTypeOf({ systemPrompt: "x" }).toExtend<CreateDeepAgentOptions>();
    expectTypeOf<DeepAgent>().toHaveProperty("invoke");
    expectTypeOf<DeepAgent>().toHaveProperty("stream");
    expectTypeOf<DeepAgent>().toHaveProperty("getState");
    expectTypeOf<CreateDeepAgentOptions["checkpointer"]>().toEqualTypeOf<BaseCheckpointSaver | undefined>();
    expectTypeOf<CreateDeepAgentOptions["store"]>().toEqualTypeOf<BaseStore | undefined>();
    expectTypeOf<CreateDeepAgentOptions["subagents"]>().toEqualTypeOf<readonly (SubAgent | ForkedSubAgent | AsyncSubAgent)[] | undefined>();
    expectTypeOf<CreateDeepAgentOptions["middleware"]>().toEqualTypeOf<readonly AgentMiddleware[] | undefined>();
    expectTypeOf<CreateDeepAgentOptions["interruptOn"]>().toEqualTypeOf<InterruptOnConfig | undefined>();
    expectTypeOf<CreateDeepAgentOptions["backend"]>().toEqualTypeOf<BackendOption | undefined>();
  });

  it("tools are AgentTools or LangChain tools; a subagent needs a name, description and prompt", () => {
    const echo: AgentTool = {
      name: "echo",
      description: "Echoes.",
      schema: { type: "object", properties: { text: { type: "string" } } },
      run: async (args, runtime) => {
        expectTypeOf(runtime).toEqualTypeOf<ToolRuntime>();
        expectTypeOf(runtime.backend).toEqualTypeOf<BackendProtocol>();
        return String(args.text);
      },
    };
    const shout = tool(async ({ text }) => text.toUpperCase(), {
      name: "shout",
      description: "Shouts.",
      schema: z.object({ text: z.string() }),
    });
    expectTypeOf({ model, tools: [echo, shout] }).toExtend<CreateDeepAgentOptions>();
    expectTypeOf(fromLangChainTool).returns.toEqualTypeOf<AgentTool>();
    expectTypeOf<ToolOutput>().toEqualTypeOf<
      string | { content: string; status?: "success" | "error"; update?: Record<string, unknown>; images?: readonly ToolImage[] }
    >();
    expectTypeOf({ name: "critic", description: "Critiques.", systemPrompt: "Be harsh." }).toExtend<SubAgent>();
    // @ts-expect-error: a subagent without a description
    expectTypeOf({ name: "critic", systemPrompt: "Be harsh." }).toExtend<SubAgent>();
    expectTypeOf({ name: "fork", description: "Goes on.", mode: "fork" as const }).toExtend<ForkedSubAgent>();
    // A fork's own prompt is appended to the parent's (deepagentsjs 1.14); `"isolated"` is the default mode's name.
    expectTypeOf({ name: "fork", description: "Goes on.", mode: "fork" as const, systemPrompt: "x" }).toExtend<ForkedSubAgent>();
    expectTypeOf({ name: "critic", description: "Critiques.", systemPrompt: "Be harsh.", mode: "isolated" as const }).toExtend<SubAgent>();
    // @ts-expect-error: a fork names no skills (it inherits the parent's)
    expectTypeOf({ name: "fork", description: "Goes on.", mode: "fork" as const, skills: ["/skills/"] }).toExtend<ForkedSubAgent>();
    // @ts-expect-error: a fork says so (without the mode it would be a plain subagent without a prompt)
    expectTypeOf({ name: "fork", description: "Goes on." }).toExtend<ForkedSubAgent>();
  });

  it("backends: every file backend is a BackendProtocol, a shell is a sandbox, and canExecute narrows", () => {
    expectTypeOf<FileBackend>().toExtend<BackendProtocol>();
    expectTypeOf<StateBackend>().toExtend<BackendProtocol>();
    expectTypeOf<StoreBackend>().toExtend<BackendProtocol>();
    expectTypeOf<IndexedDBBackend>().toExtend<BackendProtocol>();
    expectTypeOf<CompositeBackend>().toExtend<BackendProtocol>();
    expectTypeOf<ShellBackend>().toExtend<SandboxBackendProtocol>();
    expectTypeOf<WebContainerBackend>().toExtend<SandboxBackendProtocol>();
    // @ts-expect-error: a state backend runs no commands
    expectTypeOf<StateBackend>().toExtend<SandboxBackendProtocol>();
    expectTypeOf<BackendOption>().toEqualTypeOf<BackendProtocol | BackendFactory>();
    expectTypeOf<BackendProtocol["ls"]>().returns.toEqualTypeOf<Promise<Outcome<FileInfo[]>>>();
    expectTypeOf<Outcome<FileInfo[]>>().toEqualTypeOf<FileInfo[] | BackendError>();

    const backend: BackendProtocol = new ShellBackend();
    if (canExecute(backend)) expectTypeOf(backend.execute).toBeFunction();
    // @ts-expect-error: without canExecute, a backend has no execute
    expectTypeOf(backend.execute).toBeFunction();
    const outcome = {} as Outcome<FileInfo[]>;
    if (!isBackendError(outcome)) expectTypeOf(outcome).toEqualTypeOf<FileInfo[]>();
    expect(canExecute(backend)).toBe(true);
  });

  it("the middleware contract: wrapModelCall and wrapToolCall wrap a handler; state fields are typed by their key", () => {
    const COUNT = defineStateField<number>("count", { default: () => 0, reducer: (a, b) => a + b });
    expectTypeOf(COUNT).toEqualTypeOf<StateKey<number, number>>();
    const counting = {
      name: "Counting",
      stateSchema: stateSchema(COUNT),
      async wrapModelCall(request, next) {
        expectTypeOf(request).toEqualTypeOf<ModelRequest>();
        expectTypeOf(next).toEqualTypeOf<ModelHandler>();
        const response = await next(request);
        expectTypeOf(response.message).toEqualTypeOf<AIMessage>();
        return { ...response, update: COUNT.set(1) };
      },
      async wrapToolCall(request, next) {
        expectTypeOf(request).toEqualTypeOf<ToolCallRequest>();
        expectTypeOf(next).toEqualTypeOf<ToolHandler>();
        expectTypeOf(request.toolCall.id).toEqualTypeOf<string>();
        const result = await next(request);
        expectTypeOf(result.message).toEqualTypeOf<ToolMessage>();
        return result;
      },
      beforeAgent: (state) => {
        expectTypeOf(COUNT.get(state)).toEqualTypeOf<number>();
      },
    } satisfies AgentMiddleware;
    expectTypeOf<ReturnType<ModelHandler>>().toEqualTypeOf<Promise<ModelResponse>>();
    expectTypeOf<ReturnType<ToolHandler>>().toEqualTypeOf<Promise<ToolCallResult>>();
    // @ts-expect-error: a middleware has a name
    expectTypeOf({ wrapModelCall: counting.wrapModelCall }).toExtend<AgentMiddleware>();
    expect(counting.name).toBe("Counting");
  });

  it("the rubric loop is a middleware; its evaluations say which verdict ended a round", () => {
    expectTypeOf(rubricMiddleware).parameter(0).toHaveProperty("model");
    expectTypeOf(rubricMiddleware).returns.toEqualTypeOf<AgentMiddleware>();
    expectTypeOf<RubricEvaluation["result"]>().toEqualTypeOf<RubricResult>();
    expectTypeOf<RubricResult>().toEqualTypeOf<"satisfied" | "needs_revision" | "failed" | "max_iterations_reached" | "grader_error">();
    // afterAgent is part of the middleware contract (the hook the loop runs when the agent would finish).
    expectTypeOf<AgentMiddleware>().toHaveProperty("afterAgent");
    expect(rubricMiddleware({ model }).name).toBe("RubricMiddleware");
  });

  it("approvals: interruptOn rules, the request the graph pauses with, and the four decisions", () => {
    expectTypeOf<DecisionType>().toEqualTypeOf<"approve" | "edit" | "reject" | "respond">();
    const rules = { write_file: true, execute: { allowedDecisions: ["approve", "reject"] } } satisfies InterruptOnConfig;
    expectTypeOf({ model, interruptOn: rules }).toExtend<CreateDeepAgentOptions>();
    // @ts-expect-error: no such decision
    void ({ execute: { allowedDecisions: ["maybe"] } } satisfies InterruptOnConfig);
    expectTypeOf<HITLRequest["actionRequests"][number]>().toEqualTypeOf<{
      name: string;
      args: Record<string, unknown>;
      description: string;
    }>();
    expectTypeOf<HITLRequest["reviewConfigs"][number]>().toEqualTypeOf<{ actionName: string; allowedDecisions: DecisionType[] }>();
    expectTypeOf<HITLResponse>().toEqualTypeOf<{ decisions: Decision[] }>();
    expectTypeOf({ type: "approve" } as const).toExtend<Decision>();
    expectTypeOf({ type: "edit", editedAction: { args: { file_path: "/a.md" } } } as const).toExtend<Decision>();
    expectTypeOf({ type: "reject" } as const).toExtend<Decision>();
    expectTypeOf({ type: "respond", message: "done by hand" } as const).toExtend<Decision>();
    // @ts-expect-error: a response carries its message
    expectTypeOf({ type: "respond" } as const).toExtend<Decision>();
    // @ts-expect-error: an edit carries the edited arguments
    expectTypeOf({ type: "edit" } as const).toExtend<Decision>();
  });

  it("results and errors: Result narrows on ok, errors carry a code", () => {
    const parsed = ok(1) as Result<number>;
    if (parsed.ok) expectTypeOf(parsed.value).toEqualTypeOf<number>();
    else expectTypeOf(parsed.error).toEqualTypeOf<ErrorInfo>();
    expectTypeOf(err("x")).toEqualTypeOf<{ readonly ok: false; readonly error: string }>();
    expectTypeOf(fail("not_found", "No such thread.").error.code).toEqualTypeOf<"not_found">();
    expectTypeOf(toErrorInfo).returns.toEqualTypeOf<ErrorInfo>();
    expectTypeOf<ErrorInfo>().toEqualTypeOf<{ name: string; message: string; code?: string; status?: number }>();
    expectTypeOf<HarnessError>().toExtend<DeeptabError>();
    expectTypeOf<ToolError>().toExtend<DeeptabError>();
    expectTypeOf<DeeptabError<"busy">["code"]>().toEqualTypeOf<"busy">();
  });

  it("models and persistence are LangChain and LangGraph types", () => {
    expectTypeOf<ScriptedChatModel>().toExtend<BaseChatModel>();
    expectTypeOf<ChatWllama>().toExtend<BaseChatModel>();
    expectTypeOf<ChatChromeAI>().toExtend<BaseChatModel>();
    expectTypeOf<IndexedDBSaver>().toExtend<BaseCheckpointSaver>();
    expectTypeOf<IndexedDBStore>().toExtend<BaseStore>();
  });

  it("harness profiles: options in, a frozen profile out; a key or a profile names one for createDeepAgent", () => {
    expectTypeOf(createHarnessProfile).parameter(0).toEqualTypeOf<HarnessProfileOptions | undefined>();
    expectTypeOf(createHarnessProfile).returns.toEqualTypeOf<HarnessProfile>();
    expectTypeOf(resolveHarnessProfile).returns.toEqualTypeOf<HarnessProfile>();
    expectTypeOf<HarnessProfile["excludedTools"]>().toEqualTypeOf<ReadonlySet<string>>();
    expectTypeOf(parseHarnessProfileConfig).returns.toEqualTypeOf<HarnessProfile>();
    expectTypeOf(serializeProfile).returns.toEqualTypeOf<HarnessProfileConfigData>();
    expectTypeOf<"anthropic:claude-sonnet-4-6">().toExtend<NonNullable<CreateDeepAgentOptions["harnessProfile"]>>();
    expectTypeOf<HarnessProfile>().toExtend<NonNullable<CreateDeepAgentOptions["harnessProfile"]>>();
  });
});
