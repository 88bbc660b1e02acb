/**
 * Reading a demo file (format.ts) against its schema: every problem at once, each naming where it is. Kept apart from
 * the format's types so a run's recorder does not load the schema.
 */
import { z } from "zod";
import { err, ok, type Result } from "../../core/result.ts";
import { DEMO_FORMAT, EXCERPT_CHARS, type Demo } from "./format.ts";

const MAX_TEXT = 200_000;
const nonNegative = z.number().finite().nonnegative();
const toolCall = z.strictObject({
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  args: z.record(z.string(), z.unknown()),
});
const requestPart = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("human"), text: z.string().max(MAX_TEXT) }),
  z.strictObject({
    kind: z.literal("tool"),
    name: z.string().min(1).max(200),
    callId: z.string().max(200),
    error: z.boolean().optional(),
    digest: z.string().regex(/^[0-9a-f]{1,16}$/, "must be a digest (hex)"),
    excerpt: z.string().max(EXCERPT_CHARS),
  }),
]);
const call = z.strictObject({
  conversation: z.string().regex(/^[0-9a-f]{1,16}$/, "must be a digest (hex)"),
  index: z.number().int().nonnegative(),
  request: z.array(requestPart).max(1000),
  reply: z.strictObject({
    text: z.string().max(MAX_TEXT),
    toolCalls: z.array(toolCall).max(100).optional(),
    usage: z.strictObject({ input_tokens: z.number().int().nonnegative(), output_tokens: z.number().int().nonnegative() }).optional(),
  }),
  timing: z.strictObject({
    firstMs: nonNegative,
    chunks: z.array(z.tuple([nonNegative, z.number().int().positive()])).max(100_000),
    endMs: nonNegative,
  }),
});
const demoSchema = z.strictObject({
  format: z.literal(DEMO_FORMAT, { error: `must be "${DEMO_FORMAT}"` }),
  title: z.string().trim().min(1).max(200).optional(),
  recordedBy: z.string().trim().min(1).max(200).optional(),
  model: z.string().trim().min(1).max(200),
  scripted: z.boolean().optional(),
  recordedAt: z.iso.datetime({ error: "must be an ISO 8601 date and time" }).optional(),
  window: z.number().int().positive().optional(),
  prompts: z.array(z.string().min(1).max(MAX_TEXT)).min(1, "a demo needs its prompt").max(100),
  calls: z.array(call).min(1, "a demo needs at least one model reply").max(5000),
});

/** What is wrong with a demo file: a message per problem, each naming where (`calls[3].timing`). */
export type DemoProblems = string[];

/**
 * Reads a demo file's text. Every shape problem is reported at once (`calls[2].reply.text: …`); a call's chunks must
 * add up to its text and its times must not run backwards. Never throws.
 */
export function parseDemo(text: string): Result<Demo, DemoProblems> {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (cause) {
    return err([`not JSON (${cause instanceof Error ? cause.message : String(cause)})`]);
  }
  const parsed = demoSchema.safeParse(data);
  if (!parsed.success) return err(parsed.error.issues.map((i) => `${i.path.length ? `${pathText(i.path)}: ` : ""}${i.message}`));
  const problems: string[] = [];
  parsed.data.calls.forEach((c, i) => {
    const chars = c.timing.chunks.reduce((n, [, size]) => n + size, 0);
    if (c.timing.chunks.length > 0 && chars !== c.reply.text.length)
      problems.push(`calls[${i}].timing.chunks: they add up to ${chars} characters, the reply has ${c.reply.text.length}`);
    let last = c.timing.firstMs;
    for (const [at] of c.timing.chunks) {
      if (at < last) problems.push(`calls[${i}].timing.chunks: a time runs backwards (${at} ms after ${last} ms)`);
      last = Math.max(last, at);
    }
    if (c.timing.endMs < last) problems.push(`calls[${i}].timing.endMs: before the last chunk`);
  });
  return problems.length ? err(problems) : ok(parsed.data as Demo);
}

function pathText(path: readonly PropertyKey[]): string {
  return path.map((p, i) => (typeof p === "number" ? `[${p}]` : `${i ? "." : ""}${String(p)}`)).join("");
}
