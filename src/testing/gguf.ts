/**
 * A tiny GGUF v3 model written from scratch, so tests can run a real
 * llama.cpp (wllama) with no download: a llama-architecture network with
 * seeded random weights, a byte-level BPE ("gpt2") vocabulary that can
 * tokenize any text, the ChatML special tokens, and a Qwen2.5-style Jinja chat
 * template that renders tools and `<tool_call>{json}</tool_call>` (or a
 * template in the Llama 3.x or Hermes 2 Pro tool-call format).
 *
 * The output is nonsense (the weights are random), but every layer of the
 * runtime is real: GGUF parsing, tokenizer, chat template, sampling, grammar.
 * Three options shape the weights by hand: `printableOnly` (default) keeps the
 * output valid UTF-8, `eagerToolCalls` makes every chat turn with tools a
 * tool call, `answerAfterToolResult` makes a turn after a tool result a fixed
 * text answer (together: a deterministic two-step agent turn).
 * `makeTinyGgufSplits` writes llama-gguf-split shards.
 * Browser-safe: no `node:` imports. `parseGguf` reads a file back (header,
 * metadata, tensor table) for tests and for inspecting real models.
 * What wllama does with it: src/models/wllama/wllama.browser.test.ts.
 */
import { seededRandom } from "./random.ts";

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

/**
 * The Qwen2.5-Instruct chat template (ChatML with a `# Tools` system section,
 * `<tool_call>` blocks for assistant tool calls and `<tool_response>` for tool
 * results). llama.cpp recognizes it and parses `<tool_call>` output into
 * OpenAI-style `tool_calls`.
 */
export const QWEN25_CHAT_TEMPLATE =
  `{%- if tools %}
    {{- '<|im_start|>system\\n' }}
    {%- if messages[0]['role'] == 'system' %}
        {{- messages[0]['content'] }}
    {%- else %}
        {{- 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.' }}
    {%- endif %}
    {{- "\\n\\n# Tools\\n\\nYou may call one or more functions to assist with the user query.\\n\\n` +
  `You are provided with function signatures within <tools></tools> XML tags:\\n<tools>" }}
    {%- for tool in tools %}
        {{- "\\n" }}
        {{- tool | tojson }}
    {%- endfor %}
    {{- "\\n</tools>\\n\\nFor each function call, return a json object with function name and arguments ` +
  `within <tool_call></tool_call> XML tags:\\n<tool_call>\\n{\\"name\\": <function-name>, \\"arguments\\": <args-json-object>}\\n` +
  `</tool_call><|im_end|>\\n" }}
{%- else %}
    {%- if messages[0]['role'] == 'system' %}
        {{- '<|im_start|>system\\n' + messages[0]['content'] + '<|im_end|>\\n' }}
    {%- else %}
        {{- '<|im_start|>system\\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\\n' }}
    {%- endif %}
{%- endif %}
{%- for message in messages %}
    {%- if (message.role == "user") or (message.role == "system" and not loop.first) ` +
  `or (message.role == "assistant" and not message.tool_calls) %}
        {{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>' + '\\n' }}
    {%- elif message.role == "assistant" %}
        {{- '<|im_start|>' + message.role }}
        {%- if message.content %}
            {{- '\\n' + message.content }}
        {%- endif %}
        {%- for tool_call in message.tool_calls %}
            {%- if tool_call.function is defined %}
                {%- set tool_call = tool_call.function %}
            {%- endif %}
            {{- '\\n<tool_call>\\n{"name": "' }}
            {{- tool_call.name }}
            {{- '", "arguments": ' }}
            {{- tool_call.arguments | tojson }}
            {{- '}\\n</tool_call>' }}
        {%- endfor %}
        {{- '<|im_end|>\\n' }}
    {%- elif message.role == "tool" %}
        {%- if (loop.index0 == 0) or (messages[loop.index0 - 1].role != "tool") %}
            {{- '<|im_start|>user' }}
        {%- endif %}
        {{- '\\n<tool_response>\\n' }}
        {{- message.content }}
        {{- '\\n</tool_response>' }}
        {%- if loop.last or (messages[loop.index0 + 1].role != "tool") %}
            {{- '<|im_end|>\\n' }}
        {%- endif %}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\\n' }}
{%- endif %}
`;

/**
 * The token `QWEN25_TOOL_RESULT_CHAT_TEMPLATE` appends to the generation
 * prompt when the last message is a tool result (see `answerAfterToolResult`).
 */
