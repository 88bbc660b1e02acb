/**
 * The content hash of an agent folder: what pins an agent (a link's agent is asked about again when its hash
 * changes) and tells two copies apart. It depends on the files alone (normalized paths and bytes), never on where
 * they came from, so a folder, its zip and its JSON bundle hash alike.
 *
 * The hash is the SHA-256 of the folder's `sha256sum` listing: one line `<sha-256 of the file, hex>  <path>\n` per
 * file, in code point order of the paths (WebCrypto, in browsers and Node alike). The same value comes from a shell in
 * the folder, so anyone can check one:
 *
 * ```sh
 * find . -type f ! -name .DS_Store | cut -c3- | LC_ALL=C sort | xargs -d '\n' sha256sum | sha256sum
 * ```
 */
import { compareCodePoints, type AgentFiles } from "./file-map.ts";

const encoder = new TextEncoder();

function hex(digest: ArrayBuffer): string {
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** SHA-256 of bytes, hex. */
async function sha256(bytes: Uint8Array): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
}

/** The folder's `sha256sum` listing (see the module comment). */
export async function agentChecksums(files: AgentFiles): Promise<string> {
  const paths = [...files.keys()].sort(compareCodePoints);
  const sums = await Promise.all(paths.map((path) => sha256(files.get(path)!)));
  return paths.map((path, i) => `${sums[i]}  ${path}\n`).join("");
}

/** The content hash of an agent folder: 64 hex digits (see the module comment). */
export async function hashAgentFiles(files: AgentFiles): Promise<string> {
  return sha256(encoder.encode(await agentChecksums(files)));
}
