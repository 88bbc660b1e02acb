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
  // Each request is matched by the agent it comes from and how many tool results it carries, and the first reply of
  // each agent is queued twice: Chromium silently resends a request whose connection dropped (under load the first
  // answer is then lost), and the resent one must get the same answer, not the agent's next one.
  const child = (path: string): ServerReply[] => {
    const write: ServerReply = {
      when: { lastUserIncludes: path, toolResults: 0 },
      toolCalls: [{ name: "write_file", args: { file_path: path, content: `${path} body` } }],
    };
    return [write, write, { when: { lastUserIncludes: path, toolResults: 1 }, text: `wrote ${path}` }];
  };
  const delegate: ServerReply = {
    when: { lastUserIncludes: PARALLEL_PROMPT, toolResults: 0 },
    toolCalls: [
      { id: "tA", name: "task", args: { description: "/shown.md", subagent_type: "general-purpose" } },
      { id: "tB", name: "task", args: { description: "/other.md", subagent_type: "general-purpose" } },
    ],
  };
  return [
    delegate,
    delegate,
    ...child("/shown.md"),
    ...child("/other.md"),
    { when: { lastUserIncludes: PARALLEL_PROMPT, toolResults: 2 }, text: "Both subagents answered." },
  ];
}
