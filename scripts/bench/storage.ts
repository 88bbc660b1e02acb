/**
 * Workspace file storage: 10,000 files of ~1 KB written through
 * IndexedDBBackend one `write` per call (as the tools do), the same files in
 * one `uploadFiles` transaction, then a literal grep over all of them, cold
 * (a new connection: the scope's index is loaded with one getAll) and warm
 * (index in memory), against an in-memory Map doing the same search.
 * Runs in Node over fake-indexeddb, which is much slower than a browser's
 * IndexedDB, so the IndexedDB times are upper bounds.
 *
 *   node --import tsx scripts/bench/storage.ts
 */
import "fake-indexeddb/auto";
import { pathToFileURL } from "node:url";
import { grepText } from "../../src/backends/file-ops.ts";
import { IndexedDBBackend, IndexedDBFiles } from "../../src/backends/indexeddb.ts";
import { isBackendError, type GrepMatch } from "../../src/backends/protocol.ts";

const FILES = 10_000;
const NEEDLE = "NEEDLE(42)";
const NOTE = "fake-indexeddb (Node) is much slower than Chromium's IndexedDB; real-browser times are lower";

/** ~1 KB of text; every 100th file holds the needle on one line. */
function content(i: number): string {
  const lines = Array.from({ length: 16 }, (_, l) => `line ${l} of file ${i}: ${"lorem ipsum dolor ".repeat(3)}`);
  if (i % 100 === 0) lines[7] = `found ${NEEDLE} in ${i}`;
  return lines.join("\n") + "\n";
}

const pathOf = (i: number) => `/src/m${Math.floor(i / 100)}/f${i}.ts`;

async function time<T>(run: () => Promise<T>): Promise<[number, T]> {
  const start = performance.now();
  const result = await run();
  return [performance.now() - start, result];
}

function mapGrep(files: Map<string, string>, pattern: string): GrepMatch[] {
  const out: GrepMatch[] = [];
  for (const [path, text] of files) grepText(path, text, pattern, out);
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
}

const ms = (t: number) => `${t.toFixed(0)} ms`;

/** Median of `n` timed runs, after one untimed warm-up run (JIT). */
async function median<T>(n: number, run: () => Promise<T>): Promise<[number, T]> {
  let [, result] = await time(run);
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const [t, r] = await time(run);
    times.push(t);
    result = r;
  }
  return [times.sort((a, b) => a - b)[Math.floor(n / 2)]!, result];
}

export async function benchStorage(): Promise<string[]> {
  const dbName = "bench-files";
  const texts = Array.from({ length: FILES }, (_, i) => content(i));
  const bytes = texts.reduce((n, t) => n + t.length, 0);
  const lines: string[] = [`${FILES} files, ${(bytes / FILES).toFixed(0)} B each on average (${NOTE})`];

  const files = new IndexedDBFiles({ dbName });
  const one = new IndexedDBBackend(files, "one-by-one");
  await one.ls("/"); // load the (empty) index, so writes keep it in sync as in a session
  const [tWrite] = await time(async () => {
    for (let i = 0; i < FILES; i++) {
      const out = await one.write(pathOf(i), texts[i]!);
      if (isBackendError(out)) throw new Error(out.message);
    }
  });
  lines.push(`write x${FILES}, one transaction each: ${ms(tWrite)} (${((tWrite / FILES) * 1000).toFixed(0)} µs per write)`);

  const batched = new IndexedDBBackend(files, "batched");
  const encoder = new TextEncoder();
  const uploads = texts.map((t, i) => ({ path: pathOf(i), content: encoder.encode(t) }));
  const [tUpload, outcomes] = await time(() => batched.uploadFiles(uploads));
  if (outcomes.some((o) => o.error)) throw new Error("upload failed");
  lines.push(
    `uploadFiles of ${FILES} in one transaction: ${ms(tUpload)} (${(tWrite / tUpload).toFixed(1)}x faster than one write per call)`,
  );
  await files.close();

  // Flat copies (decoded bytes), like the strings IndexedDB hands back, not concatenation ropes.
  const decoder = new TextDecoder();
  const map = new Map(uploads.map((u) => [u.path, decoder.decode(u.content)]));
  const [tMap, expected] = await median(5, async () => mapGrep(map, NEEDLE));

  const cold = new IndexedDBBackend(new IndexedDBFiles({ dbName }), "one-by-one");
  const [tCold, coldMatches] = await time(() => cold.grep(NEEDLE));
  const [tWarm, warmMatches] = await median(5, () => cold.grep(NEEDLE));
  for (const got of [coldMatches, warmMatches]) {
    if (isBackendError(got) || JSON.stringify(got) !== JSON.stringify(expected))
      throw new Error("grep results differ from the in-memory map");
  }
  lines.push(
    `grep "${NEEDLE}" over ${FILES} files (${expected.length} matches): in-memory map ${tMap.toFixed(1)} ms (median of 5); ` +
      `IndexedDBBackend cold (loads the index: one getAll) ${ms(tCold)} = ${(tCold / tMap).toFixed(0)}x; ` +
      `warm (index in memory, median of 5) ${tWarm.toFixed(1)} ms = ${(tWarm / tMap).toFixed(1)}x`,
  );
  const [tGlob, globbed] = await time(() => cold.glob("**/f9*.ts"));
  if (isBackendError(globbed)) throw new Error(globbed.message);
  lines.push(`glob "**/f9*.ts" (warm): ${globbed.length} files in ${tGlob.toFixed(1)} ms`);
  await cold.files.close();
  return lines;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await benchStorage()) console.log(line);
}
