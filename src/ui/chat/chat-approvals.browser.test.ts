/**
 * The page's side of "a decision applies only to the request it was shown
 * for" (issue 21 #1), in Chromium with two real workers on one database:
 * a request answered elsewhere meanwhile makes the page's decision refused
 * (`approval_changed`), and the page then shows the request waiting now.
 */
import { describe, expect, inject, it, vi } from "vitest";
import { PARALLEL_PROMPT, parallelApprovalReplies } from "../../testing/parallel-approvals.ts";
import { serverScope } from "../../testing/server-scope.ts";
import { workerPool } from "../../testing/worker-pool.ts";
import { Chat } from "./chat.svelte.ts";

const { spawn } = workerPool(`chat-approvals-${crypto.randomUUID()}`);

describe("the page's decision on an approval", () => {
  it("is refused when another tab answered that request, and the request waiting now is shown", async () => {
    const server = serverScope(inject("providerServer"));
    await server.script(parallelApprovalReplies());
    const page = spawn();
    const other = spawn();
    const thread = `t-${crypto.randomUUID()}`;
    await page.updateSettings({ approveWrites: true });
    await page.setThreadModel(thread, { provider: "openai-compatible", model: "m", baseUrl: server.baseUrl });
    const chat = new Chat(page, thread);
    try {
      await chat.connect();
      expect(await chat.send({ text: PARALLEL_PROMPT })).toBe(true);
      await chat.idle();
      const shown = chat.live.approval!;
      expect([shown.subagent?.taskId, shown.waiting?.length]).toEqual(["tA", 1]);

      // Another tab answers the shown request before this page hears of it (its broadcast is not listened to, as
      // when it is still on its way).
      chat.dispose();
      const elsewhere = await other.resume(thread, [{ type: "approve" }], undefined, shown.id);
      if (!elsewhere.ok) throw new Error(elsewhere.error.message);
      await elsewhere.value.done;

      expect(await chat.decide([{ type: "reject" }])).toBe(false);
      expect(chat.error).toMatchObject({ code: "approval_changed" });
      await vi.waitFor(() => expect(chat.live.approval?.subagent?.taskId).toBe("tB"), { timeout: 20_000 });
      // The shown request was approved once (by the other tab), never rejected by this one's stale decision.
      expect((await page.listFiles(thread)).map((f) => f.path)).toEqual(["/shown.md"]);
      expect(await chat.decide([{ type: "reject" }])).toBe(true);
      await chat.idle();
      expect(chat.live.approval).toBeNull();
    } finally {
      chat.dispose();
    }
  }, 120_000);
});
