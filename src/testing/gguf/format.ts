/**
 * The GGUF format as the tiny model maker writes and reads it: value and tensor type codes, metadata entries,
 * tensor descriptions, and tensor sizes (F32 and F16; quantized types are only recognized, never sized).
 */

/** Tensor data alignment when a file does not say (`general.alignment`). */
export const GGUF_DEFAULT_ALIGNMENT = 32;

/** GGUF metadata value types (gguf.h `gguf_type`). */
export const GgufType = {
  UINT8: 0,
  INT8: 1,
  UINT16: 2,
  INT16: 3,
  UINT32: 4,
  INT32: 5,
  FLOAT32: 6,
  BOOL: 7,
  STRING: 8,
  ARRAY: 9,
  UINT64: 10,
  INT64: 11,
  FLOAT64: 12,
} as const;
export type GgufType = (typeof GgufType)[keyof typeof GgufType];

/** The ggml tensor types this module writes or recognizes. */
export const GgmlType = { F32: 0, F16: 1 } as const;
export type GgmlType = (typeof GgmlType)[keyof typeof GgmlType];

/** llama.cpp token attributes (`tokenizer.ggml.token_type`). */
export const TokenType = {
  NORMAL: 1,
  UNKNOWN: 2,
  CONTROL: 3,
  USER_DEFINED: 4,
  UNUSED: 5,
  BYTE: 6,
} as const;

/** A metadata value as read back by `parseGguf` (64-bit integers are bigint). */
export type GgufScalar = number | bigint | boolean | string;
export type GgufValue = GgufScalar | GgufScalar[];

export interface GgufTensorInfo {
  name: string;
  /** ggml order: dims[0] is the fastest-varying (row length). */
  dims: number[];
  type: number;
  /** Offset from the start of the tensor data section. */
  offset: number;
}

export interface ParsedGguf {
  version: number;
  tensorCount: number;
  metadata: Map<string, GgufValue>;
  /** The GGUF type of each metadata value (for arrays, the element type is in `metadataArrayTypes`). */
  metadataTypes: Map<string, GgufType>;
  metadataArrayTypes: Map<string, GgufType>;
  tensors: GgufTensorInfo[];
  alignment: number;
  /** Absolute byte offset of the tensor data section. */
  dataOffset: number;
}

/** One metadata entry to write (the types the tiny model and split files need). */
export type GgufKV =
  | { key: string; type: typeof GgufType.UINT16; value: number }
  | { key: string; type: typeof GgufType.UINT32; value: number }
  | { key: string; type: typeof GgufType.INT32; value: number }
  | { key: string; type: typeof GgufType.FLOAT32; value: number }
  | { key: string; type: typeof GgufType.BOOL; value: boolean }
  | { key: string; type: typeof GgufType.STRING; value: string }
  | { key: string; type: typeof GgufType.ARRAY; itemType: typeof GgufType.STRING; value: readonly string[] }
  | { key: string; type: typeof GgufType.ARRAY; itemType: typeof GgufType.FLOAT32; value: readonly number[] }
  | { key: string; type: typeof GgufType.ARRAY; itemType: typeof GgufType.INT32; value: readonly number[] };

/** A tensor to write: ggml dims (dims[0] is the row length) and its raw little-endian data. */
export interface GgufTensor {
  name: string;
  dims: number[];
  type: GgmlType;
  data: Uint8Array;
}

/** Byte size of a tensor of `dims` stored as `type` (F32 or F16). */
export function ggmlByteSize(dims: readonly number[], type: GgmlType): number {
  return dims.reduce((a, b) => a * b, 1) * (type === GgmlType.F16 ? 2 : 4);
}

/** Byte size of an F32/F16 tensor; undefined for other (quantized) types. */
export function tensorByteSize(t: Pick<GgufTensorInfo, "dims" | "type">): number | undefined {
  const n = t.dims.reduce((a, b) => a * b, 1);
  if (t.type === GgmlType.F32) return n * 4;
  if (t.type === GgmlType.F16) return n * 2;
  return undefined;
}
