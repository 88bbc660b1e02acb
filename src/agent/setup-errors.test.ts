/**
 * A broken setup throws a coded DeeptabError from every layer (never a plain
 * Error), so a caller across the worker boundary can branch on `code`.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { CompositeBackend } from "../backends/composite.ts";
import { createBackendRuntime } from "../backends/runtime.ts";
import { StateBackend } from "../backends/state.ts";
import { DeeptabError, toErrorInfo } from "../core/errors.ts";
import { bindToolsCached } from "../harness/bind-tools.ts";
import { interruptWithConfig, takeResumeOrInterrupt } from "../harness/interrupt.ts";
import { collectStateFields } from "../harness/loop.ts";
import { IndexedDBStore } from "../storage/indexeddb-store.ts";
import type { AgentTool } from "../harness/types.ts";

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DeeptabError);
    return toErrorInfo(e).code;
  }
  throw new Error("expected a throw");
}

describe("setup errors are coded", () => {
  it("a model without tool calling is unsupported_model", () => {
    const model = { getName: () => "plain" } as unknown as BaseChatModel;
    const tool = { name: "t", description: "", schema: { type: "object", properties: {} }, invoke: async () => "" } as unknown as AgentTool;
    expect(codeOf(() => bindToolsCached(model, [tool]))).toBe("unsupported_model");
  });

  it("middleware redefining a core state field is invalid_option", () => {
    expect(codeOf(() => collectStateFields([{ name: "m", stateSchema: { messages: { default: () => [] } } }]))).toBe("invalid_option");
  });

  it("interrupts outside a graph node are not_in_graph", () => {
    expect(codeOf(() => interruptWithConfig("x", {}))).toBe("not_in_graph");
    expect(codeOf(() => takeResumeOrInterrupt("x", {}))).toBe("not_in_graph");
  });

  it("a route on / is invalid_option", () => {
    const state = () => new StateBackend(createBackendRuntime({}, {}));
    expect(codeOf(() => new CompositeBackend(state(), { "/": state() }))).toBe("invalid_option");
  });

  it("an unknown store operation is invalid_request", async () => {
    const store = new IndexedDBStore({ dbName: "setup-errors" });
    const failure = await store
      .batch([{ bogus: true } as unknown as Parameters<IndexedDBStore["batch"]>[0][number]])
      .catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(DeeptabError);
    expect(toErrorInfo(failure).code).toBe("invalid_request");
  });
});
