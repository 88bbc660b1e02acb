/**
 * Validation of thread export files (zod), loaded when a thread is imported; the registry's helpers (titles, owned
 * saver threads) are in thread-names.ts and re-exported here.
 */
import { z } from "zod";
import { MAX_AGENT_ARCHIVE_BYTES } from "../../agent-folders/limits.ts";
import { normalizePath } from "../../backends/paths.ts";
import { SUBAGENT_THREAD_SEPARATOR } from "../../backends/runtime.ts";
import { isBackendError } from "../../backends/protocol.ts";
import { err, ok, type Result } from "../../core/result.ts";
import { SHARED_ROUTES } from "../layout.ts";
import type { ThreadExport, ThreadExportV1 } from "../../protocol/threads.ts";
import { threadTitle } from "./thread-names.ts";

export { ownedThreadIds, sortThreads, threadSuffix, threadTitle } from "./thread-names.ts";

/** Most checkpoints, files and bytes an import may bring. */
export const IMPORT_LIMITS = {
  checkpoints: 100_000,
  messages: 1_000_000,
  values: 1_000_000,
  files: 100_000,
  fileBytes: 200 * 1024 * 1024,
  idChars: 200,
} as const;

const isoDate = z.iso.datetime({ offset: true });
const boundedId = z.string().min(1).max(IMPORT_LIMITS.idChars);

const threadInfoSchema = z.object({
  id: boundedId,
  // Capped, not refused: a long title is shortened the way every title is.
  title: z.string().max(100_000).transform(threadTitle),
  createdAt: isoDate,
  updatedAt: isoDate,
  messageCount: z.number().int().min(0).max(10_000_000),
});

const checkpointSchema = z.object({
  threadSuffix: z.union([
    z.literal(""),
    z.string().regex(new RegExp(`^${SUBAGENT_THREAD_SEPARATOR}[A-Za-z0-9_.-]{1,${IMPORT_LIMITS.idChars}}$`)),
  ]),
  checkpointNs: z.string().max(IMPORT_LIMITS.idChars * 4),
  checkpointId: boundedId,
  parentCheckpointId: boundedId.optional(),
  type: z.string().min(1).max(50),
  data: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, "is not base64"),
});

const fileDataSchema = z.object({
  content: z.string(),
  encoding: z.enum(["utf-8", "base64"]),
  createdAt: isoDate,
  modifiedAt: isoDate,
});

/** A thread's agent (its bundle is checked by the agent loader before anything is written: thread-agent-transfer.ts). */
const agentSchema = z.strictObject({
  id: boundedId,
  name: z.string().max(1000),
  hash: z
    .string()
    .regex(/^[0-9a-f]{64}$/, "is not an agent's content hash")
    .optional(),
  bundle: z.string().max(MAX_AGENT_ARCHIVE_BYTES, "is larger than an agent may be").optional(),
});

const exportV1Schema = z.object({
  format: z.literal("deeptab-thread"),
  version: z.literal(1),
  thread: threadInfoSchema,
  checkpoints: z.array(checkpointSchema).max(IMPORT_LIMITS.checkpoints),
  files: z.record(z.string(), fileDataSchema),
  agent: agentSchema.optional(),
});

const index = z.number().int().min(0);
const channelSchema = z.string().min(1).max(IMPORT_LIMITS.idChars);
const placeShape = {
  threadSuffix: checkpointSchema.shape.threadSuffix.optional(),
  checkpointNs: checkpointSchema.shape.checkpointNs.optional(),
};
/**
 * A value of a version 2 export (ExportedData: JSON, base64, one message or a list of them, maybe a delta), with the
 * members `shape` adds (a value's place and channel, a write's task); nothing else.
 */
function dataSchema<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.union([
    z.strictObject({ ...shape, type: z.literal("json"), json: z.unknown(), messages: z.array(index).optional() }),
    z.strictObject({ ...shape, type: z.string().min(1).max(50), base64: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, "is not base64") }),
    z.strictObject({ ...shape, message: index }),
    z.strictObject({ ...shape, messages: z.array(index), base: index.optional(), keep: index.optional() }),
  ]);
}
const patchedSchema = z.union([dataSchema({}), z.strictObject({ patch: z.unknown() })]);
const valueSchema = dataSchema({
  ...placeShape,
  channel: channelSchema,
  version: z.union([z.string().max(IMPORT_LIMITS.idChars), z.number()]),
});
const writeSchema = dataSchema({ task: boundedId, channel: channelSchema });
const checkpointV2Schema = z.strictObject({
  ...placeShape,
  checkpointId: boundedId,
  parentCheckpointId: boundedId.optional(),
  checkpoint: patchedSchema,
  metadata: patchedSchema,
  pendingWrites: z.array(writeSchema).max(IMPORT_LIMITS.checkpoints),
});

const exportSchema = z.discriminatedUnion("version", [
  exportV1Schema,
  z.object({
    format: z.literal("deeptab-thread"),
    version: z.literal(2),
    thread: threadInfoSchema,
    messages: z.array(z.unknown()).max(IMPORT_LIMITS.messages),
    values: z.array(valueSchema).max(IMPORT_LIMITS.values),
    checkpoints: z.array(checkpointV2Schema).max(IMPORT_LIMITS.checkpoints),
    files: z.record(z.string(), fileDataSchema),
    agent: agentSchema.optional(),
  }),
]);

/** Why a file path of an export is refused, if it is. */
function pathProblem(path: string): string | undefined {
  const norm = normalizePath(path);
  if (isBackendError(norm)) return norm.message;
  if (norm !== path) return `'${path}' is not a normalized path`;
  const shared = SHARED_ROUTES.find((route) => path.startsWith(route));
  // Memories and skills belong to every thread, not to one: an import would hide them (or overwrite everyone's).
  if (shared) return `'${path}' is under ${shared}, which every thread shares (a thread's export leaves it out)`;
  return undefined;
}

/**
 * Validates an export (version 2, or 1 as exported until December 2026) before anything is written: its shape (zod), every
 * bound in {@link IMPORT_LIMITS}, and every file path (none under the shared
 * /memories/ or /skills/, which no thread export carries). Titles are capped.
 * The checkpoints' data, and a version 2 history's references, are checked when they are decoded (export-codec.ts).
 */
export function parseThreadExport(data: unknown): Result<ThreadExport | ThreadExportV1, string> {
  const parsed = exportSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return err(`${issue.path.join(".") || "the file"}: ${issue.message}`);
  }
  const value = parsed.data;
  const paths = Object.keys(value.files);
  if (paths.length > IMPORT_LIMITS.files) return err(`more than ${IMPORT_LIMITS.files} files`);
  let bytes = 0;
  for (const path of paths) {
    const problem = pathProblem(path);
    if (problem) return err(`files: ${problem}`);
    bytes += value.files[path]!.content.length;
    if (bytes > IMPORT_LIMITS.fileBytes) return err(`the files hold more than ${IMPORT_LIMITS.fileBytes / 1024 / 1024} MB`);
  }
  return ok(value as ThreadExport | ThreadExportV1);
}
