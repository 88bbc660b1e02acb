/**
 * The single-file JSON bundle of an agent folder, for links and sharing where a zip is awkward:
 *
 * ```json
 * { "format": "deeptab-agent", "version": 1, "name": "research",
 *   "files": [{ "path": "AGENTS.md", "text": "You are …" }, { "path": "files/logo.png", "base64": "iVBORw0…" }] }
 * ```
 *
 * A file that is valid UTF-8 is written as `text` (byte for byte, a BOM included), any other as `base64`; reading
 * one back gives the same bytes, so a bundle and the folder it came from have one content hash. Files are a list,
 * not an object keyed by path, so no path is special (`__proto__`) and a duplicate cannot hide.
 */
import { z } from "zod";
import { base64ToBytes, bytesToBase64 } from "../backends/file-ops.ts";
import { ok, type Result } from "../core/result.ts";
import { LONE_SURROGATE, readAgentFiles, mib, type AgentFiles } from "./file-map.ts";
import { MAX_AGENT_ARCHIVE_BYTES, MAX_AGENT_FILES } from "./limits.ts";
import { problem, refuse, type AgentFolderError } from "./problems.ts";

export const AGENT_BUNDLE_FORMAT = "deeptab-agent";
export const AGENT_BUNDLE_VERSION = 1;

/** One file of a bundle: its path in the folder and its content as text or base64. */
export type AgentBundleFile = { path: string; text: string } | { path: string; base64: string };

/** The JSON bundle's shape. */
export interface AgentBundle {
  format: typeof AGENT_BUNDLE_FORMAT;
  version: typeof AGENT_BUNDLE_VERSION;
  /** The agent's name, for people reading the file (agent.yaml's is the one that counts). */
  name?: string;
  files: AgentBundleFile[];
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

const bundleSchema = z.object({
  format: z.literal(AGENT_BUNDLE_FORMAT, { error: `"format" must be "${AGENT_BUNDLE_FORMAT}"` }),
  version: z.literal(AGENT_BUNDLE_VERSION, { error: `"version" must be ${AGENT_BUNDLE_VERSION} (a newer deeptab wrote this bundle?)` }),
  name: z.string().optional(),
  files: z
    .array(
      z.union([
        z.strictObject({ path: z.string(), text: z.string().refine((t) => !LONE_SURROGATE.test(t), "is not valid Unicode text") }),
        z.strictObject({ path: z.string(), base64: z.string().regex(BASE64, "is not base64") }),
      ]),
    )
    .max(MAX_AGENT_FILES, `more than ${MAX_AGENT_FILES.toLocaleString("en")} files; an agent holds at most that many`),
});

const exact = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

function asText(bytes: Uint8Array): string | undefined {
  try {
    return exact.decode(bytes);
  } catch {
    return undefined;
  }
}

/** The bundle of a folder, as JSON text (two-space indented, files in the folder's order). */
export function agentBundle(files: AgentFiles, name?: string): string {
  const entries: AgentBundleFile[] = [...files].map(([path, bytes]) => {
    const text = asText(bytes);
    return text === undefined ? { path, base64: bytesToBase64(bytes) } : { path, text };
  });
  const bundle: AgentBundle = { format: AGENT_BUNDLE_FORMAT, version: AGENT_BUNDLE_VERSION, ...(name ? { name } : {}), files: entries };
  return JSON.stringify(bundle, null, 2);
}

/** A bundle's files as entries (path → bytes), its shape checked; paths are left to {@link readAgentFiles}. */
function bundleEntries(json: string | Uint8Array): Result<Array<[string, Uint8Array]>, AgentFolderError> {
  const size = typeof json === "string" ? json.length : json.length;
  if (size > MAX_AGENT_ARCHIVE_BYTES) {
    return refuse([problem("too_large", `the bundle is ${mib(size)}; an agent's bundle may be at most ${mib(MAX_AGENT_ARCHIVE_BYTES)}`)]);
  }
  let text: string;
  if (typeof json === "string") text = json;
  else {
    const decoded = asText(json);
    if (decoded === undefined) return refuse([problem("invalid_bundle", "the bundle is not UTF-8 text")]);
    text = decoded;
  }
  let data: unknown;
  try {
    data = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (cause) {
    return refuse([problem("invalid_bundle", `the bundle is not JSON (${cause instanceof Error ? cause.message : String(cause)})`)]);
  }
  const parsed = bundleSchema.safeParse(data);
  if (!parsed.success) {
    return refuse(
      parsed.error.issues.map((issue) => {
        const field = issue.path.map(String).join(".");
        return problem("invalid_bundle", issue.message, field ? { field } : {});
      }),
    );
  }
  return ok(parsed.data.files.map((f): [string, Uint8Array] => [f.path, "text" in f ? encoder.encode(f.text) : base64ToBytes(f.base64)]));
}

/** An agent folder from its JSON bundle: `bundleEntries`, then {@link readAgentFiles}. */
export function parseAgentBundle(json: string | Uint8Array): Result<AgentFiles, AgentFolderError> {
  const found = bundleEntries(json);
  return found.ok ? readAgentFiles(found.value) : found;
}
