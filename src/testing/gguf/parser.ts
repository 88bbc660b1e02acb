/** Reads a GGUF file back (header, metadata, tensor table), for tests and for inspecting real models. */
import {
  GgufType,
  GGUF_DEFAULT_ALIGNMENT,
  tensorByteSize,
  type GgufScalar,
  type GgufTensorInfo,
  type GgufValue,
  type ParsedGguf,
} from "./format.ts";

/** Reads a GGUF (v2 or v3) header, metadata and tensor table. Throws on a malformed file. */
export function parseGguf(bytes: Uint8Array): ParsedGguf {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let pos = 0;
  const need = (n: number) => {
    if (pos + n > bytes.byteLength) throw new Error(`GGUF truncated at byte ${pos} (need ${n} more)`);
  };
  const u8 = () => {
    need(1);
    return view.getUint8(pos++);
  };
  const u32 = () => {
    need(4);
    const v = view.getUint32(pos, true);
    pos += 4;
    return v;
  };
  const u64 = () => {
    need(8);
    const v = view.getBigUint64(pos, true);
    pos += 8;
    return v;
  };
  const toNumber = (v: bigint) => {
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error(`GGUF value ${v} too large`);
    return Number(v);
  };
  const str = () => {
    const len = toNumber(u64());
    need(len);
    const s = decoder.decode(bytes.subarray(pos, pos + len));
    pos += len;
    return s;
  };
  const scalar = (type: number): GgufScalar => {
    let v: GgufScalar;
    switch (type) {
      case GgufType.UINT8:
        return u8();
      case GgufType.INT8:
        need(1);
        v = view.getInt8(pos);
        pos += 1;
        return v;
      case GgufType.UINT16:
        need(2);
        v = view.getUint16(pos, true);
        pos += 2;
        return v;
      case GgufType.INT16:
        need(2);
        v = view.getInt16(pos, true);
        pos += 2;
        return v;
      case GgufType.UINT32:
        return u32();
      case GgufType.INT32:
        need(4);
        v = view.getInt32(pos, true);
        pos += 4;
        return v;
      case GgufType.FLOAT32:
        need(4);
        v = view.getFloat32(pos, true);
        pos += 4;
        return v;
      case GgufType.BOOL: {
        const b = u8();
        if (b > 1) throw new Error(`GGUF bool must be 0 or 1, got ${b}`);
        return b === 1;
      }
      case GgufType.STRING:
        return str();
      case GgufType.UINT64:
        return u64();
      case GgufType.INT64:
        need(8);
        v = view.getBigInt64(pos, true);
        pos += 8;
        return v;
      case GgufType.FLOAT64:
        need(8);
        v = view.getFloat64(pos, true);
        pos += 8;
        return v;
      default:
        throw new Error(`unknown GGUF value type ${type} at byte ${pos}`);
    }
  };

  need(4);
  const magic = decoder.decode(bytes.subarray(0, 4));
  pos = 4;
  if (magic !== "GGUF") throw new Error(`not a GGUF file (magic ${JSON.stringify(magic)})`);
  const version = u32();
  if (version !== 2 && version !== 3) throw new Error(`unsupported GGUF version ${version}`);
  const tensorCount = toNumber(u64());
  const kvCount = toNumber(u64());
  const metadata = new Map<string, GgufValue>();
  const metadataTypes = new Map<string, GgufType>();
  const metadataArrayTypes = new Map<string, GgufType>();
  for (let i = 0; i < kvCount; i++) {
    const key = str();
    if (metadata.has(key)) throw new Error(`duplicate GGUF key ${key}`);
    const type = u32() as GgufType;
    metadataTypes.set(key, type);
    if (type === GgufType.ARRAY) {
      const itemType = u32() as GgufType;
      if (itemType === GgufType.ARRAY) throw new Error(`nested GGUF arrays are not supported (${key})`);
      const n = toNumber(u64());
      const items: GgufScalar[] = [];
      for (let j = 0; j < n; j++) items.push(scalar(itemType));
      metadata.set(key, items);
      metadataArrayTypes.set(key, itemType);
    } else {
      metadata.set(key, scalar(type));
    }
  }
  const alignmentValue = metadata.get("general.alignment");
  const alignment = typeof alignmentValue === "number" ? alignmentValue : GGUF_DEFAULT_ALIGNMENT;
  const tensors: GgufTensorInfo[] = [];
  for (let i = 0; i < tensorCount; i++) {
    const name = str();
    const nDims = u32();
    const dims: number[] = [];
    for (let d = 0; d < nDims; d++) dims.push(toNumber(u64()));
    const type = u32();
    const offset = toNumber(u64());
    if (offset % alignment !== 0) throw new Error(`tensor ${name} offset ${offset} is not aligned to ${alignment}`);
    tensors.push({ name, dims, type, offset });
  }
  const dataOffset = Math.ceil(pos / alignment) * alignment;
  for (const t of tensors) {
    const size = tensorByteSize(t);
    if (size !== undefined && dataOffset + t.offset + size > bytes.byteLength) {
      throw new Error(`tensor ${t.name} runs past the end of the file`);
    }
  }
  return { version, tensorCount, metadata, metadataTypes, metadataArrayTypes, tensors, alignment, dataOffset };
}
