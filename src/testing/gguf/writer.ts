/**
 * Writes GGUF v3 files: metadata entries, the tensor table and the tensor data, each tensor aligned as
 * llama.cpp requires; or only the header, for a caller streaming a file too big for one array.
 */
import { ggmlByteSize, GgufType, GGUF_DEFAULT_ALIGNMENT, type GgufKV, type GgufTensor } from "./format.ts";

/** IEEE 754 binary32 -> binary16 bits, round to nearest even. */
export function float32ToFloat16Bits(value: number): number {
  const f32 = new Float32Array(1);
  const u32 = new Uint32Array(f32.buffer);
  f32[0] = value;
  const x = u32[0]!;
  const sign = (x >>> 16) & 0x8000;
  const exp = (x >>> 23) & 0xff;
  let mant = x & 0x7fffff;
  if (exp === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  const e = exp - 127 + 15;
  if (e >= 0x1f) return sign | 0x7c00;
  if (e <= 0) {
    if (e < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - e;
    let half = mant >>> shift;
    const rem = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    if (rem > mid || (rem === mid && half & 1)) half++;
    return sign | half;
  }
  let half = (e << 10) | (mant >>> 13);
  const rem = mant & 0x1fff;
  if (rem > 0x1000 || (rem === 0x1000 && half & 1)) half++;
  return sign | half; // a mantissa carry may round up to infinity, which is correct
}

/** A growable little-endian byte buffer. */
class ByteWriter {
  private buf = new Uint8Array(1 << 16);
  private view = new DataView(this.buf.buffer);
  length = 0;
  private static readonly encoder = new TextEncoder();

  private reserve(n: number): void {
    if (this.length + n <= this.buf.length) return;
    let size = this.buf.length;
    while (size < this.length + n) size *= 2;
    const next = new Uint8Array(size);
    next.set(this.buf.subarray(0, this.length));
    this.buf = next;
    this.view = new DataView(next.buffer);
  }
  u8(v: number): void {
    this.reserve(1);
    this.view.setUint8(this.length, v);
    this.length += 1;
  }
  u16(v: number): void {
    this.reserve(2);
    this.view.setUint16(this.length, v, true);
    this.length += 2;
  }
  i32(v: number): void {
    this.reserve(4);
    this.view.setInt32(this.length, v, true);
    this.length += 4;
  }
  u32(v: number): void {
    this.reserve(4);
    this.view.setUint32(this.length, v, true);
    this.length += 4;
  }
  u64(v: number | bigint): void {
    this.reserve(8);
    this.view.setBigUint64(this.length, BigInt(v), true);
    this.length += 8;
  }
  f32(v: number): void {
    this.reserve(4);
    this.view.setFloat32(this.length, v, true);
    this.length += 4;
  }
  bytes(b: Uint8Array): void {
    this.reserve(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  /** GGUF string: u64 byte length, then UTF-8 bytes (no terminator). */
  str(s: string): void {
    const b = ByteWriter.encoder.encode(s);
    this.u64(b.length);
    this.bytes(b);
  }
  padTo(alignment: number): void {
    while (this.length % alignment !== 0) this.u8(0);
  }
  finish(): Uint8Array {
    return this.buf.slice(0, this.length);
  }
}

function writeKV(w: ByteWriter, kv: GgufKV): void {
  w.str(kv.key);
  w.u32(kv.type);
  switch (kv.type) {
    case GgufType.UINT16:
      w.u16(kv.value);
      return;
    case GgufType.UINT32:
      w.u32(kv.value);
      return;
    case GgufType.INT32:
      w.i32(kv.value);
      return;
    case GgufType.FLOAT32:
      w.f32(kv.value);
      return;
    case GgufType.BOOL:
      w.u8(kv.value ? 1 : 0);
      return;
    case GgufType.STRING:
      w.str(kv.value);
      return;
    case GgufType.ARRAY:
      w.u32(kv.itemType);
      w.u64(kv.value.length);
      if (kv.itemType === GgufType.STRING) for (const s of kv.value) w.str(s);
      else if (kv.itemType === GgufType.FLOAT32) for (const v of kv.value) w.f32(v);
      else for (const v of kv.value) w.i32(v);
      return;
  }
}

/** Serializes metadata and tensors as a GGUF v3 file (alignment from `general.alignment`, else 32). */
export function writeGguf(kvs: readonly GgufKV[], tensors: readonly GgufTensor[]): Uint8Array {
  for (const t of tensors) {
    const expected = ggmlByteSize(t.dims, t.type);
    if (t.data.byteLength !== expected) throw new Error(`tensor ${t.name}: ${t.data.byteLength} bytes, expected ${expected}`);
  }
  const { header, offsets, dataSize } = ggufHeader(kvs, tensors);
  const out = new Uint8Array(header.byteLength + dataSize);
  out.set(header);
  tensors.forEach((t, i) => out.set(t.data, header.byteLength + offsets[i]!));
  return out;
}

/**
 * The GGUF header (magic, version, metadata, tensor table, padding) for
 * tensors described by name, dims and type only, with each tensor's offset in
 * the data section that follows. Lets a caller stream a file too big for one
 * array, e.g. `new Blob([header, ...tensorParts])` with zero-padding to
 * `alignment` after each tensor.
 */
export function ggufHeader(
  kvs: readonly GgufKV[],
  tensors: readonly Pick<GgufTensor, "name" | "dims" | "type">[],
): { header: Uint8Array; offsets: number[]; alignment: number; dataSize: number } {
  const alignmentKv = kvs.find((kv) => kv.key === "general.alignment");
  const alignment = alignmentKv && alignmentKv.type === GgufType.UINT32 ? alignmentKv.value : GGUF_DEFAULT_ALIGNMENT;
  const w = new ByteWriter();
  w.bytes(new Uint8Array([0x47, 0x47, 0x55, 0x46])); // "GGUF"
  w.u32(3);
  w.u64(tensors.length);
  w.u64(kvs.length);
  for (const kv of kvs) writeKV(w, kv);
  // llama.cpp requires each offset to be exactly the previous end, padded to the alignment.
  let offset = 0;
  const offsets: number[] = [];
  for (const t of tensors) {
    w.str(t.name);
    w.u32(t.dims.length);
    for (const d of t.dims) w.u64(d);
    w.u32(t.type);
    w.u64(offset);
    offsets.push(offset);
    offset += Math.ceil(ggmlByteSize(t.dims, t.type) / alignment) * alignment;
  }
  w.padTo(alignment);
  return { header: w.finish(), offsets, alignment, dataSize: offset };
}
