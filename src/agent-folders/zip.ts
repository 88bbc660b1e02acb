/**
 * Agent folders as zips: reading one (GitHub's "Download ZIP", a zipped folder) and writing one (Share).
 *
 * Reading walks the zip's central directory here and inflates each entry with fflate's streaming `Inflate`. fflate's
 * own `unzipSync` is not used because it cannot refuse what a hostile zip does: it does not expose an entry's file
 * attributes (so a symbolic link would arrive as a file holding its target), it inflates into a buffer of the
 * declared size and keeps decoding past it (a lying header costs the whole expansion in time), and it returns the
 * entries as an object keyed by name (two entries of one name overwrite each other; one named `__proto__` is lost).
 * Here the declared sizes are checked against the limits before anything is inflated, every entry is inflated in
 * small steps that stop as soon as it passes its declared size, and the CRC-32 is checked.
 */
import { Inflate, Zip, ZipDeflate } from "fflate";
import { ok, type Result } from "../core/result.ts";
import { readAgentFiles, mib, type AgentFiles } from "./file-map.ts";
import { MAX_AGENT_ARCHIVE_BYTES, MAX_AGENT_BYTES, MAX_AGENT_FILE_BYTES, MAX_AGENT_FILES } from "./limits.ts";
import { problem, refuse, type AgentFolderError, type AgentProblem } from "./problems.ts";

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** Compressed bytes handed to the inflater per step: one step expands to at most ~1,032 times this. */
const INFLATE_STEP = 8 * 1024;
/** The fixed modification time of exported entries, so one folder always zips to the same bytes. */
const EXPORT_TIME = new Date(1980, 0, 1, 12);

