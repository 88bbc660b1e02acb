import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { Command, MemorySaver } from "@langchain/langgraph/web";
import { describe, expect, it } from "vitest";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import type { AgentTool } from "../harness/types.ts";
import { FIXED_NOW, textFile } from "../testing/runtime.ts";
import { ScriptedChatModel } from "../models/scripted.ts";
import { PermissionedBackend, permissionFor, type FilesystemPermission } from "./permissions.ts";
import type { ExecuteResult, SandboxBackendProtocol } from "./protocol.ts";
import { createBackendRuntime } from "./runtime.ts";
import { StateBackend } from "./state.ts";

const results = (messages: BaseMessage[]) =>
  Object.fromEntries(messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m)).map((m) => [m.tool_call_id, m]));

const rules: FilesystemPermission[] = [
  { operations: ["read", "write"], paths: ["/secrets/public/**"], mode: "allow" },
  { operations: ["read", "write"], paths: ["/secrets/**"], mode: "deny" },
  { operations: ["write"], paths: ["/docs/**"], mode: "deny" },
];

describe("permission rules", () => {
  it("match first rule wins, globs cover the directory itself", () => {
    expect(permissionFor(rules, "read", "/secrets/public/a.md")).toBe("allow");
    expect(permissionFor(rules, "read", "/secrets/key.txt")).toBe("deny");
    expect(permissionFor(rules, "read", "/secrets")).toBe("deny");
    expect(permissionFor(rules, "read", "/docs/a.md")).toBe("allow");
    expect(permissionFor(rules, "write", "/docs/a.md")).toBe("deny");
    expect(permissionFor(rules, "write", "/other.md")).toBe("allow");
  });

  it("are enforced by the backend wrapper for every operation", async () => {
    const rt = createBackendRuntime(
      { "/secrets/key.txt": textFile("k"), "/secrets/public/p.md": textFile("TODO p"), "/docs/a.md": textFile("TODO a") },
      {},
      () => FIXED_NOW,
    );
    const b = new PermissionedBackend(new StateBackend(rt), rules);
    expect(await b.read("/secrets/key.txt")).toEqual({
      error: "permission_denied",
      message: "Error: permission denied for read on /secrets/key.txt",
    });
    expect(await b.write("/docs/new.md", "x")).toMatchObject({ error: "permission_denied" });
    expect(await b.edit("/docs/a.md", "TODO", "DONE")).toMatchObject({ error: "permission_denied" });
    expect(await b.delete!("/secrets/key.txt")).toMatchObject({ error: "permission_denied" });
    expect(((await b.ls("/secrets")) as { error?: string }).error).toBe("permission_denied");
    expect(((await b.grep("TODO")) as Array<{ path: string }>).map((m) => m.path)).toEqual(["/docs/a.md", "/secrets/public/p.md"]);
    expect(((await b.glob("**/*")) as Array<{ path: string }>).map((m) => m.path)).toEqual(["/docs/a.md", "/secrets/public/p.md"]);
    expect(
      await b.uploadFiles!([
        { path: "/docs/u.md", content: new Uint8Array([65]) },
        { path: "/ok.md", content: new Uint8Array([65]) },
      ]),
    ).toEqual([{ path: "/docs/u.md", error: "permission_denied" }, { path: "/ok.md" }]);
    expect((await b.downloadFiles!(["/secrets/key.txt"]))[0]!.error).toBe("permission_denied");
    expect(Object.keys(rt.pendingFiles)).toEqual(["/ok.md"]);
  });
});

