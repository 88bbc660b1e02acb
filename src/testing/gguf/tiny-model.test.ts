import { describe, expect, it } from "vitest";
import { GgmlType, GgufType, tensorByteSize, TokenType } from "./format.ts";
import { parseGguf } from "./parser.ts";
import {
  HERMES2PRO_CHAT_TEMPLATE,
  LLAMA3_SPECIAL_TOKENS,
  LLAMA32_CHAT_TEMPLATE,
  QWEN25_CHAT_TEMPLATE,
  QWEN25_TOOL_RESULT_CHAT_TEMPLATE,
  TOOL_RESULT_MARKER,
} from "./templates.ts";
import { makeTinyGguf, makeTinyGgufSplits } from "./tiny-model.ts";
import { isPrintable, tinyVocab } from "./vocab.ts";

describe("makeTinyGguf", () => {
  const bytes = makeTinyGguf();
  const gguf = parseGguf(bytes);
  const meta = gguf.metadata;

  it("writes a GGUF v3 header", () => {
    expect([...bytes.subarray(0, 4)]).toEqual([0x47, 0x47, 0x55, 0x46]);
    expect(gguf.version).toBe(3);
    expect(gguf.tensorCount).toBe(gguf.tensors.length);
    expect(gguf.alignment).toBe(32);
    expect(gguf.dataOffset % 32).toBe(0);
    expect(bytes.byteLength % 32).toBe(0);
  });

  it("is small", () => {
    expect(bytes.byteLength).toBeLessThan(1024 * 1024);
    expect(makeTinyGguf({ weightType: "f16" }).byteLength).toBeLessThan(bytes.byteLength);
  });

  it("is deterministic for a seed and differs across seeds", () => {
    const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);
    expect(same(makeTinyGguf(), bytes)).toBe(true);
    expect(same(makeTinyGguf({ seed: 2 }), bytes)).toBe(false);
  });

  it("has the llama hyper-parameters, typed as llama.cpp expects", () => {
    expect(meta.get("general.architecture")).toBe("llama");
    expect(meta.get("llama.context_length")).toBe(4096);
    expect(meta.get("llama.embedding_length")).toBe(64);
    expect(meta.get("llama.block_count")).toBe(2);
    expect(meta.get("llama.feed_forward_length")).toBe(128);
    expect(meta.get("llama.attention.head_count")).toBe(4);
    expect(meta.get("llama.attention.head_count_kv")).toBe(4);
    expect(meta.get("llama.rope.dimension_count")).toBe(16);
    expect(meta.get("llama.attention.layer_norm_rms_epsilon")).toBeCloseTo(1e-6, 10);
    expect(gguf.metadataTypes.get("llama.block_count")).toBe(GgufType.UINT32);
    expect(gguf.metadataTypes.get("llama.attention.layer_norm_rms_epsilon")).toBe(GgufType.FLOAT32);
  });

  it("has a byte-level BPE vocabulary with ChatML and tool-call tokens", () => {
    const vocab = tinyVocab();
    const tokens = meta.get("tokenizer.ggml.tokens");
    expect(meta.get("tokenizer.ggml.model")).toBe("gpt2");
    expect(meta.get("tokenizer.ggml.pre")).toBe("qwen2");
    expect(tokens).toEqual(vocab.tokens);
    expect(meta.get("llama.vocab_size")).toBe(vocab.tokens.length);
    expect(gguf.metadataArrayTypes.get("tokenizer.ggml.tokens")).toBe(GgufType.STRING);
    expect(gguf.metadataArrayTypes.get("tokenizer.ggml.scores")).toBe(GgufType.FLOAT32);
    expect(gguf.metadataArrayTypes.get("tokenizer.ggml.token_type")).toBe(GgufType.INT32);
    expect((meta.get("tokenizer.ggml.scores") as number[]).length).toBe(vocab.tokens.length);
    // all 256 bytes are distinct single-character tokens: any text can be tokenized
    expect(new Set(vocab.tokens.slice(0, 256)).size).toBe(256);
    expect(vocab.tokens.slice(0, 256).every((t) => [...t].length === 1)).toBe(true);
    expect(vocab.tokens[vocab.byteToken(0x20)]).toBe("Ġ");
    expect(vocab.tokens[vocab.byteToken(0x0a)]).toBe("Ċ");
    expect(vocab.tokens[vocab.byteToken(0x41)]).toBe("A");

    const types = meta.get("tokenizer.ggml.token_type") as number[];
    for (const text of ["<|endoftext|>", "<|im_start|>", "<|im_end|>"] as const) {
      expect(types[vocab.special(text)]).toBe(TokenType.CONTROL);
    }
    for (const text of ["<tool_call>", "</tool_call>"] as const) {
      expect(types[vocab.special(text)]).toBe(TokenType.USER_DEFINED);
    }
    expect(meta.get("tokenizer.ggml.eos_token_id")).toBe(vocab.special("<|im_end|>"));
    expect(meta.get("tokenizer.ggml.bos_token_id")).toBe(vocab.special("<|endoftext|>"));
    expect(meta.get("tokenizer.ggml.add_bos_token")).toBe(false);
  });

  it("has merges whose parts and results are all tokens", () => {
    const tokens = new Set(meta.get("tokenizer.ggml.tokens") as string[]);
    const merges = meta.get("tokenizer.ggml.merges") as string[];
    expect(merges.length).toBeGreaterThan(10);
    for (const merge of merges) {
      const [left, right, ...rest] = merge.split(" ");
      expect(rest).toEqual([]);
      expect(tokens.has(left!)).toBe(true);
      expect(tokens.has(right!)).toBe(true);
      expect(tokens.has(left! + right!)).toBe(true);
    }
    expect(tokens.has("Ġthe")).toBe(true);
  });

  it("carries the Qwen2.5 tool-calling chat template", () => {
    expect(meta.get("tokenizer.chat_template")).toBe(QWEN25_CHAT_TEMPLATE);
    expect(QWEN25_CHAT_TEMPLATE).toContain('<tool_call>\\n{"name": ');
    expect(QWEN25_CHAT_TEMPLATE).toContain("tool | tojson");
    expect(parseGguf(makeTinyGguf({ chatTemplate: null })).metadata.has("tokenizer.chat_template")).toBe(false);
  });

  it("has the llama tensors with consistent shapes, aligned and inside the file", () => {
    const byName = new Map(gguf.tensors.map((t) => [t.name, t]));
    const nVocab = tinyVocab().tokens.length;
    expect(byName.get("token_embd.weight")?.dims).toEqual([64, nVocab]);
    expect(byName.get("output.weight")?.dims).toEqual([64, nVocab]);
    expect(byName.get("output_norm.weight")?.dims).toEqual([64]);
    for (const i of [0, 1]) {
      expect(byName.get(`blk.${i}.attn_q.weight`)?.dims).toEqual([64, 64]);
      expect(byName.get(`blk.${i}.attn_k.weight`)?.dims).toEqual([64, 64]);
      expect(byName.get(`blk.${i}.ffn_gate.weight`)?.dims).toEqual([64, 128]);
      expect(byName.get(`blk.${i}.ffn_down.weight`)?.dims).toEqual([128, 64]);
      expect(byName.get(`blk.${i}.attn_norm.weight`)?.type).toBe(GgmlType.F32);
    }
    expect(gguf.tensors).toHaveLength(3 + 2 * 9);
    const sorted = [...gguf.tensors].sort((a, b) => a.offset - b.offset);
    for (let i = 1; i < sorted.length; i++) {
      expect(sorted[i]!.offset).toBeGreaterThanOrEqual(sorted[i - 1]!.offset + tensorByteSize(sorted[i - 1]!)!);
    }
    const last = sorted.at(-1)!;
    expect(gguf.dataOffset + last.offset + tensorByteSize(last)!).toBeLessThanOrEqual(bytes.byteLength);
  });

  it("writes norms as ones and weights as small seeded values", () => {
    const norm = gguf.tensors.find((t) => t.name === "blk.0.attn_norm.weight")!;
    const q = gguf.tensors.find((t) => t.name === "blk.0.attn_q.weight")!;
    const at = (t: typeof norm) =>
      new Float32Array(bytes.slice(gguf.dataOffset + t.offset, gguf.dataOffset + t.offset + tensorByteSize(t)!).buffer);
    expect([...at(norm)].every((v) => v === 1)).toBe(true);
    const values = at(q);
    expect(values.every((v) => Math.abs(v) <= 1 / 8 && Number.isFinite(v))).toBe(true);
    expect(new Set(values).size).toBeGreaterThan(values.length / 2);
  });

  it("supports GQA and F16 weights", () => {
    const small = parseGguf(makeTinyGguf({ headCountKv: 2, weightType: "f16", separateOutput: false }));
    const k = small.tensors.find((t) => t.name === "blk.0.attn_k.weight")!;
    expect(k.dims).toEqual([64, 32]);
    expect(k.type).toBe(GgmlType.F16);
    expect(small.metadata.get("general.file_type")).toBe(1);
    expect(small.tensors.some((t) => t.name === "output.weight")).toBe(false);
  });

  it("rejects impossible shapes", () => {
    expect(() => makeTinyGguf({ embeddingLength: 64, headCount: 5 })).toThrow(/even integer/);
    expect(() => makeTinyGguf({ headCount: 4, headCountKv: 3 })).toThrow(/divide/);
  });
});

