/**
 * Thread exports as a thread grows: a demo thread whose turns carry about 1 KB (src/testing/export-size.ts),
 * exported at 4, 8, 16 and 32 turns, against the raw bytes of its messages and files and against what a version 1
 * export (every checkpoint whole, in base64) weighs. Goal (issue 44): ≤ 3× raw, linear in the thread's length.
 *
 *   node --import tsx scripts/bench/exports.ts
 */
import "fake-indexeddb/auto";
import { pathToFileURL } from "node:url";
import { measureExports } from "../../src/testing/export-size.ts";

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`.padStart(10);

export async function benchExports(): Promise<string[]> {
  const sizes = await measureExports([4, 8, 16, 32]);
  const lines = [
    "thread exports: demo thread, ~1 KB a turn (Node, fake-indexeddb)",
    "  turns        raw     export  (x raw)   per turn      v1 export  (x raw)",
  ];
  let before = { turns: 0, bytes: 0 };
  for (const s of sizes) {
    const perTurn = (s.bytes - before.bytes) / (s.turns - before.turns);
    lines.push(
      `  ${String(s.turns).padStart(5)}  ${kb(s.raw)}  ${kb(s.bytes)}  ${(s.bytes / s.raw).toFixed(2).padStart(6)}x  ${kb(perTurn)}  ` +
        `${kb(s.v1).padStart(13)}  ${(s.v1 / s.raw).toFixed(2).padStart(6)}x`,
    );
    before = s;
  }
  lines.push("  goal: export ≤ 3x raw, linear in turns (per turn flat); v1 grew with the square");
  return lines;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) for (const line of await benchExports()) console.log(line);
