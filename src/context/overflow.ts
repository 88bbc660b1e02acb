/**
 * Recognizes "the request is too long for the model" across providers:
 * LangChain's ContextOverflowError, and the raw OpenAI, Anthropic and
 * OpenAI-compatible error shapes a client may leave unmapped.
 */
import { ContextOverflowError } from "@langchain/core/errors";

const OVERFLOW_TEXT = new RegExp(
  [
    "context[_ ]length[_ ]exceeded",
    "maximum context length",
    "context window",
    "prompt is too long",
    "input is too long",
    "too many tokens",
    "reduce the length of the messages",
    "exceeds the (?:model's )?(?:maximum|max) (?:context|input)",
    "request too large",
  ].join("|"),
  "i",
);

export function isContextOverflow(err: unknown): boolean {
  if (ContextOverflowError.isInstance(err)) return true;
  if (typeof err !== "object" || err === null) return false;
  const e = err as {
    name?: unknown;
    code?: unknown;
    status?: unknown;
    message?: unknown;
    error?: { type?: unknown; code?: unknown; message?: unknown };
  };
  if (e.name === "ContextOverflowError") return true;
  if (e.code === "context_length_exceeded" || e.error?.code === "context_length_exceeded") return true;
  const message = [e.message, e.error?.message].filter((x) => typeof x === "string").join(" ");
  const status = typeof e.status === "number" ? e.status : undefined;
  if (status !== undefined && status !== 400 && status !== 413 && status !== 422) return false;
  return OVERFLOW_TEXT.test(message);
}