describe("printableOnly (default)", () => {
  const bytes = makeTinyGguf();
  const gguf = parseGguf(bytes);
  const nVocab = tinyVocab().tokens.length;
  const read = (name: string) => {
    const t = gguf.tensors.find((x) => x.name === name)!;
    const start = gguf.dataOffset + t.offset;
    return new Float32Array(bytes.slice(start, start + tensorByteSize(t)!).buffer);
  };

  it("keeps embedding dimension 0 as a constant channel no block writes to", () => {
    const embd = read("token_embd.weight");
    for (let t = 0; t < nVocab; t++) expect(embd[t * 64]).toBe(8);
    expect([...read("blk.0.attn_output.weight").subarray(0, 64)].every((v) => v === 0)).toBe(true);
    expect([...read("blk.1.ffn_down.weight").subarray(0, 128)].every((v) => v === 0)).toBe(true);
    expect(read("blk.0.attn_output.weight")[64]).not.toBe(0);
  });

  it("penalizes exactly the non-printable byte tokens on that channel", () => {
    const out = read("output.weight");
    for (let t = 0; t < nVocab; t++) {
      expect(out[t * 64]).toBe(t < 256 && !isPrintable(t) ? -4 : 0);
    }
    expect(isPrintable(0x0a) && isPrintable(0x41) && !isPrintable(0x09) && !isPrintable(0x80)).toBe(true);
  });

  it("can be turned off, and needs a separate output matrix", () => {
    const plain = parseGguf(makeTinyGguf({ printableOnly: false }));
    expect(plain.tensors.length).toBe(gguf.tensors.length);
    expect(() => makeTinyGguf({ separateOutput: false, printableOnly: true })).toThrow(/separateOutput/);
  });
});

