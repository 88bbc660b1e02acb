/**
 * The in-tab model's file limit and how a model's URL names its files and its
 * id: what the model catalog and dropped files need at once, apart from the
 * model store (model-store.ts, which re-exports these), whose code loads with
 * the first listing or download.
 */

/** wllama reads one file of at most this many bytes (an ArrayBuffer limit): bigger models must be split. */
export const MAX_FILE_BYTES = 2 * 1024 * 1024 * 1024;

/** The shard URLs of a split GGUF given its first shard (`x-00001-of-00003.gguf`), else the URL alone. */
export function shardUrls(url: string): string[] {
  const m = /^(.*-)(\d{5})-of-(\d{5})(\.gguf(?:\?.*)?)$/.exec(url);
  if (!m) return [url];
  const count = Number(m[3]);
  return Array.from({ length: count }, (_, i) => `${m[1]}${String(i + 1).padStart(5, "0")}-of-${m[3]}${m[4]}`);
}

/** A directory-safe id for a URL. */
export function modelIdFor(url: string): string {
  const base = url.split("?")[0]!.split("/").pop() ?? "model";
  let h = 0;
  for (let i = 0; i < url.length; i++) h = (Math.imul(h, 31) + url.charCodeAt(i)) | 0;
  return `${base.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 80)}-${(h >>> 0).toString(36)}`;
}
