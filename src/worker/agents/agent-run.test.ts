/**
 * Runs of agent folders in the worker (Node, fake-indexeddb, loopback providers): a subagent's `model` built over the
 * person's choice and reached at its own server, its `tools` allow-list honoured, a model that cannot be built
 * falling back to the main one with the reason in the `task` description; approval rules never loosened; and path
 * rules beside a shell: `deny` refused on the file tools, `interrupt` pausing, commands kept and always approved.
 */
import "fake-indexeddb/auto";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { EXAMPLE_AGENTS, folderFiles } from "../../testing/agent-folders.ts";
import type { RecordedRequest, ServerReply } from "../../testing/provider-servers.ts";
import { serveScripted } from "../../testing/scripted-servers.ts";
import { collectRun, openWorkerApi } from "../../testing/worker-api.ts";
import type { AgentWorkerApi } from "../../protocol/worker-api.ts";
import type { Settings } from "../../protocol/settings.ts";

const serve = serveScripted();
const encoder = new TextEncoder();

type Chat = {
  model: string;
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ function: { name: string; description: string } }>;
};
const chats = (requests: RecordedRequest[]) => requests.filter((r) => r.path.endsWith("/chat/completions")).map((r) => r.body as Chat);

/** A worker API whose thread `t` uses the agent `files`, on the loopback server's model. */
async function agentThread(files: Map<string, Uint8Array>, replies: ServerReply[], settings: Partial<Settings> = {}) {
  const server = await serve("openai", []);
  server.script(replies);
  const { api } = openWorkerApi();
  await api.updateSettings(settings);
  const preview = await api.previewAgentUpload({ files: [...files].map(([path, content]) => ({ path, content })) });
  if (!preview.ok) throw new Error(preview.error.message);
  const used = await api.useAgent(preview.value.summary.hash!);
  if (!used.ok) throw new Error(used.error.message);
  const set = await api.setThreadAgent("t", used.value.id);
  if (!set.ok) throw new Error(set.error.message);
  await api.setThreadModel("t", { provider: "openai-compatible", model: "main-m", baseUrl: server.baseUrl(), contextWindow: 200_000 });
  return { api, server };
}

async function send(api: AgentWorkerApi, text: string) {
  const run = await collectRun((cb) => api.startRun("t", { text }, cb));
  return run.done;
}

