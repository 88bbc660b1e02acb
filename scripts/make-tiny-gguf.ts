/**
 * Writes the tiny test model (src/testing/gguf/tiny-model.ts) to a file, e.g. to load it
 * into a native llama.cpp or inspect it with a GGUF viewer:
 *
 *   node --import tsx scripts/make-tiny-gguf.ts out.gguf [options]
 *
 * --splits N writes out-00001-of-0000N.gguf … (llama-gguf-split naming) instead.
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parseGguf } from "../src/testing/gguf/parser.ts";
import { HERMES2PRO_CHAT_TEMPLATE, LLAMA3_SPECIAL_TOKENS, LLAMA32_CHAT_TEMPLATE } from "../src/testing/gguf/templates.ts";
import { makeTinyGguf, makeTinyGgufSplits, type TinyGgufOptions } from "../src/testing/gguf/tiny-model.ts";

const usage = `usage: node --import tsx scripts/make-tiny-gguf.ts out.gguf [options]
  --seed N         weight seed (default 1)
  --f16            F16 weight matrices (default F32)
  --layers N       blocks (default 2)      --embd N   hidden size (default 64)
  --heads N        heads (default 4)       --kv-heads N  KV heads (default = heads)
  --ff N           FFN size (default 128)  --ctx N    llama.context_length (default 4096)
  --tied           no output.weight (tied to token_embd; implies --no-printable)
  --no-printable   allow every byte token (random weights then emit broken UTF-8)
  --eager-tools    a model that answers every chat turn with a tool call
  --format F       tool-call format of the chat template: qwen (default), llama3 or hermes
  --answer TEXT    a model that answers a tool result with TEXT and ends the turn
  --no-template    no tokenizer.chat_template
  --splits N       write N split files`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    seed: { type: "string" },
    f16: { type: "boolean" },
    layers: { type: "string" },
    embd: { type: "string" },
    heads: { type: "string" },
    "kv-heads": { type: "string" },
    ff: { type: "string" },
    ctx: { type: "string" },
    tied: { type: "boolean" },
    "no-printable": { type: "boolean" },
    "eager-tools": { type: "boolean" },
    answer: { type: "string" },
    "no-template": { type: "boolean" },
    format: { type: "string" },
    splits: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
});

const out = positionals[0];
if (values.help || !out || positionals.length > 1) {
  console.error(usage);
  process.exit(values.help ? 0 : 2);
}

const int = (name: string, v: string | undefined): number | undefined => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`--${name} must be a positive integer, got ${v}`);
    process.exit(2);
  }
  return n;
};

const FORMATS: Record<string, Pick<TinyGgufOptions, "chatTemplate" | "extraSpecialTokens">> = {
  qwen: {},
  llama3: { chatTemplate: LLAMA32_CHAT_TEMPLATE, extraSpecialTokens: LLAMA3_SPECIAL_TOKENS },
  hermes: { chatTemplate: HERMES2PRO_CHAT_TEMPLATE },
};
const format = FORMATS[values.format ?? "qwen"];
if (!format) {
  console.error(`--format must be qwen, llama3 or hermes, got ${values.format}`);
  process.exit(2);
}

const options: TinyGgufOptions = {
  seed: int("seed", values.seed),
  weightType: values.f16 ? "f16" : "f32",
  blockCount: int("layers", values.layers),
  embeddingLength: int("embd", values.embd),
  headCount: int("heads", values.heads),
  headCountKv: int("kv-heads", values["kv-heads"]),
  feedForwardLength: int("ff", values.ff),
  contextLength: int("ctx", values.ctx),
  separateOutput: !values.tied,
  printableOnly: !values.tied && !values["no-printable"],
  // A Llama 3.x call is a bare JSON object: the eager model starts it with "{".
  eagerToolCalls: values["eager-tools"] ? (values.format === "llama3" ? "json" : true) : false,
  ...format,
  answerAfterToolResult: values.answer,
  ...(values["no-template"] ? { chatTemplate: null } : {}),
};

const splits = int("splits", values.splits);
const files: [string, Uint8Array][] = splits
  ? makeTinyGgufSplits(splits, options).map((bytes, i) => {
      const n = (k: number) => String(k).padStart(5, "0");
      return [out.replace(/(\.gguf)?$/, `-${n(i + 1)}-of-${n(splits)}.gguf`), bytes];
    })
  : [[out, makeTinyGguf(options)]];

for (const [path, bytes] of files) {
  const parsed = parseGguf(bytes);
  writeFileSync(path, bytes);
  console.log(
    `${path}: ${bytes.byteLength} bytes, GGUF v${parsed.version}, ${parsed.tensorCount} tensors, ${parsed.metadata.size} metadata keys`,
  );
}
