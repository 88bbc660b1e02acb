/**
 * The Demo model (the default: no key) is a script in the worker: its turns, tools and subagents make no request at
 * all, so the request log stays empty and neither the worker's fetch nor the global one is called (Node, fake-indexeddb).
 */
import "fake-indexeddb/auto";
import { afterEach, describe, expect, it, vi } from "vitest";
import { collectRun, openWorkerApi } from "../testing/worker-api.ts";

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the demo model", () => {
  it("a demo session makes no request: its turns, tools and subagent run without the network", async () => {
    const requests: string[] = [];
    const recording: typeof fetch = (input) => {
      requests.push(input instanceof Request ? input.url : String(input));
      return Promise.reject(new TypeError("the demo must not fetch"));
    };
    const global = vi.spyOn(globalThis, "fetch");
    const { api } = openWorkerApi(undefined, { fetch: recording });
    for (const text of ["hello", "research cats", "$ seq 3 | sort -r"]) {
      const { events, done } = await collectRun((cb) => api.startRun("demo", { text }, cb));
      expect(await done).toMatchObject({ type: "done" });
      expect(events.some((e) => e.type === "messages")).toBe(true);
    }
    // The turns did work: tools ran (a file written, a subagent's task, a command).
    const tools = (await api.getThread("demo")).messages.filter((m) => m.role === "tool").map((m) => m.name);
    expect(tools).toEqual(expect.arrayContaining(["write_file", "task"]));
    expect(requests).toEqual([]);
    expect(global).not.toHaveBeenCalled();
    expect(await api.requestLog()).toEqual([]);
  }, 60_000);
});
