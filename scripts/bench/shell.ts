/**
 * The offline shell against the file tools on the same files: `grep -r` in
 * just-bash over 1,000 workspace files (~1 KB each), against the `grep`
 * backend call the grep tool makes, and `find | wc -l` against `glob`.
 * Same process, medians of 5 runs after a warm-up, over two stores:
 *
 * - in memory (MemoryFileStore);
 * - the app's IndexedDB workspace (IndexedDBFiles over fake-indexeddb in
 *   Node): warm (the scope's index already loaded, as during a run) and cold
 *   (a new connection per run, as after a reload: the first read loads the
 *   scope's index from the database).
 *
 *   node --import tsx scripts/bench/shell.ts
 */
import "fake-indexeddb/auto";
import { pathToFileURL } from "node:url";
import type { FileBackend } from "../../src/backends/file-backend.ts";
import { fileDataFromBytes, fileDataToBytes } from "../../src/backends/file-ops.ts";
import { IndexedDBBackend, IndexedDBFiles } from "../../src/backends/indexeddb.ts";
import { MemoryFileStore } from "../../src/backends/memory-store.ts";
import { isBackendError } from "../../src/backends/protocol.ts";
import { ShellBackend } from "../../src/backends/sandbox/shell.ts";

const FILES = 1_000;
const NEEDLE = "NEEDLE42";
const RUNS = 5;

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

function workspaceFiles(): Record<string, ReturnType<typeof fileDataFromBytes>> {
  const now = new Date(0).toISOString();
  const files: Record<string, ReturnType<typeof fileDataFromBytes>> = {};
  for (let i = 0; i < FILES; i++) {
    const lines = Array.from({ length: 16 }, (_, l) => `line ${l} of file ${i}: lorem ipsum dolor sit amet`);
    if (i % 50 === 0) lines[5] = `found ${NEEDLE} here`;
    files[`/src/d${Math.floor(i / 100)}/f${i}.txt`] = fileDataFromBytes(new TextEncoder().encode(lines.join("\n") + "\n"), now);
  }
  return files;
}

/** The shell and the grep tool agree on the match count; returns it. */
async function matches(shell: ShellBackend): Promise<number> {
  const check = await shell.execute(`grep -r ${NEEDLE} /src | wc -l`);
  const tool = await shell.grep(NEEDLE, "/");
  if (isBackendError(tool) || check.output.trim() !== String(tool.length)) throw new Error("shell and grep tool disagree");
  return tool.length;
}

const ms = (t: number) => `${t.toFixed(1)} ms`.padStart(9);
const row = (label: string, shell: number, toolLabel: string, tool: number) =>
  `  ${label.padEnd(21)} ${ms(shell)}   ${toolLabel.padEnd(9)} ${ms(tool)}   ratio ${(shell / tool).toFixed(1)}x`;

export async function benchShell(): Promise<string[]> {
  const files = workspaceFiles();

  // In memory.
  const memory = new ShellBackend({ files: new MemoryFileStore(files) });
  const found = await matches(memory);
  const grepShell = await median(RUNS, () => memory.execute(`grep -r ${NEEDLE} /src`));
  const grepTool = await median(RUNS, () => memory.grep(NEEDLE, "/"));
  const findShell = await median(RUNS, () => memory.execute("find /src -name '*.txt' | wc -l"));
  const globTool = await median(RUNS, () => memory.glob("**/*.txt", "/"));

  // The IndexedDB workspace, as the app builds it (ShellBackend over an IndexedDBBackend).
  const dbName = `bench-shell-${crypto.randomUUID()}`;
  const seed = new IndexedDBBackend(new IndexedDBFiles({ dbName }), "thread");
  const uploaded = await seed.uploadFiles(Object.entries(files).map(([path, data]) => ({ path, content: fileDataToBytes(data) })));
  if (uploaded.some((u) => u.error)) throw new Error("could not seed the IndexedDB workspace");
  await seed.files.close();
  const idbShell = (backend: FileBackend) => new ShellBackend({ files: backend });
  const fresh = () => new IndexedDBBackend(new IndexedDBFiles({ dbName }), "thread");
  const warmBackend = fresh();
  const warm = idbShell(warmBackend);
  if ((await matches(warm)) !== found) throw new Error("the IndexedDB workspace lost files");
  const idbGrepShell = await median(RUNS, () => warm.execute(`grep -r ${NEEDLE} /src`));
  const idbGrepTool = await median(RUNS, () => warm.grep(NEEDLE, "/"));
  /** One cold call: a new connection (as after a reload), the call, then the connection closed. */
  const cold = (call: (shell: ShellBackend) => Promise<unknown>) => async () => {
    const backend = fresh();
    await call(idbShell(backend));
    await backend.files.close();
  };
  const coldGrepShell = await median(
    RUNS,
    cold((sh) => sh.execute(`grep -r ${NEEDLE} /src`)),
  );
  const coldGrepTool = await median(
    RUNS,
    cold((sh) => sh.grep(NEEDLE, "/")),
  );
  await warmBackend.files.close();

  return [
    `offline shell vs file tools (${FILES} files, ${found} matches; medians of ${RUNS})`,
    `  in memory:`,
    row("grep -r (just-bash)", grepShell, "grep tool", grepTool),
    row("find | wc -l", findShell, "glob tool", globTool),
    `  IndexedDB workspace (fake-indexeddb in Node; Chromium's IndexedDB is faster):`,
    row("grep -r, warm", idbGrepShell, "grep tool", idbGrepTool),
    row("grep -r, cold", coldGrepShell, "grep tool", coldGrepTool),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) for (const line of await benchShell()) console.log(line);
