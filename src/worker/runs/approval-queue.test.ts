/**
 * Parallel subagents' approvals through the worker API (Node, fake-indexeddb,
 * the OpenAI-compatible provider on the loopback server): every pending
 * request is shown (the first, with the others listed as waiting), and a
 * decision applies only to the request it was shown for (issue 21 #1).
 * Chromium: approvals.browser.test.ts runs the same turn in a real worker.
 */
import "fake-indexeddb/auto";
import { afterEach, describe, expect, it } from "vitest";
import { PARALLEL_PROMPT, parallelApprovalReplies } from "../../testing/parallel-approvals.ts";
import { startScriptedServer, type ScriptedServer } from "../../testing/provider-servers.ts";
import { collectRun, openWorkerApi } from "../../testing/worker-api.ts";
import type { ApprovalDecision, PendingApproval } from "../../protocol/approvals.ts";

let server: ScriptedServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function run(start: Parameters<typeof collectRun>[0]) {
  const { events, done } = await collectRun(start);
  const terminal = await done;
  const interrupt = events.find((e) => e.type === "interrupt");
  return { terminal, approval: interrupt?.type === "interrupt" ? interrupt.approval : undefined };
}

const asked = (a: PendingApproval | null | undefined) => [a?.subagent?.taskId, a?.actions.map((x) => x.args.file_path)];

describe("parallel subagents' approvals in the worker", () => {
  it("shows the first request with the other waiting; each decision applies only to the request shown", async () => {
    server = await startScriptedServer("openai", parallelApprovalReplies());
    const { api } = openWorkerApi();
    await api.updateSettings({ approveWrites: true });
    await api.setThreadModel("p", { provider: "openai-compatible", model: "m", baseUrl: `${server.url}/v1` });

    const first = await run((cb) => api.startRun("p", { text: PARALLEL_PROMPT }, cb));
    expect(first.terminal).toMatchObject({ status: "interrupted" });
    expect(asked(first.approval)).toEqual(["tA", ["/shown.md"]]);
    expect(first.approval?.waiting).toEqual([{ subagent: { type: "general-purpose", taskId: "tB" }, tools: ["write_file"] }]);
    const view = await api.getThread("p");
    expect(view.approval?.id).toBe(first.approval?.id);
    expect(view.approval?.waiting).toEqual(first.approval?.waiting);

    // Without saying which request they answer, with two waiting, decisions are refused; so is a stale id.
    expect(await api.resume("p", [{ type: "approve" }], () => undefined)).toMatchObject({ ok: false, error: { code: "invalid_decision" } });
    expect(await api.resume("p", [{ type: "approve" }], () => undefined, "task:tB:0")).toMatchObject({
      ok: false,
      error: { code: "approval_changed" },
    });
    expect(await api.resume("p", [{ type: "respond" } as ApprovalDecision], () => undefined, first.approval!.id)).toMatchObject({
      ok: false,
      error: { code: "invalid_decision", message: expect.stringMatching(/respond needs a message/) },
    });
    expect((await api.listFiles("p")).map((f) => f.path)).toEqual([]);

    const second = await run((cb) => api.resume("p", [{ type: "approve" }], cb, first.approval!.id));
    expect(second.terminal).toMatchObject({ status: "interrupted" });
    // Only the request shown was approved: /shown.md is written, /other.md waits for its own decision.
    expect((await api.listFiles("p")).map((f) => f.path)).toEqual(["/shown.md"]);
    expect(asked(second.approval)).toEqual(["tB", ["/other.md"]]);
    expect(second.approval?.waiting).toBeUndefined();
    // The first request's id no longer answers anything.
    expect(await api.resume("p", [{ type: "approve" }], () => undefined, first.approval!.id)).toMatchObject({
      ok: false,
      error: { code: "approval_changed" },
    });

    const third = await run((cb) => api.resume("p", [{ type: "reject", message: "not that one" }], cb, second.approval!.id));
    expect(third.terminal).toMatchObject({ status: "complete" });
    expect((await api.listFiles("p")).map((f) => f.path)).toEqual(["/shown.md"]);
    expect((await api.getThread("p")).approval).toBeNull();
  }, 60_000);
});
