/**
 * A tiny GGUF v3 model written from scratch, so tests can run a real
 * llama.cpp (wllama) with no download: a llama-architecture network with
 * seeded random weights, a byte-level BPE ("gpt2") vocabulary that can
 * tokenize any text (vocab.ts), the ChatML special tokens, and a Qwen2.5-style
 * Jinja chat template that renders tools and `<tool_call>{json}</tool_call>`
 * (or a template in the Llama 3.x or Hermes 2 Pro tool-call format;
 * templates.ts).
 *
 * The output is nonsense (the weights are random), but every layer of the
 * runtime is real: GGUF parsing, tokenizer, chat template, sampling, grammar.
 * Three options shape the weights by hand: `printableOnly` (default) keeps the
 * output valid UTF-8, `eagerToolCalls` makes every chat turn with tools a
 * tool call, `answerAfterToolResult` makes a turn after a tool result a fixed
 * text answer (together: a deterministic two-step agent turn).
 * `makeTinyGgufSplits` writes llama-gguf-split shards. The bytes come from
 * writer.ts; parser.ts reads a file back (header, metadata, tensor table).
 * Browser-safe: no `node:` imports.
 * What wllama does with it: src/models/wllama/wllama.browser.test.ts.
 */
import { seededRandom } from "../random.ts";
import { GgmlType, GgufType, GGUF_DEFAULT_ALIGNMENT, type GgufKV, type GgufTensor } from "./format.ts";
import { QWEN25_CHAT_TEMPLATE, QWEN25_TOOL_RESULT_CHAT_TEMPLATE, TOOL_RESULT_MARKER } from "./templates.ts";
import { isPrintable, tinyVocab } from "./vocab.ts";
import { float32ToFloat16Bits, writeGguf } from "./writer.ts";

export interface TinyGgufOptions {
  /** PRNG seed for the weights (default 1). The same options give the same bytes. */
  seed?: number;
  /** Hidden size (default 64). */
  embeddingLength?: number;
  /** Number of transformer blocks (default 2). */
  blockCount?: number;
  /** Attention heads (default 4); `embeddingLength / headCount` is the head size and must be even. */
  headCount?: number;
  /** KV heads (default = headCount); must divide headCount (GQA when smaller). */
  headCountKv?: number;
  /** FFN hidden size (default 128). */
  feedForwardLength?: number;
  /** `llama.context_length`, the trained context (default 4096). */
  contextLength?: number;
  /** Storage type of the 2-D weight matrices (default "f32"); norms are always F32. */
  weightType?: "f32" | "f16";
  /** Write a separate `output.weight` instead of tying it to `token_embd.weight` (default true). */
  separateOutput?: boolean;
  /**
   * Make the model unable to emit non-printable bytes (anything but 0x20-0x7E
   * and "\n"), so its output is always valid UTF-8 (default true; needs
   * `separateOutput`). Embedding dimension 0 becomes a constant "bias"
   * channel: every token embedding has a large value there, no block writes to
   * it (row 0 of `attn_output` and `ffn_down` is zero), and `output.weight`
   * gives those byte tokens a large negative weight on it, about -30 on the
   * logit. Without this, random weights emit broken UTF-8, which wllama 3.13
   * cannot serialize (the request dies with a RuntimeError).
   */
  printableOnly?: boolean;
  /**
   * Make the model call a tool right away (default false; needs
   * `separateOutput`): after "\n" it strongly prefers `<tool_call>`, after
   * `<tool_call>` it prefers "\n", after `</tool_call>` it prefers
   * `<|im_end|>`, and `</tool_call>` gets a bias wherever the grammar allows
   * it. Each rule is a "current token is X" embedding channel that passes
   * untouched through the blocks (like the bias channel of `printableOnly`).
   * Since a chat prompt ends with "<|im_start|>assistant\n", a chat
   * completion with `tools` (tool_choice "auto" or "required") then returns
   * exactly one tool call whose JSON llama.cpp's tool-call grammar fills in,
   * and `finish_reason: "tool_calls"`. Without tools the output is the
   * useless "<tool_call>\n<tool_call>\n…"; pass `tool_choice: "none"` for a
   * turn that should answer in text.
   *
   * `"json"` is the same idea for formats whose call is a bare JSON object
   * (Llama 3.x: `{"name": …, "parameters": …}`): after "\n" the model
   * strongly prefers "{", so a turn starts with the object llama.cpp's
   * grammar then fills in.
   */
  eagerToolCalls?: boolean | "json";
  /**
   * Make the model answer a tool result with this fixed text and end the turn
   * (default undefined: off; needs `separateOutput`). The text (non-empty,
   * printable ASCII and "\n", without `<` so it can never start a tool call)
   * becomes one extra vocabulary token, appended after the special tokens
   * (existing ids do not move; the BPE merges never produce it, so prompts
   * tokenize as before). The default chat template becomes
   * `QWEN25_TOOL_RESULT_CHAT_TEMPLATE`, whose generation prompt ends with
   * `</tool_response>` when the last message is a tool result, and two more
   * "current token is X" channels wire `</tool_response>` → the answer token
   * → `<|im_end|>`. So a chat completion whose last message has role "tool"
   * returns exactly this text and `finish_reason: "stop"`, with or without
   * `tools` (tool_choice "auto" or "none": the text never triggers
   * llama.cpp's lazy tool-call grammar). Together with `eagerToolCalls` an
   * agent turn is: user message → one tool call, tool result → this text.
   * With an explicit `chatTemplate`, the template must emit
   * `TOOL_RESULT_MARKER` itself.
   */
  answerAfterToolResult?: string;
  /**
   * `tokenizer.chat_template` (default: QWEN25_CHAT_TEMPLATE, or
   * QWEN25_TOOL_RESULT_CHAT_TEMPLATE with `answerAfterToolResult`); `null` writes none.
   * LLAMA32_CHAT_TEMPLATE (with `extraSpecialTokens: LLAMA3_SPECIAL_TOKENS`) and
   * HERMES2PRO_CHAT_TEMPLATE are the other tool-call formats.
   */
  chatTemplate?: string | null;
  /**
   * More control tokens, appended after every other token (existing ids do
   * not move), e.g. LLAMA3_SPECIAL_TOKENS for a Llama 3.x template; llama.cpp
   * treats `<|eot_id|>` and `<|eom_id|>` among them as end of generation.
   */
  extraSpecialTokens?: readonly string[];
  /** `general.name` (default "deeptab-tiny"). */
  name?: string;
}

