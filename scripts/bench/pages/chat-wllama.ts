/**
 * Bench page (scripts/bench/browser.ts): the tiny GGUF the tests make
 * (src/testing/gguf/tiny-model.ts) loaded once into wllama with the self-hosted wasm;
 * the same greedy chat completion made through ChatWllama (`invoke`, as the
 * agent loop calls it) and through wllama's `createChatCompletion` streamed
 * directly, alternating, after one warm-up of each.
 *
 * Open /scripts/bench/pages/chat-wllama.html on the Vite dev server and call
 * `window.benchChatWllama()`; `npm run bench` does that in headless Chromium.
 */
import { HumanMessage } from "@langchain/core/messages";
import type { ChatCompletionParams } from "@wllama/wllama";
import { createWllama, loadModelChecked } from "../../../src/models/wllama/assets.ts";
import { ChatWllama, type ServerExtras } from "../../../src/models/wllama/chat-wllama.ts";
import { wllamaEngine } from "../../../src/models/wllama/engine.ts";
import { makeTinyGguf } from "../../../src/testing/gguf/tiny-model.ts";
import type { GenerationRun, WllamaBenchResult } from "./results.ts";

const RUNS = 9;
const MAX_TOKENS = 256;
const PROMPT = "Write a long story about the sea.";

async function bench(): Promise<WllamaBenchResult> {
  const bytes = makeTinyGguf();
  const wllama = createWllama();
  const loadStart = performance.now();
  await loadModelChecked(wllama, [new Blob([bytes as BlobPart])], { n_ctx: 2048, n_gpu_layers: 0 });
  const loadMs = performance.now() - loadStart;
  try {
    const model = new ChatWllama({ engine: wllamaEngine(wllama, "tiny.gguf"), temperature: 0, maxTokens: MAX_TOKENS });
    // What ChatWllama sends, minus the stream flag the engine adds.
    const params: ChatCompletionParams & ServerExtras = {
      messages: [{ role: "user", content: PROMPT }],
      temperature: 0,
      max_tokens: MAX_TOKENS,
      stream_options: { include_usage: true },
    };
    let promptTokens = 0;
    const texts = new Set<string>();

    async function direct(): Promise<GenerationRun> {
      const start = performance.now();
      let text = "";
      let finishReason = "";
      let completionTokens = 0;
      for await (const chunk of await wllama.createChatCompletion({ ...params, stream: true })) {
        const choice = chunk.choices[0];
        text += choice?.delta?.content ?? "";
        if (choice?.finish_reason) finishReason = choice.finish_reason;
        if (chunk.usage) {
          completionTokens = chunk.usage.completion_tokens;
          promptTokens = chunk.usage.prompt_tokens;
        }
      }
      const ms = performance.now() - start;
      texts.add(text);
      return { ms, completionTokens, finishReason };
    }

    async function viaChatWllama(): Promise<GenerationRun> {
      const start = performance.now();
      const message = await model.invoke([new HumanMessage(PROMPT)]);
      const ms = performance.now() - start;
      texts.add(message.text);
      const finish = message.response_metadata?.finish_reason;
      return { ms, completionTokens: message.usage_metadata?.output_tokens ?? 0, finishReason: typeof finish === "string" ? finish : "" };
    }

    await direct();
    await viaChatWllama();
    const runs: WllamaBenchResult = {
      modelBytes: bytes.byteLength,
      loadMs,
      threads: wllama.getNumThreads(),
      maxTokens: MAX_TOKENS,
      promptTokens: 0,
      sameText: false,
      direct: [],
      chatWllama: [],
    };
    for (let i = 0; i < RUNS; i++) {
      // Alternate which goes first, so neither always follows the other.
      if (i % 2 === 0) {
        runs.direct.push(await direct());
        runs.chatWllama.push(await viaChatWllama());
      } else {
        runs.chatWllama.push(await viaChatWllama());
        runs.direct.push(await direct());
      }
    }
    return { ...runs, promptTokens, sameText: texts.size === 1 };
  } finally {
    await wllama.exit();
  }
}

window.benchChatWllama = bench;
