/**
 * The tiny model's vocabulary: a byte-level BPE ("gpt2") tokenizer over 256 byte tokens, a few merges (so
 * tokenization really merges), the ChatML and tool-call special tokens, and the optional answer token and extra
 * control tokens. Ids are stable for given options.
 */
import { TokenType } from "./format.ts";

/** Special tokens appended after the byte and merge tokens, with their token type. */
const TINY_SPECIAL_TOKENS = [
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

/** What shapes the vocabulary (see TinyGgufOptions in tiny-model.ts). */
export interface TinyVocabOptions {
  answerAfterToolResult?: string;
  extraSpecialTokens?: readonly string[];
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
function bytesToUnicode(): string[] {
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
export function tinyVocab(options: TinyVocabOptions = {}): TinyVocab {
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

/** Bytes the tiny model may emit when `printableOnly`: printable ASCII and newline. */
export function isPrintable(byte: number): boolean {
  return byte === 0x0a || (byte >= 0x20 && byte <= 0x7e);
}