/** Fills a tensor: ones for norms, otherwise uniform in [-scale, scale]; `edit` then adjusts the values. */
function makeTensor(
  name: string,
  dims: number[],
  type: GgmlType,
  fill: "ones" | { scale: number; rand: () => number },
  edit?: (values: Float32Array) => void,
): GgufTensor {
  const n = dims.reduce((a, b) => a * b, 1);
  const values = new Float32Array(n);
  if (fill === "ones") values.fill(1);
  else for (let i = 0; i < n; i++) values[i] = (fill.rand() * 2 - 1) * fill.scale;
  edit?.(values);
  let data: Uint8Array;
  if (type === GgmlType.F32) {
    data = new Uint8Array(values.buffer);
  } else {
    const half = new Uint16Array(n);
    for (let i = 0; i < n; i++) half[i] = float32ToFloat16Bits(values[i]!);
    data = new Uint8Array(half.buffer);
  }
  return { name, dims, type, data };
}

/** Value of embedding dimension 0 in every token embedding (see `printableOnly`). */
const BIAS_CHANNEL = 8;
/** Weight of that dimension in `output.weight` for the suppressed byte tokens. */
const BIAS_PENALTY = 4;
/** Value of a "current token is X" feature channel (see `eagerToolCalls`). */
const FEATURE = 4;
/** Weight of a feature channel in `output.weight` for the token that should follow. */
const TRANSITION_WEIGHT = 10;
/** Weight of the bias channel for `</tool_call>` when `eagerToolCalls` (about +12 on the logit). */
const TOOL_CLOSE_BIAS = 2;