export const TOOL_RESULT_MARKER = "</tool_response>";

/**
 * `QWEN25_CHAT_TEMPLATE`, except that when the last message has role "tool"
 * the generation prompt is `<|im_start|>assistant\n</tool_response>` instead
 * of `<|im_start|>assistant\n`, so the prompt's last token tells the model
 * that it is answering a tool result. Every other rendering is unchanged.
 * The default template of `answerAfterToolResult` models.
 */
export const QWEN25_TOOL_RESULT_CHAT_TEMPLATE = QWEN25_CHAT_TEMPLATE.replace(
  "{{- '<|im_start|>assistant\\n' }}\n{%- endif %}\n",
  "{{- '<|im_start|>assistant\\n' }}\n" +
    '    {%- if messages[messages|length - 1].role == "tool" %}\n' +
    `        {{- '${TOOL_RESULT_MARKER}' }}\n` +
    "    {%- endif %}\n" +
    "{%- endif %}\n",
);

/** The control tokens of the Llama 3.x chat format (pass as `extraSpecialTokens` with LLAMA32_CHAT_TEMPLATE). */
export const LLAMA3_SPECIAL_TOKENS = [
  "<|begin_of_text|>",
  "<|start_header_id|>",
  "<|end_header_id|>",
  "<|eot_id|>",
  "<|eom_id|>",
  "<|python_tag|>",
] as const;

/**
 * A chat template in the Llama 3.x tool-calling format (written for these
 * tests, not Meta's file): header tokens around each role, "Environment:
 * ipython" and the tools as JSON in the system turn, a tool call as the bare
 * JSON `{"name": …, "parameters": {…}}` ending the turn with `<|eot_id|>`,
 * and a tool result in the `ipython` role.
 */
export const LLAMA32_CHAT_TEMPLATE =
  `{{- bos_token }}
{%- if messages[0].role == "system" %}
    {%- set system_text = messages[0].content | trim %}
    {%- set messages = messages[1:] %}
{%- else %}
    {%- set system_text = "" %}
{%- endif %}
{{- "<|start_header_id|>system<|end_header_id|>\\n\\n" }}
{%- if tools %}
    {{- "Environment: ipython\\n" }}
{%- endif %}
{{- "Cutting Knowledge Date: December 2023\\n\\n" }}
{%- if tools %}
    {{- "To call a function, answer with JSON only, ` +
  `in the format {\\"name\\": function name, \\"parameters\\": an object of its arguments}. The functions:\\n\\n" }}
    {%- for t in tools %}
        {{- t | tojson }}
        {{- "\\n\\n" }}
    {%- endfor %}
{%- endif %}
{{- system_text + "<|eot_id|>" }}
{%- for message in messages %}
    {%- if message.role == "assistant" and message.tool_calls %}
        {{- "<|start_header_id|>assistant<|end_header_id|>\\n\\n" }}
        {%- for call in message.tool_calls %}
            {%- if call.function is defined %}
                {%- set call = call.function %}
            {%- endif %}
            {{- '{"name": "' + call.name + '", "parameters": ' }}
            {%- if call.arguments is string %}
                {{- call.arguments }}
            {%- else %}
                {{- call.arguments | tojson }}
            {%- endif %}
            {{- "}" }}
        {%- endfor %}
        {{- "<|eot_id|>" }}
    {%- elif message.role == "tool" or message.role == "ipython" %}
        {{- "<|start_header_id|>ipython<|end_header_id|>\\n\\n" + message.content + "<|eot_id|>" }}
    {%- else %}
        {{- "<|start_header_id|>" + message.role + "<|end_header_id|>\\n\\n" + (message.content | trim) + "<|eot_id|>" }}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- "<|start_header_id|>assistant<|end_header_id|>\\n\\n" }}
{%- endif %}
`;

/**
 * A chat template in the Hermes 2 Pro tool-calling format (written for these
 * tests, not NousResearch's file): ChatML, a system turn listing the tools
 * inside `<tools></tools>`, each call as `<tool_call>\n{"name": …,
 * "arguments": {…}}\n</tool_call>`, and results in a `tool` turn inside
 * `<tool_response>` (consecutive results share one turn).
 */
