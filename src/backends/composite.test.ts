import { HumanMessage } from "@langchain/core/messages";
import { InMemoryStore, MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import { inMemoryConformance } from "../testing/backend-conformance.ts";
import { FIXED_NOW } from "../testing/runtime.ts";
import { ScriptedChatModel } from "../models/scripted.ts";
import { CompositeBackend, compositeBackend } from "./composite.ts";
import { createBackendRuntime } from "./runtime.ts";
import type { FileInfo } from "./protocol.ts";
import { StateBackend } from "./state.ts";
import { StoreBackend } from "./store.ts";

const state = () => new StateBackend(createBackendRuntime({}, {}, () => FIXED_NOW));

inMemoryConformance();

describe("CompositeBackend routing", () => {
  it("routes by longest prefix, shows routes in ls /, spans routes in grep and glob", async () => {
    const store = new InMemoryStore();
    const b = new CompositeBackend(state(), { "/memories/": new StoreBackend(store, ["m"]), "/memories/deep/": state() });
    await b.write("/work.md", "TODO root");
    await b.write("/memories/AGENTS.md", "TODO remember");
    await b.write("/memories/deep/x.md", "TODO deep");
    expect((await store.get(["m"], "/AGENTS.md"))?.value.content).toBe("TODO remember");
    expect(((await b.ls("/")) as Array<{ path: string; isDir: boolean }>).map((e) => [e.path, e.isDir])).toEqual([
      ["/memories", true],
      ["/work.md", false],
    ]);
    expect(((await b.ls("/memories")) as Array<{ path: string }>).map((e) => e.path)).toEqual(["/memories/AGENTS.md", "/memories/deep"]);
    expect(((await b.grep("TODO")) as Array<{ path: string }>).map((m) => m.path)).toEqual([
      "/memories/AGENTS.md",
      "/memories/deep/x.md",
      "/work.md",
    ]);
    expect(((await b.grep("TODO", "/memories")) as Array<{ path: string }>).map((m) => m.path)).toEqual([
      "/memories/AGENTS.md",
      "/memories/deep/x.md",
    ]);
    expect(((await b.glob("**/*.md")) as Array<{ path: string }>).map((m) => m.path)).toEqual([
      "/memories/AGENTS.md",
      "/memories/deep/x.md",
      "/work.md",
    ]);
    expect(b.isolatedRoutes).toEqual(["/memories/deep/", "/memories/"]);
    expect(b.execute).toBeUndefined();
  });

  it("names the paths the caller wrote in a routed backend's errors, the route's own folder included", async () => {
    const b = new CompositeBackend(state(), { "/memories/": state() });
    await b.write("/memories/a.md", "x");
    const message = async (p: Promise<unknown>) => ((await p) as { message?: string }).message;
    expect(await message(b.write("/memories", "x"))).toBe("Error: '/memories' is a directory, not a file");
    expect(await message(b.read("/memories/"))).toBe("Error: '/memories' is a directory, not a file");
    expect(await message(b.read("/memories/nope.md"))).toBe("Error: File '/memories/nope.md' not found");
    expect(await b.write("/memories/a.md", "y")).toEqual({ path: "/memories/a.md" });
    expect(await message(b.write("/memories/a.md/b", "y"))).toBe(
      "Error: Cannot create '/memories/a.md/b': '/memories/a.md' is a file, not a directory.",
    );
    // The model's own text is echoed as it was.
    expect(await message(b.edit("/memories/a.md", "/a.md", "z"))).toBe("Error: String not found in file: '/a.md'");
    // The default backend's paths are the caller's already.
    expect(await message(b.read("/nope.md"))).toBe("Error: File '/nope.md' not found");
  });

  it("delete removes directories recursively (deepagentsjs 1.13) across the routes below the path, as deepagentsjs does", async () => {
    const b = new CompositeBackend(state(), { "/w/memories/": state(), "/other/": state() });
    await b.write("/w/a.md", "a");
    await b.write("/w/memories/m.md", "m");
    await b.write("/w/memories/deep/n.md", "n");
    await b.write("/other/o.md", "o");
    const seen: string[] = [];
    const refused = await b.delete!("/w", {
      refuse: (paths) => {
        seen.push(...paths);
        return paths.includes("/w/memories/deep/n.md") ? { error: "permission_denied", message: "Error: no" } : undefined;
      },
    });
    // Every file of every route is checked, with the caller's paths, before anything is removed.
    expect(refused).toEqual({ error: "permission_denied", message: "Error: no" });
    expect(seen).toEqual(["/w/a.md", "/w/memories/deep/n.md", "/w/memories/m.md"]);
    expect((await b.glob("**")) as FileInfo[]).toHaveLength(4);
    expect(await b.delete!("/w")).toEqual({ path: "/w" });
    expect(((await b.glob("**")) as FileInfo[]).map((f) => f.path)).toEqual(["/other/o.md"]);
    // A route's own folder is deleted with everything in it; a route with nothing there is not found.
    expect(await b.delete!("/other")).toEqual({ path: "/other" });
    expect(await b.delete!("/other")).toEqual({ error: "file_not_found", message: "Error: File '/other' not found" });
    expect(await b.delete!("/w/memories/x.md")).toEqual({ error: "file_not_found", message: "Error: File '/w/memories/x.md' not found" });
  });

  it("keeps /memories/ across threads while the workspace is per thread", async () => {
    const store = new InMemoryStore();
    const model = new ScriptedChatModel({
      script: ({ call }) =>
        call === 0
          ? {
              toolCalls: [
                { name: "write_file", args: { file_path: "/memories/prefs.md", content: "likes tea" } },
                { name: "write_file", args: { file_path: "/scratch.md", content: "tmp" } },
              ],
            }
          : call === 2
            ? {
                toolCalls: [
                  { name: "read_file", args: { file_path: "/memories/prefs.md" } },
                  { name: "ls", args: { path: "/" } },
                ],
              }
            : { text: "ok" },
    });
    const backend = compositeBackend((rt) => new StateBackend(rt), { "/memories/": (rt) => new StoreBackend(rt.store!, ["memories"]) });
    const agent = createDeepAgent({ model, backend, store, checkpointer: new MemorySaver() });
    await agent.invoke({ messages: [new HumanMessage("remember")] }, { configurable: { thread_id: "one" } });
    const out = await agent.invoke({ messages: [new HumanMessage("recall")] }, { configurable: { thread_id: "two" } });
    expect(String(out.messages[2]!.content)).toBe("     1\tlikes tea");
    expect(String(out.messages[3]!.content)).toBe("['/memories/']");
  });
});
