/**
 * `js_eval` in the app's agent, through the worker API (Node, fake-indexeddb, the OpenAI-compatible provider on a
 * loopback server): offered to the model, code reading the workspace and calling a tool, and with "Ask before
 * changing files" on, a write from code refused (the person is never bypassed) while nothing is written.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { serveScripted } from "../testing/scripted-servers.ts";
import { collectRun, openWorkerApi } from "../testing/worker-api.ts";

const serve = serveScripted();

describe("js_eval in the app's agent", () => {
  it("is offered, runs code over the workspace and the agent's tools, and refuses a write from code under approvals", async () => {
    const code = [
      "const n = (await tools.grep({ pattern: 'tide', path: '/', output_mode: 'count' })).trim();",
      "try { await writeFile('/out.txt', n) } catch (e) { console.log(e.message) }",
      "export default (await readFile('/notes.md')).length;",
    ].join("\n");
    const server = await serve("openai", [
      { when: { toolResults: 0 }, toolCalls: [{ id: "j1", name: "js_eval", args: { code } }] },
      { when: { toolResults: 1 }, text: "Counted." },
    ]);
    const { api } = openWorkerApi();
    await api.updateSettings({ approveWrites: true });
    await api.setThreadModel("j", { provider: "openai-compatible", model: "m", baseUrl: `${server.url}/v1` });
    expect(await api.writeFile("j", "/notes.md", "high tide\nlow tide\n")).toEqual({ ok: true, value: null });

    const { done } = await collectRun((cb) => api.startRun("j", { text: "Count the tides." }, cb));
    expect(await done).toMatchObject({ status: "complete" });
    const offered = (server.requests.find((r) => r.path === "/v1/chat/completions")?.body.tools ?? []) as { function: { name: string } }[];
    expect(offered.map((t) => t.function.name)).toContain("js_eval");
    const tool = (await api.getThread("j")).messages.find((m) => m.role === "tool");
    expect(tool).toMatchObject({ name: "js_eval", status: "success" });
    expect(tool!.content).toBe(
      "write_file asks the person before it runs, so it cannot be called from js_eval; call write_file directly.\n→ 19",
    );
    expect((await api.readFile("j", "/out.txt", 0, 10)).ok).toBe(false);
  }, 60_000);
});