describe("eagerToolCalls", () => {
  const bytes = makeTinyGguf({ eagerToolCalls: true });
  const gguf = parseGguf(bytes);
  const vocab = tinyVocab();
  const read = (name: string) => {
    const t = gguf.tensors.find((x) => x.name === name)!;
    const start = gguf.dataOffset + t.offset;
    return new Float32Array(bytes.slice(start, start + tensorByteSize(t)!).buffer);
  };
  const nl = vocab.byteToken(0x0a);
  const open = vocab.special("<tool_call>");
  const close = vocab.special("</tool_call>");
  const end = vocab.special("<|im_end|>");

  it("marks the trigger tokens on channels 1-3 and wires each to the token that should follow", () => {
    const embd = read("token_embd.weight");
    const out = read("output.weight");
    const row = (m: Float32Array, t: number) => [...m.subarray(t * 64, t * 64 + 4)];
    expect(row(embd, nl)).toEqual([8, 4, 0, 0]);
    expect(row(embd, open)).toEqual([8, 0, 4, 0]);
    expect(row(embd, close)).toEqual([8, 0, 0, 4]);
    expect(row(embd, 0x41)).toEqual([8, 0, 0, 0]);
    expect(row(out, open)).toEqual([0, 10, 0, 0]);
    expect(row(out, nl)).toEqual([0, 0, 10, 0]);
    expect(row(out, end)).toEqual([0, 0, 0, 10]);
    expect(row(out, close)).toEqual([2, 0, 0, 0]);
    expect(row(out, 0x00)).toEqual([-4, 0, 0, 0]);
  });

  it("keeps blocks from writing to the reserved channels", () => {
    expect([...read("blk.0.attn_output.weight").subarray(0, 4 * 64)].every((v) => v === 0)).toBe(true);
    expect([...read("blk.1.ffn_down.weight").subarray(0, 4 * 128)].every((v) => v === 0)).toBe(true);
    expect(read("blk.1.ffn_down.weight")[4 * 128]).not.toBe(0);
  });

  it("needs room for the channels", () => {
    expect(() => makeTinyGguf({ eagerToolCalls: true, embeddingLength: 4, headCount: 1 })).toThrow(/too small/);
  });
});

