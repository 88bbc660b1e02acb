/**
 * The page side of Chrome's built-in model: a {@link PromptApiPort} over
 * `window.LanguageModel` (the Prompt API is not exposed to workers). Each
 * prompt runs in a fresh session created from the conversation, and is
 * destroyed when its stream ends or is cancelled.
 */
import type { PromptApiPort, PromptRequest } from "../models/chrome-ai.ts";

interface LanguageModelSession {
  promptStreaming(input: string, options?: { responseConstraint?: unknown; signal?: AbortSignal }): ReadableStream<string>;
  readonly contextWindow?: number;
  readonly inputQuota?: number;
  destroy(): void;
}

export interface LanguageModelApi {
  create(options?: { initialPrompts?: PromptRequest["initialPrompts"]; signal?: AbortSignal }): Promise<LanguageModelSession>;
}

/** The Prompt API of this window, when the browser has one. */
export function languageModelApi(scope: unknown = globalThis): LanguageModelApi | undefined {
  const api = (scope as { LanguageModel?: LanguageModelApi }).LanguageModel;
  return api && typeof api.create === "function" ? api : undefined;
}

export function createPromptApiPort(api: LanguageModelApi): PromptApiPort {
  return {
    async prompt(request, signal) {
      const session = await api.create({ initialPrompts: request.initialPrompts, ...(signal ? { signal } : {}) });
      const source = session.promptStreaming(request.input, {
        ...(request.responseConstraint ? { responseConstraint: request.responseConstraint } : {}),
        ...(signal ? { signal } : {}),
      });
      const reader = source.getReader();
      return new ReadableStream<string>({
        async pull(controller) {
          const { done, value } = await reader.read();
          if (done) {
            controller.close();
            session.destroy();
          } else controller.enqueue(value);
        },
        cancel() {
          void reader.cancel();
          session.destroy();
        },
      });
    },
    async contextWindow() {
      const session = await api.create();
      try {
        return session.contextWindow ?? session.inputQuota ?? 4_096;
      } finally {
        session.destroy();
      }
    },
  };
}