/** The tiny model's metadata and tensors, before serialization. */
function tinyModel(options: TinyGgufOptions = {}): { kvs: GgufKV[]; tensors: GgufTensor[] } {
  const nEmbd = options.embeddingLength ?? 64;
  const nLayer = options.blockCount ?? 2;
  const nHead = options.headCount ?? 4;
  const nHeadKv = options.headCountKv ?? nHead;
  const nFf = options.feedForwardLength ?? 128;
  const nCtx = options.contextLength ?? 4096;
  const headDim = nEmbd / nHead;
  if (!Number.isInteger(headDim) || headDim % 2 !== 0) {
    throw new Error(`embeddingLength / headCount must be an even integer, got ${nEmbd}/${nHead}`);
  }
  if (nHead % nHeadKv !== 0) throw new Error(`headCountKv (${nHeadKv}) must divide headCount (${nHead})`);
  const matType = options.weightType === "f16" ? GgmlType.F16 : GgmlType.F32;
  const separateOutput = options.separateOutput ?? true;
  const answer = options.answerAfterToolResult;
  const defaultTemplate = answer === undefined ? QWEN25_CHAT_TEMPLATE : QWEN25_TOOL_RESULT_CHAT_TEMPLATE;
  const chatTemplate = options.chatTemplate === undefined ? defaultTemplate : options.chatTemplate;
  const vocab = tinyVocab({ answerAfterToolResult: answer, extraSpecialTokens: options.extraSpecialTokens });
  const nVocab = vocab.tokens.length;
  const eos = vocab.special("<|im_end|>");
  const eot = vocab.special("<|endoftext|>");

  const kvs: GgufKV[] = [
    { key: "general.architecture", type: GgufType.STRING, value: "llama" },
    { key: "general.name", type: GgufType.STRING, value: options.name ?? "deeptab-tiny" },
    { key: "general.alignment", type: GgufType.UINT32, value: GGUF_DEFAULT_ALIGNMENT },
    { key: "general.file_type", type: GgufType.UINT32, value: matType === GgmlType.F16 ? 1 : 0 },
    { key: "llama.vocab_size", type: GgufType.UINT32, value: nVocab },
    { key: "llama.context_length", type: GgufType.UINT32, value: nCtx },
    { key: "llama.embedding_length", type: GgufType.UINT32, value: nEmbd },
    { key: "llama.block_count", type: GgufType.UINT32, value: nLayer },
    { key: "llama.feed_forward_length", type: GgufType.UINT32, value: nFf },
    { key: "llama.attention.head_count", type: GgufType.UINT32, value: nHead },
    { key: "llama.attention.head_count_kv", type: GgufType.UINT32, value: nHeadKv },
    { key: "llama.rope.dimension_count", type: GgufType.UINT32, value: headDim },
    { key: "llama.rope.freq_base", type: GgufType.FLOAT32, value: 10000 },
    { key: "llama.attention.layer_norm_rms_epsilon", type: GgufType.FLOAT32, value: 1e-6 },
    { key: "tokenizer.ggml.model", type: GgufType.STRING, value: "gpt2" },
    { key: "tokenizer.ggml.pre", type: GgufType.STRING, value: "qwen2" },
    { key: "tokenizer.ggml.tokens", type: GgufType.ARRAY, itemType: GgufType.STRING, value: vocab.tokens },
    { key: "tokenizer.ggml.scores", type: GgufType.ARRAY, itemType: GgufType.FLOAT32, value: vocab.scores },
    { key: "tokenizer.ggml.token_type", type: GgufType.ARRAY, itemType: GgufType.INT32, value: vocab.tokenTypes },
    { key: "tokenizer.ggml.merges", type: GgufType.ARRAY, itemType: GgufType.STRING, value: vocab.merges },
    { key: "tokenizer.ggml.bos_token_id", type: GgufType.UINT32, value: eot },
    { key: "tokenizer.ggml.eos_token_id", type: GgufType.UINT32, value: eos },
    { key: "tokenizer.ggml.padding_token_id", type: GgufType.UINT32, value: eot },
    { key: "tokenizer.ggml.add_bos_token", type: GgufType.BOOL, value: false },
  ];
  if (chatTemplate !== null) kvs.push({ key: "tokenizer.chat_template", type: GgufType.STRING, value: chatTemplate });

  const printableOnly = options.printableOnly ?? separateOutput;
  const eager = options.eagerToolCalls ?? false;
  const answerToken = vocab.answerToken;
  if ((printableOnly || eager || answerToken !== undefined) && !separateOutput) {
    throw new Error("printableOnly, eagerToolCalls and answerAfterToolResult need separateOutput");
  }
  const transitions: (readonly [number, number])[] = [];
  if (eager === "json") transitions.push([vocab.byteToken(0x0a), vocab.byteToken(0x7b)]);
  else if (eager) {
    transitions.push(
      [vocab.byteToken(0x0a), vocab.special("<tool_call>")],
      [vocab.special("<tool_call>"), vocab.byteToken(0x0a)],
      [vocab.special("</tool_call>"), eos],
    );
  }
  if (answerToken !== undefined) {
    transitions.push([vocab.special(TOOL_RESULT_MARKER), answerToken], [answerToken, eos]);
  }
  const froms = transitions.map(([from]) => from);
  if (new Set(froms).size !== froms.length) {
    throw new Error(`answerAfterToolResult ${JSON.stringify(answer)} clashes with the eagerToolCalls wiring`);
  }
  // Channel 0 is the constant "bias" channel, channels 1..k carry "current token is X" features.
  const reserved = printableOnly || transitions.length > 0 ? 1 + transitions.length : 0;
  if (reserved * 2 > nEmbd) throw new Error(`embeddingLength ${nEmbd} is too small for the reserved channels`);
  const toolClose = vocab.special("</tool_call>");
  const rand = seededRandom(options.seed ?? 1);
  const init = (fanIn: number) => ({ scale: 1 / Math.sqrt(fanIn), rand });
  const nEmbdKv = headDim * nHeadKv;
  // Rows are contiguous runs of dims[0] values: row r of a [in, out] matrix is output r.
  const embdEdit = (values: Float32Array) => {
    if (reserved === 0) return;
    for (let t = 0; t < nVocab; t++) {
      values[t * nEmbd] = BIAS_CHANNEL;
      transitions.forEach(([from], k) => (values[t * nEmbd + 1 + k] = t === from ? FEATURE : 0));
    }
  };
  const outputEdit = (values: Float32Array) => {
    if (reserved === 0) return;
    for (let t = 0; t < nVocab; t++) {
      let bias = 0;
      if (printableOnly && t < 256 && !isPrintable(t)) bias = -BIAS_PENALTY;
      if (eager === true && t === toolClose) bias = TOOL_CLOSE_BIAS;
      values[t * nEmbd] = bias;
      transitions.forEach(([, to], k) => (values[t * nEmbd + 1 + k] = t === to ? TRANSITION_WEIGHT : 0));
    }
  };
  const keepReserved = (rowLength: number) => (values: Float32Array) => values.fill(0, 0, reserved * rowLength);
  const tensors: GgufTensor[] = [
    makeTensor("token_embd.weight", [nEmbd, nVocab], matType, { scale: 1, rand }, embdEdit),
    makeTensor("output_norm.weight", [nEmbd], GgmlType.F32, "ones"),
  ];
  if (separateOutput) tensors.push(makeTensor("output.weight", [nEmbd, nVocab], matType, init(nEmbd), outputEdit));
  for (let i = 0; i < nLayer; i++) {
    const p = `blk.${i}.`;
    tensors.push(
      makeTensor(`${p}attn_norm.weight`, [nEmbd], GgmlType.F32, "ones"),
      makeTensor(`${p}attn_q.weight`, [nEmbd, nEmbd], matType, init(nEmbd)),
      makeTensor(`${p}attn_k.weight`, [nEmbd, nEmbdKv], matType, init(nEmbd)),
      makeTensor(`${p}attn_v.weight`, [nEmbd, nEmbdKv], matType, init(nEmbd)),
      makeTensor(`${p}attn_output.weight`, [nEmbd, nEmbd], matType, init(nEmbd), keepReserved(nEmbd)),
      makeTensor(`${p}ffn_norm.weight`, [nEmbd], GgmlType.F32, "ones"),
      makeTensor(`${p}ffn_gate.weight`, [nEmbd, nFf], matType, init(nEmbd)),
      makeTensor(`${p}ffn_up.weight`, [nEmbd, nFf], matType, init(nEmbd)),
      makeTensor(`${p}ffn_down.weight`, [nFf, nEmbd], matType, init(nFf), keepReserved(nFf)),
    );
  }

  return { kvs, tensors };
}