describe("other tool-call formats: Llama 3.x and Hermes 2 Pro", () => {
  it("appends extra control tokens after every other token, moving no id", () => {
    const base = tinyVocab();
    const vocab = tinyVocab({ extraSpecialTokens: LLAMA3_SPECIAL_TOKENS });
    expect(vocab.tokens).toEqual([...base.tokens, ...LLAMA3_SPECIAL_TOKENS]);
    expect(vocab.special("<|eot_id|>")).toBe(base.tokens.length + 3);
    expect(vocab.tokenTypes.slice(base.tokens.length)).toEqual(LLAMA3_SPECIAL_TOKENS.map(() => TokenType.CONTROL));
    expect(vocab.special("<|im_end|>")).toBe(base.special("<|im_end|>"));
    const withAnswer = tinyVocab({ answerAfterToolResult: "Done.", extraSpecialTokens: ["<|eot_id|>"] });
    expect(withAnswer.tokens.slice(-2)).toEqual(["Done.", "<|eot_id|>"]);
    expect(() => tinyVocab({ extraSpecialTokens: ["<|im_end|>"] })).toThrow(/already in the vocabulary/);
  });

  it("writes the chosen template and the extra tokens into the file", () => {
    const llama = parseGguf(makeTinyGguf({ chatTemplate: LLAMA32_CHAT_TEMPLATE, extraSpecialTokens: LLAMA3_SPECIAL_TOKENS }));
    expect(llama.metadata.get("tokenizer.chat_template")).toBe(LLAMA32_CHAT_TEMPLATE);
    expect((llama.metadata.get("tokenizer.ggml.tokens") as string[]).slice(-6)).toEqual([...LLAMA3_SPECIAL_TOKENS]);
    expect(parseGguf(makeTinyGguf({ chatTemplate: HERMES2PRO_CHAT_TEMPLATE })).metadata.get("tokenizer.chat_template")).toBe(
      HERMES2PRO_CHAT_TEMPLATE,
    );
    // The formats' own shapes: a bare JSON call with "parameters" in the ipython world; <tool_call> with "arguments" and a tool turn.
    expect(LLAMA32_CHAT_TEMPLATE).toContain(`'{"name": "' + call.name + '", "parameters": '`);
    expect(LLAMA32_CHAT_TEMPLATE).toContain("<|start_header_id|>ipython<|end_header_id|>");
    expect(HERMES2PRO_CHAT_TEMPLATE).toContain(`'\\n<tool_call>\\n{"name": "' + call.name + '", "arguments": '`);
    expect(HERMES2PRO_CHAT_TEMPLATE).toContain('"<|im_start|>tool\\n"');
  });

  it('eagerToolCalls "json" wires "\\n" to "{" on one channel, without the <tool_call> wiring', () => {
    const bytes = makeTinyGguf({ eagerToolCalls: "json" });
    const gguf = parseGguf(bytes);
    const read = (name: string) => {
      const t = gguf.tensors.find((x) => x.name === name)!;
      const start = gguf.dataOffset + t.offset;
      return new Float32Array(bytes.slice(start, start + tensorByteSize(t)!).buffer);
    };
    const vocab = tinyVocab();
    // Channel 0 is the bias channel, channel 1 the only feature; the rest are the random weights.
    const row = (m: Float32Array, t: number) => [...m.subarray(t * 64, t * 64 + 2)];
    expect(row(read("token_embd.weight"), vocab.byteToken(0x0a))).toEqual([8, 4]);
    expect(row(read("token_embd.weight"), vocab.special("<tool_call>"))).toEqual([8, 0]);
    expect(row(read("output.weight"), vocab.byteToken(0x7b))).toEqual([0, 10]);
    expect(row(read("output.weight"), vocab.special("<tool_call>"))).toEqual([0, 0]);
    expect(row(read("output.weight"), vocab.special("</tool_call>"))).toEqual([0, 0]);
  });
});

