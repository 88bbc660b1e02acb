/**
 * Opening an agent from a link: a zip of 50 files, 1 MB (incompressible starter data, so the zip is as large as its
 * files), served by a loopback host with CORS; previewAgentUrl (download through the request log, unzip, validate,
 * hash, review) then useAgent (one IndexedDB transaction), through the worker API over fake-indexeddb (Node: slower
 * than Chromium's IndexedDB, so an upper bound). The baseline is the bare download of the same bytes.
 *
 *   node --import tsx scripts/bench/agents.ts
 */
import "fake-indexeddb/auto";
import { pathToFileURL } from "node:url";
import { zipAgent } from "../../src/agent-folders/zip.ts";
import { putAgentFile } from "../../src/testing/agent-link-files.ts";
import { startAgentLinkServer } from "../../src/testing/agent-link-server.ts";
import { openWorkerApi } from "../../src/testing/worker-api.ts";

const FILES = 50;
const BYTES = 1024 * 1024;
const RUNS = 5;

/** Deterministic incompressible bytes (xorshift). */
function noise(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed | 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

function folder(): Map<string, Uint8Array> {
  const encoder = new TextEncoder();
  const files = new Map<string, Uint8Array>([
    ["agent.yaml", encoder.encode("name: Bench agent\ndescription: Fifty files.\n")],
    ["AGENTS.md", encoder.encode("You are the bench agent.\n")],
  ]);
  const each = Math.floor(BYTES / (FILES - 2));
  for (let i = 0; i < FILES - 2; i++) files.set(`files/data/part-${String(i).padStart(2, "0")}.bin`, noise(each, i + 1));
  return files;
}

const median = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;

export async function benchAgents(): Promise<string[]> {
  const server = await startAgentLinkServer();
  try {
    const zip = zipAgent(folder(), "bench-agent");
    const url = await putAgentFile(server.url, "bench/agent.zip", zip);
    const { api } = openWorkerApi(`bench-agents-${crypto.randomUUID()}`);
    const download: number[] = [];
    const preview: number[] = [];
    const use: number[] = [];
    for (let i = 0; i <= RUNS; i++) {
      let start = performance.now();
      const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
      if (bytes.length !== zip.length) throw new Error("short download");
      const tDownload = performance.now() - start;
      start = performance.now();
      const review = await api.previewAgentUrl(url);
      if (!review.ok) throw new Error(review.error.message);
      const tPreview = performance.now() - start;
      start = performance.now();
      const used = await api.useAgent(review.value.summary.hash!);
      if (!used.ok) throw new Error(used.error.message);
      const tUse = performance.now() - start;
      // The first run warms the JIT and the connection.
      if (i === 0) continue;
      download.push(tDownload);
      preview.push(tPreview);
      use.push(tUse);
    }
    const total = median(preview.map((p, i) => p + use[i]!));
    const size = `${(zip.length / 1024 / 1024).toFixed(2)} MB`;
    return [
      `open an agent from a link: zip of ${FILES} files, ${size} (loopback host, fake-indexeddb; median of ${RUNS})`,
      `preview (download, unzip, validate, hash, review) ${median(preview).toFixed(0)} ms + use (store) ${median(use).toFixed(0)} ms = ` +
        `${total.toFixed(0)} ms; the bare download ${median(download).toFixed(1)} ms = ${(total / median(download)).toFixed(1)}x`,
    ];
  } finally {
    await server.close();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const line of await benchAgents()) console.log(line);
}
