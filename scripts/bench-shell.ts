/**
 * The offline shell against the file tools on the same files: `grep -r` in
 * just-bash over 1,000 workspace files (~1 KB each), against the `grep`
 * backend call the grep tool makes, and `find | wc -l` against `glob`.
 * Same store (in memory), same process, medians of 5 runs after a warm-up.
 *
 *   node --import tsx scripts/bench-shell.ts
 */
import { pathToFileURL } from "node:url";
import { fileDataFromBytes } from "../src/backends/file-ops.ts";
import { MemoryFileStore } from "../src/backends/memory-store.ts";
import { isBackendError } from "../src/backends/protocol.ts";
import { ShellBackend } from "../src/backends/sandbox/shell.ts";

const FILES = 1_000;
const NEEDLE = "NEEDLE42";

async function median(n: number, run: () => Promise<unknown>): Promise<number> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return times.sort((a, b) => a - b)[Math.floor(n / 2)]!;
}

export async function benchShell(): Promise<string[]> {
  const now = new Date(0).toISOString();
  const files: Record<string, ReturnType<typeof fileDataFromBytes>> = {};
  for (let i = 0; i < FILES; i++) {
    const lines = Array.from({ length: 16 }, (_, l) => `line ${l} of file ${i}: lorem ipsum dolor sit amet`);
    if (i % 50 === 0) lines[5] = `found ${NEEDLE} here`;
    files[`/src/d${Math.floor(i / 100)}/f${i}.txt`] = fileDataFromBytes(new TextEncoder().encode(lines.join("\n") + "\n"), now);
  }
  const shell = new ShellBackend({ files: new MemoryFileStore(files) });
  const check = await shell.execute(`grep -r ${NEEDLE} /src | wc -l`);
  const tool = await shell.grep(NEEDLE, "/");
  if (isBackendError(tool) || check.output.trim() !== String(tool.length)) throw new Error("shell and grep tool disagree");
  const grepShell = await median(5, () => shell.execute(`grep -r ${NEEDLE} /src`));
  const grepTool = await median(5, () => shell.grep(NEEDLE, "/"));
  const findShell = await median(5, () => shell.execute("find /src -name '*.txt' | wc -l"));
  const globTool = await median(5, () => shell.glob("**/*.txt", "/"));
  const ms = (t: number) => `${t.toFixed(1)} ms`;
  return [
    `offline shell vs file tools (${FILES} files, ${tool.length} matches; medians of 5)`,
    `  grep -r (just-bash)   ${ms(grepShell)}   grep tool ${ms(grepTool)}   ratio ${(grepShell / grepTool).toFixed(1)}x`,
    `  find | wc -l          ${ms(findShell)}   glob tool ${ms(globTool)}   ratio ${(findShell / globTool).toFixed(1)}x`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) for (const line of await benchShell()) console.log(line);
