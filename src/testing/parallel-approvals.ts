/**
 * A turn where two subagents run in parallel and each asks to write a file
 * (with "Ask before changing files" on): the loopback server's replies, for
 * the worker API in Node and for the real worker in Chromium. The parent's
 * `task` calls have fixed ids (`tA` asks for /shown.md, `tB` for
 * /other.md); every reply is matched to its agent by the text it was given.
 */
import type { ServerReply } from "./provider-servers.ts";

/** The user's message (the parent's requests carry it). */
export const PARALLEL_PROMPT = "PARENT: write both files";

export function parallelApprovalReplies(): ServerReply[] {
  const child = (path: string): ServerReply[] => [
    { when: { lastUserIncludes: path }, toolCalls: [{ name: "write_file", args: { file_path: path, content: `${path} body` } }] },
    { when: { lastUserIncludes: path }, text: `wrote ${path}` },
  ];
  return [
    {
      when: { lastUserIncludes: PARALLEL_PROMPT },
      toolCalls: [
        { id: "tA", name: "task", args: { description: "/shown.md", subagent_type: "general-purpose" } },
        { id: "tB", name: "task", args: { description: "/other.md", subagent_type: "general-purpose" } },
      ],
    },
    ...child("/shown.md"),
    ...child("/other.md"),
    { when: { lastUserIncludes: PARALLEL_PROMPT }, text: "Both subagents answered." },
  ];
}