/** Writes the tiny model as one GGUF v3 file. */
export function makeTinyGguf(options: TinyGgufOptions = {}): Uint8Array {
  const { kvs, tensors } = tinyModel(options);
  return writeGguf(kvs, tensors);
}

/**
 * Writes the tiny model as `count` split files, as `llama-gguf-split` does:
 * shard 1 has all the metadata, every shard has `split.no` (u16, 0-based),
 * `split.count` (u16) and `split.tensors.count` (i32), and the tensors are
 * dealt out in order. Name them `<base>-00001-of-0000N.gguf`, … when serving
 * them; `Wllama.loadModel` takes the Blobs in shard order.
 */
export function makeTinyGgufSplits(count: number, options: TinyGgufOptions = {}): Uint8Array[] {
  const { kvs, tensors } = tinyModel(options);
  if (!Number.isInteger(count) || count < 1 || count > tensors.length) {
    throw new Error(`split count must be 1..${tensors.length}, got ${count}`);
  }
  const perShard = Math.ceil(tensors.length / count);
  const shards: Uint8Array[] = [];
  for (let i = 0; i < count; i++) {
    const splitKvs: GgufKV[] = [
      { key: "split.no", type: GgufType.UINT16, value: i },
      { key: "split.count", type: GgufType.UINT16, value: count },
      { key: "split.tensors.count", type: GgufType.INT32, value: tensors.length },
    ];
    const own = tensors.slice(i * perShard, (i + 1) * perShard);
    if (own.length === 0) throw new Error(`split ${i + 1} of ${count} would have no tensors`);
    shards.push(writeGguf(i === 0 ? [...kvs, ...splitKvs] : splitKvs, own));
  }
  return shards;
}