describe("permissions in an agent", () => {
  it("apply to tools, subagents and eviction alike", async () => {
    const big: AgentTool = {
      name: "big",
      description: "",
      schema: { type: "object", properties: {} },
      run: async () => "y".repeat(100_000),
    };
    const child = new ScriptedChatModel({
      script: [
        { toolCalls: [{ name: "write_file", args: { file_path: "/docs/child.md", content: "x" }, id: "cw" }] },
        { text: "child could not write" },
      ],
    });
    const model = new ScriptedChatModel({
      script: [
        {
          toolCalls: [
            { name: "read_file", args: { file_path: "/secrets/key.txt" }, id: "r" },
            { name: "write_file", args: { file_path: "/docs/x.md", content: "x" }, id: "w" },
            { name: "big", args: {}, id: "b" },
            { name: "task", args: { description: "write docs", subagent_type: "writer" }, id: "t" },
          ],
        },
        { text: "done" },
      ],
    });
    const agent = createDeepAgent({
      model,
      tools: [big],
      permissions: [...rules, { operations: ["write"], paths: ["/large_tool_results/**"], mode: "deny" }],
      subagents: [{ name: "writer", description: "w", systemPrompt: "write", model: child }],
    });
    const out = await agent.invoke({ messages: [new HumanMessage("go")], files: { "/secrets/key.txt": textFile("hunter2") } });
    const byId = results(out.messages);
    expect(byId.r!.content).toBe("Error: permission denied for read on /secrets/key.txt");
    expect(byId.w!.content).toBe("Error: permission denied for write on /docs/x.md");
    // Eviction could not write its file, so the full result is kept rather than lost.
    expect(String(byId.b!.content)).toHaveLength(100_000);
    expect(byId.t!.content).toBe("child could not write");
    expect(String(child.calls[1]!.messages.at(-1)!.content)).toBe("Error: permission denied for write on /docs/child.md");
    expect(Object.keys(out.files)).toEqual(["/secrets/key.txt"]);
  });

  it("turns interrupt rules into path-aware approvals", async () => {
    const model = new ScriptedChatModel({
      script: [
        {
          toolCalls: [
            { name: "write_file", args: { file_path: "/protected/a.md", content: "x" }, id: "pw" },
            { name: "write_file", args: { file_path: "/free.md", content: "x" }, id: "fw" },
            { name: "ls", args: { path: "/elsewhere" }, id: "ls-far" },
            { name: "grep", args: { pattern: "x" }, id: "grep-all" },
            { name: "glob", args: { pattern: "*.md", path: "/protected/sub" }, id: "glob-in" },
          ],
        },
        { text: "ok" },
      ],
    });
    const agent = createDeepAgent({
      model,
      checkpointer: new MemorySaver(),
      permissions: [{ operations: ["read", "write"], paths: ["/protected/**"], mode: "interrupt" }],
    });
    const config = { configurable: { thread_id: "perm-int" } };
    const paused = await agent.invoke({ messages: [new HumanMessage("go")] }, config);
    const value = (paused as { __interrupt__?: Array<{ value: { actionRequests: Array<{ name: string }> } }> }).__interrupt__![0]!.value;
    expect(value.actionRequests.map((a) => a.name)).toEqual(["write_file", "grep", "glob"]);
    const out = await agent.invoke(
      new Command({ resume: { decisions: [{ type: "approve" }, { type: "reject" }, { type: "approve" }] } }),
      config,
    );
    expect(Object.keys(out.files).sort()).toEqual(["/free.md", "/protected/a.md"]);
  });

  it("refuses a shell backend with path rules unless every rule is on a route the shell cannot reach", () => {
    class Shell extends StateBackend implements SandboxBackendProtocol {
      readonly id = "shell";
      isolatedRoutes: string[] = [];
      async execute(): Promise<ExecuteResult> {
        return { output: "", exitCode: 0, truncated: false };
      }
    }
    const model = new ScriptedChatModel({ script: [] });
    const memoriesRule: FilesystemPermission[] = [{ operations: ["write"], paths: ["/memories/**"], mode: "deny" }];
    expect(() => createDeepAgent({ model, backend: (rt) => new Shell(rt), permissions: memoriesRule })).toThrow(
      expect.objectContaining({ code: "unsupported_backend" }),
    );
    const scoped = (rt: ConstructorParameters<typeof StateBackend>[0]) => Object.assign(new Shell(rt), { isolatedRoutes: ["/memories/"] });
    expect(() => createDeepAgent({ model, backend: scoped, permissions: memoriesRule })).not.toThrow();
  });
});
