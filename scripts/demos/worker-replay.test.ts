/**
 * The site's demos replayed by the app's own worker (its API in Node over fake-indexeddb): the folder stored as a
 * visitor's tab stores it, a thread of it with no provider set, the demo's prompt sent with `replay`, every approval
 * answered Approve. The run reaches the recorded final answer over the worker's IndexedDB workspace, starter files,
 * skills folder and (for the data agent) the offline shell: tool results the recording matched in Node match here too.
 * The coding agent's sandbox is a WebContainer, which Node has not (the worker falls back to the offline shell); its
 * demo reads and edits files only, so its results are the same. The data
 * agent's demo pauses for approval of its commands: the answered approval goes on replaying (the turn's mark says
 * which demo).
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import type { AgentEvent } from "../../src/protocol/events.ts";
import { collectRun, openWorkerApi } from "../../src/testing/worker-api.ts";
import { demoPath } from "./main.ts";
import { folderFiles } from "./record.ts";
import { DEMO_SCRIPTS } from "./scripts.ts";

describe("the site's demos in the app's worker", () => {
  it.each(DEMO_SCRIPTS.map((s) => [s.agent, s] as const))(
    "%s: sent with replay and no provider, the worker's run reaches the recorded answer",
    async (_name, script) => {
      const { api } = openWorkerApi(`demo-replay-${crypto.randomUUID()}`);
      const files = await folderFiles(script.agent);
      const preview = await api.previewAgentUpload({ files: [...files].map(([path, content]) => ({ path, content })) });
      if (!preview.ok) throw new Error(preview.error.message);
      const used = await api.useAgent(preview.value.summary.hash!);
      if (!used.ok) throw new Error(used.error.message);
      const set = await api.setThreadAgent("t", used.value.id);
      if (!set.ok) throw new Error(set.error.message);

      const file = demoPath(script).slice(script.agent.length + 1);
      let events: AgentEvent[] = [];
      let run = await collectRun((cb) => api.startRun("t", { text: script.prompt, replay: { file, speed: Infinity } }, cb));
      let done = await run.done;
      events = [...events, ...run.events];
      for (let pauses = 0; done.type === "done" && done.status === "interrupted"; pauses += 1) {
        expect(pauses).toBeLessThan(10);
        const pause = run.events.findLast((e) => e.type === "interrupt");
        if (pause?.type !== "interrupt") throw new Error("the run paused without an approval");
        const { approval } = pause;
        run = await collectRun((cb) =>
          api.resume(
            "t",
            approval.actions.map(() => ({ type: "approve" as const })),
            cb,
            approval.id,
          ),
        );
        done = await run.done;
        events = [...events, ...run.events];
      }
      expect(done, JSON.stringify(done)).toMatchObject({ type: "done", status: "complete" });
      const thread = await api.getThread("t");
      expect(thread.messages.at(-1)?.content).toBe(script.main.at(-1)?.text);
      expect(thread.messages.at(-1)?.replay).toBeUndefined();
      expect(thread.messages.find((m) => m.role === "user")?.replay).toMatchObject({
        file,
        scripted: true,
        model: `scripted:${script.agent}`,
      });
    },
    120_000,
  );
});