describe("runs of agent folders", () => {
  it("builds a subagent's model at its own server with its tool list, and falls back (saying why) when it cannot", async () => {
    const sub = await serve("openai", []);
    sub.script([{ text: "Sub report." }]);
    const files = new Map(
      Object.entries({
        "AGENTS.md": "Delegate.",
        "agents/helper.md": [
          "---",
          "name: helper",
          "description: Helps.",
          "tools: [read_file, ls]",
          "model:",
          "  provider: openai-compatible",
          "  model: sub-m",
          `  base_url: ${sub.baseUrl()}`,
          "---",
          "You help.",
        ].join("\n"),
        "agents/claude.md": "---\nname: claude\ndescription: Thinks.\nmodel:\n  provider: anthropic\n  model: claude-x\n---\nYou think.",
      }).map(([p, t]) => [p, encoder.encode(t)]),
    );
    const { api, server } = await agentThread(files, [
      { toolCalls: [{ name: "task", args: { description: "Look around.", subagent_type: "helper" } }] },
      { text: "Done." },
    ]);
    expect(await send(api, "Go")).toMatchObject({ type: "done", status: "complete" });
    const [first] = chats(server.requestsOf());
    const task = first!.tools!.find((t) => t.function.name === "task")!.function.description;
    expect(task).toContain("- helper: Helps.");
    expect(task).toContain("- claude: Thinks. (It runs on the main agent's model here: no Anthropic API key is set.)");
    const [helper] = chats(sub.requestsOf());
    expect(helper?.model).toBe("sub-m");
    expect(helper?.tools?.map((t) => t.function.name).sort()).toEqual(["ls", "read_file"]);
  });

  it("never loosens the app's approval for execute, and forces it for path rules beside a shell", async () => {
    const files = new Map(
      Object.entries({
        "AGENTS.md": "Run things.",
        "agent.yaml": "sandbox: shell\ninterrupt_on:\n  execute: false\n",
      }).map(([p, t]) => [p, encoder.encode(t)]),
    );
    const { api } = await agentThread(files, [{ toolCalls: [{ name: "execute", args: { command: "echo hi" } }] }, { text: "Ran." }], {
      approveExecute: true,
    });
    expect(await send(api, "Go")).toMatchObject({ type: "done", status: "interrupted" });
    expect((await api.getThread("t")).approval?.actions[0]).toMatchObject({ name: "execute" });

    // The coding example: `deny` writes under /node_modules, with the shell's execute still offered.
    const coding = folderFiles(join(EXAMPLE_AGENTS, "coding"));
    const denied = await agentThread(
      coding,
      [{ toolCalls: [{ name: "write_file", args: { file_path: "/node_modules/x.js", content: "x" } }] }, { text: "Denied." }],
      { approveExecute: false },
    );
    expect(await send(denied.api, "Go")).toMatchObject({ type: "done", status: "complete" });
    const tool = (await denied.api.getThread("t")).messages.find((m) => m.role === "tool");
    expect(tool).toMatchObject({ name: "write_file", status: "error" });
    expect(String(tool?.content)).toContain("permission denied");
    // A folder with path rules beside a shell and no rule for execute of its own: its commands wait all the same.
    const ruled = new Map(
      Object.entries({
        "AGENTS.md": "Run things.",
        "agent.yaml": "sandbox: shell\npermissions:\n  - operations: [write]\n    paths: [/locked/**]\n    mode: deny\n",
      }).map(([p, t]) => [p, encoder.encode(t)]),
    );
    const ran = await agentThread(ruled, [{ toolCalls: [{ name: "execute", args: { command: "ls" } }] }, { text: "Ran." }], {
      approveExecute: false,
    });
    expect(await send(ran.api, "Go")).toMatchObject({ type: "done", status: "interrupted" });
    expect((await ran.api.getThread("t")).approval?.actions[0]).toMatchObject({ name: "execute" });
    // With no shell, the python tool's code reaches every file as a command would: with path rules, it asks first too.
    const noShell = new Map(
      Object.entries({
        "AGENTS.md": "Compute things.",
        "agent.yaml": "sandbox: none\npermissions:\n  - operations: [write]\n    paths: [/locked/**]\n    mode: deny\n",
      }).map(([p, t]) => [p, encoder.encode(t)]),
    );
    const py = await agentThread(noShell, [{ toolCalls: [{ name: "python", args: { code: "print(1)" } }] }, { text: "Ran." }], {
      approveExecute: false,
    });
    expect(await send(py.api, "Go")).toMatchObject({ type: "done", status: "interrupted" });
    expect((await py.api.getThread("t")).approval?.actions[0]).toMatchObject({ name: "python" });
  });

  it("tells the model only of the code-running tools the folder keeps", async () => {
    const folder = (yaml: string) =>
      new Map(Object.entries({ "AGENTS.md": "Compute things.", "agent.yaml": yaml }).map(([p, t]) => [p, encoder.encode(t)]));
    const system = async (yaml: string) => {
      const { api, server } = await agentThread(folder(yaml), [{ text: "Done." }]);
      expect(await send(api, "Go")).toMatchObject({ type: "done", status: "complete" });
      const chat = chats(server.requestsOf())[0]!;
      return { prompt: String(chat.messages[0]!.content), tools: (chat.tools ?? []).map((t) => t.function.name) };
    };
    const kept = await system("sandbox: none\n");
    expect(kept.tools).toContain("python");
    expect(kept.prompt).toContain("the `python` tool runs Python 3");
    const dropped = await system("sandbox: none\ntools:\n  disallowed: [python]\n");
    expect(dropped.tools).not.toContain("python");
    expect(dropped.prompt).toContain("You cannot run shell commands or Python.");
    expect(dropped.prompt).not.toContain("`python`");
    const noShell = await system("sandbox: shell\ntools:\n  disallowed: [execute]\n");
    expect(noShell.tools).not.toContain("execute");
    expect(noShell.prompt).toContain("You cannot run shell commands.");
    expect(noShell.prompt).not.toContain("python3");
  });

  it("pauses on the data example's interrupt path rule and leaves other writes alone", async () => {
    const data = folderFiles(join(EXAMPLE_AGENTS, "data"));
    const { api } = await agentThread(
      data,
      [
        { toolCalls: [{ name: "write_file", args: { file_path: "/data/other.csv", content: "a" } }] },
        { toolCalls: [{ name: "write_file", args: { file_path: "/data/sales.csv", content: "b" } }] },
        { text: "Wrote." },
      ],
      { approveExecute: false, approveWrites: false },
    );
    expect(await send(api, "Go")).toMatchObject({ type: "done", status: "interrupted" });
    const view = await api.getThread("t");
    expect(view.approval?.actions[0]).toMatchObject({ name: "write_file", args: { file_path: "/data/sales.csv" } });
    expect(view.messages.find((m) => m.role === "tool")).toMatchObject({ name: "write_file", status: "success" });
  });
});
