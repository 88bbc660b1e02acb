/**
 * Hostile input in Chromium: the whole Node table (hostile-input.test.ts)
 * runs in the page, and the freeze and crash cases run again inside a Web
 * Worker on real IndexedDB (src/testing/hostile-worker.ts).
 */
import { describe, expect, it } from "vitest";
import type { HostileOutcome } from "../testing/hostile-worker.ts";
import "./hostile-input.test.ts";

describe("hostile input in a Web Worker on IndexedDB", () => {
  it("every case finishes fast, answers every call with a result, and leaves the stored thread complete", async () => {
    const worker = new Worker(new URL("../testing/hostile-worker.ts", import.meta.url), { type: "module" });
    try {
      const outcomes = await new Promise<HostileOutcome[]>((resolve, reject) => {
        worker.onmessage = (e: MessageEvent<HostileOutcome[]>) => resolve(e.data);
        worker.onerror = (e) => reject(new Error(e.message));
        worker.postMessage({ db: `hostile-${crypto.randomUUID()}` });
      });
      expect(outcomes.map((o) => o.name)).toHaveLength(3);
      for (const o of outcomes) {
        expect(o.error, o.name).toBeUndefined();
        expect(o.elapsedMs, o.name).toBeLessThan(5_000);
        expect(o.final, o.name).toBe("done");
        expect(o.unanswered, o.name).toBe(0);
      }
      const [globs, ids, nulls] = outcomes as [HostileOutcome, HostileOutcome, HostileOutcome];
      expect(globs.results.slice(1).map((r) => r.status)).toEqual(["success", "error", "error", "error"]);
      expect(globs.results[1]!.content).toBe("No files found matching pattern '**a**a**a**a**a**b'");
      expect(globs.results[2]!.content).toMatch(/^Error: invalid glob pattern '\[z-a\]'/);
      expect(ids.results).toHaveLength(5);
      const texts = ids.results.map((r) => r.content);
      expect(texts.filter((t) => /^Error: the arguments of your call to 'write_file' are not usable/.test(t))).toHaveLength(1);
      expect(texts).toEqual(
        expect.arrayContaining(["Updated file /b.md", "Updated file /c.md", "Updated file /d.md", "Updated file /e.md"]),
      );
      expect(nulls.results.map((r) => r.status)).toEqual(["error", "error", "error", "error"]);
    } finally {
      worker.terminate();
    }
  });
});