export const HERMES2PRO_CHAT_TEMPLATE =
  `{{- bos_token }}
{%- if tools %}
    {{- "<|im_start|>system\\nYou are a function calling AI model. The function signatures are within <tools></tools> XML tags. ` +
  `You may call one or more functions to help with the user query; do not make up argument values. <tools> " }}
    {%- for t in tools %}
        {{- t | tojson }}
        {%- if not loop.last %}
            {{- "\\n" }}
        {%- endif %}
    {%- endfor %}
    {{- " </tools>\\nFor each function call, return a JSON object with the function name and arguments ` +
  `within <tool_call></tool_call> XML tags:\\n<tool_call>\\n{\\"name\\": <function-name>, \\"arguments\\": <args-dict>}\\n` +
  `</tool_call><|im_end|>\\n" }}
{%- endif %}
{%- for message in messages %}
    {%- if message.role == "assistant" and message.tool_calls %}
        {{- "<|im_start|>assistant" }}
        {%- for call in message.tool_calls %}
            {%- if call.function is defined %}
                {%- set call = call.function %}
            {%- endif %}
            {{- '\\n<tool_call>\\n{"name": "' + call.name + '", "arguments": ' }}
            {%- if call.arguments is string %}
                {{- call.arguments }}
            {%- else %}
                {{- call.arguments | tojson }}
            {%- endif %}
            {{- "}\\n</tool_call>" }}
        {%- endfor %}
        {{- "<|im_end|>\\n" }}
    {%- elif message.role == "tool" %}
        {%- if loop.index0 == 0 %}
            {{- "<|im_start|>tool\\n" }}
        {%- elif messages[loop.index0 - 1].role != "tool" %}
            {{- "<|im_start|>tool\\n" }}
        {%- endif %}
        {{- "<tool_response>\\n" + message.content + "\\n</tool_response>" }}
        {%- if loop.last %}
            {{- "<|im_end|>\\n" }}
        {%- elif messages[loop.index0 + 1].role != "tool" %}
            {{- "<|im_end|>\\n" }}
        {%- else %}
            {{- "\\n" }}
        {%- endif %}
    {%- else %}
        {{- "<|im_start|>" + message.role + "\\n" + message.content + "<|im_end|>\\n" }}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- "<|im_start|>assistant\\n" }}
{%- endif %}
`;

/** Special tokens appended after the byte and merge tokens, with their token type. */
export const TINY_SPECIAL_TOKENS = [
  { text: "<|endoftext|>", type: TokenType.CONTROL },
  { text: "<|im_start|>", type: TokenType.CONTROL },
  { text: "<|im_end|>", type: TokenType.CONTROL },
  { text: "<tool_call>", type: TokenType.USER_DEFINED },
  { text: "</tool_call>", type: TokenType.USER_DEFINED },
  { text: "<tool_response>", type: TokenType.USER_DEFINED },
  { text: "</tool_response>", type: TokenType.USER_DEFINED },
] as const;

/**
 * Words (in byte-level unicode form, `Ġ` is a leading space) that get BPE
 * merges, built left to right ("u s", "us e", "use r"); each merge result is a
 * vocabulary token, so tokenization really merges and is not only byte-by-byte.
 */
const TINY_MERGE_WORDS = ["Ġthe", "Ġand", "ing", "user", "assistant", "system", "tool", "Ġname", "Ġarguments"];

function tinyMerges(): [string, string][] {
  const merges: [string, string][] = [];
  const seen = new Set<string>();
  for (const word of TINY_MERGE_WORDS) {
    const chars = [...word];
    let left = chars[0]!;
    for (const right of chars.slice(1)) {
      const key = `${left} ${right}`;
      if (!seen.has(key)) {
        seen.add(key);
        merges.push([left, right]);
      }
      left += right;
    }
  }
  return merges;
}

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

/** The vocabulary the tiny model uses; ids are stable for given options. */
export interface TinyVocab {
  tokens: string[];
  scores: number[];
  tokenTypes: number[];
  merges: string[];
  /** Token id for a byte value (ids 0..255 in byte order). */
  byteToken: (byte: number) => number;
  /** Id of a special token by its text (also the `extraSpecialTokens`). */
  special: (text: (typeof TINY_SPECIAL_TOKENS)[number]["text"] | (string & {})) => number;
  /** Id of the `answerAfterToolResult` token (undefined without that option). */
  answerToken: number | undefined;
}

/** GPT-2 `bytes_to_unicode`: each byte maps to a printable unicode character. */
export function bytesToUnicode(): string[] {
  const printable: number[] = [];
  for (let b = 0x21; b <= 0x7e; b++) printable.push(b);
  for (let b = 0xa1; b <= 0xac; b++) printable.push(b);
  for (let b = 0xae; b <= 0xff; b++) printable.push(b);
  const table: string[] = new Array<string>(256);
  let extra = 0;
  for (let b = 0; b < 256; b++) {
    table[b] = printable.includes(b) ? String.fromCodePoint(b) : String.fromCodePoint(256 + extra++);
  }
  return table;
}