describe("answerAfterToolResult", () => {
  const answer = "Done.";
  const bytes = makeTinyGguf({ eagerToolCalls: true, answerAfterToolResult: answer });
  const gguf = parseGguf(bytes);
  const base = tinyVocab();
  const vocab = tinyVocab({ answerAfterToolResult: answer });
  const read = (name: string, file = bytes) => {
    const parsed = file === bytes ? gguf : parseGguf(file);
    const t = parsed.tensors.find((x) => x.name === name)!;
    const start = parsed.dataOffset + t.offset;
    return new Float32Array(file.slice(start, start + tensorByteSize(t)!).buffer);
  };
  const row = (m: Float32Array, t: number) => [...m.subarray(t * 64, t * 64 + 6)];
  const marker = vocab.special("</tool_response>");
  const end = vocab.special("<|im_end|>");

  it("is off by default: same vocabulary, template and bytes as before", () => {
    expect(base.answerToken).toBeUndefined();
    expect(parseGguf(makeTinyGguf()).metadata.get("tokenizer.chat_template")).toBe(QWEN25_CHAT_TEMPLATE);
    const same = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((v, i) => v === b[i]);
    expect(same(makeTinyGguf({ answerAfterToolResult: undefined }), makeTinyGguf())).toBe(true);
  });

  it("adds the answer as one NORMAL token after the special tokens, which no merge produces", () => {
    expect(vocab.tokens).toEqual([...base.tokens, "Done."]);
    expect(vocab.answerToken).toBe(base.tokens.length);
    expect(vocab.tokenTypes[vocab.answerToken!]).toBe(TokenType.NORMAL);
    expect(gguf.metadata.get("tokenizer.ggml.tokens")).toEqual(vocab.tokens);
    expect(gguf.metadata.get("llama.vocab_size")).toBe(base.tokens.length + 1);
    expect(gguf.metadata.get("tokenizer.ggml.merges")).toEqual(base.merges);
    expect(vocab.special("<|im_end|>")).toBe(base.special("<|im_end|>"));
    // byte-level form: a space is "Ġ"; a one-byte answer is that byte's own token
    expect(tinyVocab({ answerAfterToolResult: "All done." }).tokens.at(-1)).toBe("AllĠdone.");
    expect(tinyVocab({ answerAfterToolResult: "K" }).answerToken).toBe(base.byteToken(0x4b));
    expect(tinyVocab({ answerAfterToolResult: "K" }).tokens).toEqual(base.tokens);
  });

  it("uses the template whose generation prompt ends with </tool_response> after a tool result", () => {
    expect(TOOL_RESULT_MARKER).toBe("</tool_response>");
    expect(gguf.metadata.get("tokenizer.chat_template")).toBe(QWEN25_TOOL_RESULT_CHAT_TEMPLATE);
    const inserted = `    {%- if messages[messages|length - 1].role == "tool" %}\n        {{- '</tool_response>' }}\n    {%- endif %}\n`;
    expect(QWEN25_TOOL_RESULT_CHAT_TEMPLATE).toContain(`{{- '<|im_start|>assistant\\n' }}\n${inserted}{%- endif %}\n`);
    expect(QWEN25_TOOL_RESULT_CHAT_TEMPLATE.replace(inserted, "")).toBe(QWEN25_CHAT_TEMPLATE);
    const own = parseGguf(makeTinyGguf({ answerAfterToolResult: answer, chatTemplate: "{{ messages }}" }));
    expect(own.metadata.get("tokenizer.chat_template")).toBe("{{ messages }}");
  });

  it("wires </tool_response> to the answer and the answer to <|im_end|> on channels 4-5, after the eager channels", () => {
    const embd = read("token_embd.weight");
    const out = read("output.weight");
    expect(row(embd, marker)).toEqual([8, 0, 0, 0, 4, 0]);
    expect(row(embd, vocab.answerToken!)).toEqual([8, 0, 0, 0, 0, 4]);
    expect(row(embd, vocab.byteToken(0x0a))).toEqual([8, 4, 0, 0, 0, 0]);
    expect(row(out, vocab.answerToken!)).toEqual([0, 0, 0, 0, 10, 0]);
    expect(row(out, end)).toEqual([0, 0, 0, 10, 0, 10]);
    expect([...read("blk.0.attn_output.weight").subarray(0, 6 * 64)].every((v) => v === 0)).toBe(true);
    expect([...read("blk.1.ffn_down.weight").subarray(0, 6 * 128)].every((v) => v === 0)).toBe(true);

    // without eagerToolCalls the two channels are 1-2
    const alone = makeTinyGguf({ answerAfterToolResult: answer });
    const aloneEmbd = read("token_embd.weight", alone);
    const aloneOut = read("output.weight", alone);
    expect(row(aloneEmbd, marker).slice(0, 3)).toEqual([8, 4, 0]);
    expect(row(aloneEmbd, vocab.answerToken!).slice(0, 3)).toEqual([8, 0, 4]);
    expect(row(aloneOut, vocab.answerToken!).slice(0, 3)).toEqual([0, 10, 0]);
    expect(row(aloneOut, end).slice(0, 3)).toEqual([0, 0, 10]);
  });

  it("rejects answers that are empty, not printable ASCII, could open a tool call or clash with the eager wiring", () => {
    for (const bad of ["", "café", "tab\there", "<tool_call>", "a<b"]) {
      expect(() => makeTinyGguf({ answerAfterToolResult: bad })).toThrow(/printable ASCII/);
    }
    expect(() => makeTinyGguf({ eagerToolCalls: true, answerAfterToolResult: "\n" })).toThrow(/clashes/);
    expect(() => makeTinyGguf({ answerAfterToolResult: "ok", separateOutput: false, printableOnly: false })).toThrow(/separateOutput/);
  });
});

describe("makeTinyGgufSplits", () => {
  it("deals the tensors over shards carrying split.* metadata, metadata in shard 1 only", () => {
    const whole = parseGguf(makeTinyGguf());
    const shards = makeTinyGgufSplits(3).map(parseGguf);
    expect(shards).toHaveLength(3);
    shards.forEach((shard, i) => {
      expect(shard.metadata.get("split.no")).toBe(i);
      expect(shard.metadataTypes.get("split.no")).toBe(GgufType.UINT16);
      expect(shard.metadata.get("split.count")).toBe(3);
      expect(shard.metadataTypes.get("split.count")).toBe(GgufType.UINT16);
      expect(shard.metadata.get("split.tensors.count")).toBe(whole.tensorCount);
      expect(shard.metadataTypes.get("split.tensors.count")).toBe(GgufType.INT32);
      expect(shard.metadata.has("general.architecture")).toBe(i === 0);
    });
    expect(shards.flatMap((s) => s.tensors.map((t) => t.name))).toEqual(whole.tensors.map((t) => t.name));
    expect(() => makeTinyGgufSplits(0)).toThrow(/split count/);
  });
});
