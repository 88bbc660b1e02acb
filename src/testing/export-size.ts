/**
 * What a thread export weighs as a thread grows (the export test and `npm run bench -- exports`): a demo thread in
 * Node over fake-indexeddb, its turns carrying about 1 KB each, exported after each count of turns in
 * `points`. Beside each export: the raw bytes of its messages (the serde's bytes of each message of the last
 * checkpoint, once) and files, and what a version 1 export (every checkpoint whole, in base64) would have weighed.
 */
import type { BaseMessage } from "@langchain/core/messages";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
import { IndexedDBSaver } from "../storage/indexeddb-saver.ts";
import type { ThreadExport } from "../protocol/threads.ts";
import { collectRun, openWorkerApi } from "./worker-api.ts";

/**
 * About 1 KB a message, as the checkpoint bench's tool results: a turn's bookkeeping (ten checkpoints of channel
 * versions and task ids, a few hundred bytes each, in the store as in the export) outweighs the demo's one-line
 * messages, so the ratio to raw bytes is taken on messages of a real conversation's size.
 */
const PARAGRAPH = "The quarterly figures, region by region, with the notes from each team lead. ".repeat(13);

export interface ExportSize {
  turns: number;
  /** The export's JSON, in bytes. */
  bytes: number;
  /** The messages' and files' own bytes: the floor. */
  raw: number;
  /** A version 1 export of the same thread. */
  v1: number;
  exported: ThreadExport;
}

/** Runs one demo thread to each count of turns in `points` (ascending), exporting it at each. */
export async function measureExports(points: number[]): Promise<ExportSize[]> {
  const { api, db } = openWorkerApi();
  const saver = new IndexedDBSaver(`${db}-checkpoints`);
  const serde = new JsonPlusSerializer();
  const encoder = new TextEncoder();
  const out: ExportSize[] = [];
  try {
    for (const turns of points) {
      for (let t = out.at(-1)?.turns ?? 0; t < turns; t++)
        await (
          await collectRun((cb) => api.startRun("t", { text: `note ${t}: ${PARAGRAPH}` }, cb))
        ).done;
      const result = await api.exportThread("t");
      if (!result.ok) throw new Error(result.error.message);
      const exported = JSON.parse(JSON.stringify(result.value)) as ThreadExport;
      let raw = 0;
      const last = await saver.getTuple({ configurable: { thread_id: "t", checkpoint_ns: "" } });
      for (const m of (last?.checkpoint.channel_values.messages ?? []) as BaseMessage[]) raw += (await serde.dumpsTyped(m))[1].byteLength;
      for (const file of Object.values(exported.files)) raw += encoder.encode(file.content).byteLength;
      let v1 = 0;
      for await (const tuple of saver.list({ configurable: { thread_id: "t" } })) {
        const [, bytes] = await serde.dumpsTyped({
          checkpoint: tuple.checkpoint,
          metadata: tuple.metadata,
          pendingWrites: tuple.pendingWrites ?? [],
        });
        v1 += Math.ceil(bytes.byteLength / 3) * 4;
      }
      out.push({ turns, bytes: encoder.encode(JSON.stringify(exported)).byteLength, raw, v1, exported });
    }
  } finally {
    await saver.close();
  }
  return out;
}