interface Entry {
  name: string;
  method: number;
  flags: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
  symlink: boolean;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** Little-endian readers that say when they run past the end (a truncated zip). */
class Reader {
  constructor(readonly bytes: Uint8Array) {}
  fits(at: number, length: number): boolean {
    return at >= 0 && at + length <= this.bytes.length;
  }
  u16(at: number): number {
    return this.bytes[at]! | (this.bytes[at + 1]! << 8);
  }
  u32(at: number): number {
    return (this.u16(at) | (this.u16(at + 2) << 16)) >>> 0;
  }
  u64(at: number): number {
    const value = this.u32(at) + this.u32(at + 4) * 2 ** 32;
    return Number.isSafeInteger(value) ? value : Number.MAX_SAFE_INTEGER;
  }
}

class ZipError extends Error {
  constructor(readonly problem: AgentProblem) {
    super(problem.message);
  }
}

const damaged = (why: string, file?: string) => new ZipError(problem("invalid_zip", why, file === undefined ? {} : { file }));

/** Where the central directory is and how many entries it declares. */
function directory(r: Reader): { offset: number; count: number } {
  const last = r.bytes.length - 22;
  for (let at = last; at >= 0 && at >= last - 0xffff; at--) {
    if (r.u32(at) !== EOCD) continue;
    let count = r.u16(at + 10);
    let offset = r.u32(at + 16);
    if ((count === 0xffff || offset === 0xffffffff) && r.fits(at - 20, 20) && r.u32(at - 20) === ZIP64_LOCATOR) {
      const z = r.u64(at - 12);
      if (!r.fits(z, 56) || r.u32(z) !== ZIP64_EOCD) throw damaged("the zip's ZIP64 directory record is missing");
      count = r.u64(z + 32);
      offset = r.u64(z + 48);
    }
    return { offset, count };
  }
  throw damaged("not a zip file (no end-of-central-directory record)");
}

/** The ZIP64 extended-information field's values, for the sizes and offset the fixed fields mark 0xFFFFFFFF. */
function zip64Fields(r: Reader, extra: number, end: number, entry: Pick<Entry, "size" | "compressed" | "offset">): void {
  for (let at = extra; at + 4 <= end;) {
    const id = r.u16(at);
    const length = r.u16(at + 2);
    if (id === 0x0001) {
      let field = at + 4;
      const next = () => {
        if (field + 8 > at + 4 + length) throw damaged("a ZIP64 field is cut short");
        const value = r.u64(field);
        field += 8;
        return value;
      };
      if (entry.size === 0xffffffff) entry.size = next();
      if (entry.compressed === 0xffffffff) entry.compressed = next();
      if (entry.offset === 0xffffffff) entry.offset = next();
      return;
    }
    at += 4 + length;
  }
}

function decodeName(raw: Uint8Array): string | undefined {
  try {
    return utf8.decode(raw);
  } catch {
    return undefined;
  }
}

/** Every entry of the central directory, without inflating anything. */
function entries(r: Reader, problems: AgentProblem[]): Entry[] {
  const { offset, count } = directory(r);
  // A cheap bound before walking: directories may double the count of files, no more.
  if (count > MAX_AGENT_FILES * 4) {
    throw new ZipError(
      problem(
        "too_large",
        `the zip holds ${count.toLocaleString("en")} entries; an agent holds at most ${MAX_AGENT_FILES.toLocaleString("en")} files`,
      ),
    );
  }
  const out: Entry[] = [];
  let at = offset;
  for (let i = 0; i < count; i++) {
    if (!r.fits(at, 46) || r.u32(at) !== CENTRAL) throw damaged("the zip's central directory is damaged");
    const madeBy = r.u16(at + 4) >> 8;
    const nameLength = r.u16(at + 28);
    const extraLength = r.u16(at + 30);
    const commentLength = r.u16(at + 32);
    if (!r.fits(at + 46, nameLength + extraLength + commentLength)) throw damaged("the zip's central directory is cut short");
    const rawName = r.bytes.subarray(at + 46, at + 46 + nameLength);
    const name = decodeName(rawName);
    const mode = r.u32(at + 38) >>> 16;
    const entry: Entry = {
      name: name ?? "",
      method: r.u16(at + 10),
      flags: r.u16(at + 8),
      crc: r.u32(at + 16),
      compressed: r.u32(at + 20),
      size: r.u32(at + 24),
      offset: r.u32(at + 42),
      // Unix (3) and macOS (19) keep the file mode in the high half of the external attributes.
      symlink: (madeBy === 3 || madeBy === 19) && (mode & 0o170000) === 0o120000,
    };
    zip64Fields(r, at + 46 + nameLength, at + 46 + nameLength + extraLength, entry);
    at += 46 + nameLength + extraLength + commentLength;
    if (name === undefined) {
      const shown = [...rawName.subarray(0, 40)].map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : "?")).join("");
      problems.push(problem("invalid_utf8", `a file name in the zip is not valid UTF-8 (${shown})`));
      continue;
    }
    out.push(entry);
  }
  return out;
}

/** CRC-32 (IEEE), as zips store it. */
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** An entry's bytes: stored or inflated in steps, never past its declared size. */
function contentOf(r: Reader, entry: Entry): Uint8Array {
  const at = entry.offset;
  if (!r.fits(at, 30) || r.u32(at) !== LOCAL) throw damaged("its local header is missing", entry.name);
  const start = at + 30 + r.u16(at + 26) + r.u16(at + 28);
  if (!r.fits(start, entry.compressed)) throw damaged("its data runs past the end of the zip", entry.name);
  const data = r.bytes.subarray(start, start + entry.compressed);
  let out: Uint8Array;
  if (entry.method === 0) {
    if (entry.compressed !== entry.size) throw damaged("a stored entry whose sizes differ", entry.name);
    out = data.slice();
  } else {
    out = new Uint8Array(entry.size);
    let produced = 0;
    let finished = false;
    const inflater = new Inflate((chunk, final) => {
      if (produced + chunk.length > entry.size) {
        throw new ZipError(
          problem("too_large", `it expands past the ${entry.size.toLocaleString("en")} bytes the zip declares for it (a zip bomb?)`, {
            file: entry.name,
          }),
        );
      }
      out.set(chunk, produced);
      produced += chunk.length;
      finished ||= final;
    });
    try {
      for (let i = 0; i < data.length || i === 0; i += INFLATE_STEP) {
        const end = Math.min(i + INFLATE_STEP, data.length);
        inflater.push(data.subarray(i, end), end === data.length);
      }
    } catch (cause) {
      if (cause instanceof ZipError) throw cause;
      throw damaged(`its compressed data is damaged (${cause instanceof Error ? cause.message : String(cause)})`, entry.name);
    }
    if (!finished || produced !== entry.size) throw damaged(`it holds ${produced} bytes where the zip declares ${entry.size}`, entry.name);
  }
  if (crc32(out) !== entry.crc) throw damaged("its checksum does not match (a damaged download?)", entry.name);
  return out;
}