/**
 * Builds the tiny byte-level BPE vocabulary: 256 byte tokens, merge results,
 * the special tokens, then (with `answerAfterToolResult`) the answer token.
 */
export function tinyVocab(options: Pick<TinyGgufOptions, "answerAfterToolResult" | "extraSpecialTokens"> = {}): TinyVocab {
  const byteChars = bytesToUnicode();
  const tokens = [...byteChars];
  const tokenTypes: number[] = tokens.map(() => TokenType.NORMAL);
  const scores: number[] = tokens.map(() => 0);
  const merges: string[] = [];
  tinyMerges().forEach(([left, right], rank) => {
    merges.push(`${left} ${right}`);
    const merged = left + right;
    if (!tokens.includes(merged)) {
      tokens.push(merged);
      tokenTypes.push(TokenType.NORMAL);
      scores.push(-(rank + 1));
    }
  });
  const specialIds = new Map<string, number>();
  for (const s of TINY_SPECIAL_TOKENS) {
    specialIds.set(s.text, tokens.length);
    tokens.push(s.text);
    tokenTypes.push(s.type);
    scores.push(0);
  }
  let answerToken: number | undefined;
  if (options.answerAfterToolResult !== undefined) {
    const answer = options.answerAfterToolResult;
    const answerBytes = new TextEncoder().encode(answer);
    if (answerBytes.length === 0 || !answerBytes.every(isPrintable) || answer.includes("<")) {
      throw new Error(`answerAfterToolResult must be non-empty printable ASCII without "<", got ${JSON.stringify(answer)}`);
    }
    // A NORMAL token in byte-level form (" " is "Ġ"); a one-byte answer is the byte token itself.
    const text = [...answerBytes].map((b) => byteChars[b]!).join("");
    answerToken = tokens.indexOf(text);
    if (answerToken < 0) {
      answerToken = tokens.length;
      tokens.push(text);
      tokenTypes.push(TokenType.NORMAL);
      scores.push(0);
    }
  }
  for (const text of options.extraSpecialTokens ?? []) {
    if (tokens.includes(text)) throw new Error(`extra special token ${text} is already in the vocabulary`);
    specialIds.set(text, tokens.length);
    tokens.push(text);
    tokenTypes.push(TokenType.CONTROL);
    scores.push(0);
  }
  return {
    tokens,
    scores,
    tokenTypes,
    merges,
    answerToken,
    byteToken: (byte) => byte,
    special: (text) => {
      const id = specialIds.get(text);
      if (id === undefined) throw new Error(`no special token ${text}`);
      return id;
    },
  };
}

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

/** A tensor to write: ggml dims (dims[0] is the row length) and its raw little-endian data. */
export interface GgufTensor {
  name: string;
  dims: number[];
  type: GgmlType;
  data: Uint8Array;
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

const ALIGNMENT = 32;
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

/** Bytes the tiny model may emit when `printableOnly`: printable ASCII and newline. */
export function isPrintable(byte: number): boolean {
  return byte === 0x0a || (byte >= 0x20 && byte <= 0x7e);
}

/** The tiny model's metadata and tensors, before serialization. */
export function tinyModel(options: TinyGgufOptions = {}): { kvs: GgufKV[]; tensors: GgufTensor[] } {
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
    { key: "general.alignment", type: GgufType.UINT32, value: ALIGNMENT },
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
  const alignment = alignmentKv && alignmentKv.type === GgufType.UINT32 ? alignmentKv.value : ALIGNMENT;
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

function ggmlByteSize(dims: readonly number[], type: GgmlType): number {
  return dims.reduce((a, b) => a * b, 1) * (type === GgmlType.F16 ? 2 : 4);
}

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
  const alignment = typeof alignmentValue === "number" ? alignmentValue : 32;
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

/** Byte size of an F32/F16 tensor; undefined for other (quantized) types. */
export function tensorByteSize(t: Pick<GgufTensorInfo, "dims" | "type">): number | undefined {
  const n = t.dims.reduce((a, b) => a * b, 1);
  if (t.type === GgmlType.F32) return n * 4;
  if (t.type === GgmlType.F16) return n * 2;
  return undefined;
}
