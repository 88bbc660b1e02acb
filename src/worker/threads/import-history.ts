/**
 * An import's checkpoints, decoded and checked before anything is written: version 2 through the codec
 * (export-codec.ts), version 1 (whole checkpoints in base64, exported until December 2026) one by one. Every
 * checkpoint's messages and files pass `checkpointProblem`, so a crafted file is refused naming its first problem.
 * Loaded with the first import.
 */
import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";
import { base64ToBytes } from "../../backends/file-ops.ts";
import { err, ok, type Result } from "../../core/result.ts";
import type { ExportedCheckpoint, ThreadExport, ThreadExportV1 } from "../../protocol/threads.ts";
import { decodeHistory, type ImportedCheckpoint } from "./export-codec.ts";
import { checkpointProblem } from "./stored-state.ts";

const invalid = (problem: string) => `This file is not a valid deeptab thread export (${problem}).`;

/** The checkpoints of a validated export (thread-export.ts), whole and checked; or the refusal to show. */
export async function decodeImport(
  parsed: ThreadExport | ThreadExportV1,
  serde: SerializerProtocol,
): Promise<Result<ImportedCheckpoint[], string>> {
  const decoded = parsed.version === 1 ? await decodeV1(parsed.checkpoints, serde) : await decodeV2(parsed, serde);
  if (!decoded.ok) return decoded;
  for (const cp of decoded.value) {
    const problem = checkpointProblem(cp);
    if (problem) return err(invalid(`checkpoint ${cp.checkpoint.id}: ${problem}`));
  }
  return decoded;
}

async function decodeV2(parsed: ThreadExport, serde: SerializerProtocol): Promise<Result<ImportedCheckpoint[], string>> {
  try {
    const decoded = await decodeHistory(parsed, serde);
    return decoded.ok ? decoded : err(invalid(decoded.error));
  } catch {
    return err(invalid("its history cannot be read"));
  }
}

async function decodeV1(checkpoints: ExportedCheckpoint[], serde: SerializerProtocol): Promise<Result<ImportedCheckpoint[], string>> {
  const out: ImportedCheckpoint[] = [];
  for (const cp of checkpoints) {
    const value = await decodeV1Checkpoint(cp, serde);
    if (!value) return err(`Checkpoint ${cp.checkpointId} of the export cannot be read.`);
    out.push(value);
  }
  return ok(out);
}

async function decodeV1Checkpoint(cp: ExportedCheckpoint, serde: SerializerProtocol): Promise<ImportedCheckpoint | null> {
  try {
    const value = (await serde.loadsTyped(cp.type, base64ToBytes(cp.data))) as Partial<ImportedCheckpoint> | null;
    if (!value?.checkpoint || value.checkpoint.id !== cp.checkpointId || !value.metadata || !Array.isArray(value.pendingWrites))
      return null;
    const { checkpoint, metadata, pendingWrites } = value;
    return {
      threadSuffix: cp.threadSuffix,
      checkpointNs: cp.checkpointNs,
      ...(cp.parentCheckpointId ? { parentCheckpointId: cp.parentCheckpointId } : {}),
      checkpoint,
      metadata,
      pendingWrites,
    };
  } catch {
    return null;
  }
}