/**
 * The entries of a zip, checked before any is inflated: refused are a zip over MAX_AGENT_ARCHIVE_BYTES, more than
 * MAX_AGENT_FILES files, declared sizes over the per-file or total limit, symbolic links, encrypted entries, unknown
 * compression methods, names that are not UTF-8; then each entry is inflated in steps and refused as soon as it
 * passes its declared size, or when its size or CRC-32 do not match. Paths are left to {@link readAgentFiles}.
 */
function zipEntries(zip: Uint8Array): Result<Array<[string, Uint8Array]>, AgentFolderError> {
  if (zip.length > MAX_AGENT_ARCHIVE_BYTES) {
    return refuse([problem("too_large", `the zip is ${mib(zip.length)}; an agent's zip may be at most ${mib(MAX_AGENT_ARCHIVE_BYTES)}`)]);
  }
  const r = new Reader(zip);
  const problems: AgentProblem[] = [];
  try {
    const files = entries(r, problems).filter((e) => !(e.name.endsWith("/") && e.size === 0 && !e.symlink));
    if (files.length > MAX_AGENT_FILES) {
      return refuse([
        problem(
          "too_large",
          `the zip holds ${files.length.toLocaleString("en")} files; an agent holds at most ${MAX_AGENT_FILES.toLocaleString("en")}`,
        ),
      ]);
    }
    let declared = 0;
    for (const e of files) {
      const at = { file: e.name };
      if (e.symlink) problems.push(problem("symlink", "a symbolic link (it could point anywhere); put the file itself in the zip", at));
      else if (e.flags & 1) problems.push(problem("invalid_zip", "an encrypted entry; zip the folder without a password", at));
      else if (e.method !== 0 && e.method !== 8)
        problems.push(problem("invalid_zip", `compression method ${e.method}; use stored or deflate (the usual)`, at));
      else if (e.size > MAX_AGENT_FILE_BYTES)
        problems.push(problem("too_large", `${mib(e.size)}; one file holds at most ${mib(MAX_AGENT_FILE_BYTES)}`, at));
      declared += e.size;
    }
    if (declared > MAX_AGENT_BYTES)
      problems.push(problem("too_large", `the zip expands to ${mib(declared)}; an agent holds at most ${mib(MAX_AGENT_BYTES)}`));
    if (problems.length) return refuse(problems);
    return ok(files.map((e): [string, Uint8Array] => [e.name, e.name.endsWith("/") ? new Uint8Array(0) : contentOf(r, e)]));
  } catch (cause) {
    if (cause instanceof ZipError) return refuse([...problems, cause.problem]);
    return refuse([
      ...problems,
      problem("invalid_zip", `the zip cannot be read (${cause instanceof Error ? cause.message : String(cause)})`),
    ]);
  }
}

/** An agent folder from a zip: `zipEntries`, then {@link readAgentFiles} (paths, duplicates, one top folder unwrapped). */
export function unzipAgent(zip: Uint8Array): Result<AgentFiles, AgentFolderError> {
  const found = zipEntries(zip);
  return found.ok ? readAgentFiles(found.value) : found;
}

/**
 * A zip of an agent folder (deflated, fixed timestamps: the same files always give the same bytes), its files under
 * `folder/` when one is given (as GitHub's zips are; unzipping then makes one folder).
 */
export function zipAgent(files: AgentFiles, folder?: string): Uint8Array {
  const chunks: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, data) => {
    if (error) failure = error;
    else chunks.push(data);
  });
  for (const [path, bytes] of files) {
    const entry = new ZipDeflate(folder ? `${folder}/${path}` : path, { level: 6 });
    entry.mtime = EXPORT_TIME;
    zip.add(entry);
    entry.push(bytes, true);
  }
  zip.end();
  if (failure) throw failure;
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
