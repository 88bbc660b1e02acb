import { describe, expect, it } from "vitest";
import type { MessageInfo } from "../../protocol/messages.ts";
import { demoPreview, repliesText } from "./demo-preview.ts";

describe("demoPreview", () => {
  it("keeps the person's prompts, counts every reply (a subagent's too) and lists each tool once, first called first", () => {
    const messages: MessageInfo[] = [
      { role: "user", content: "Write the report" },
      {
        role: "assistant",
        content: "",
        toolCalls: [
          { id: "1", name: "write_file", args: {} },
          {
            id: "2",
            name: "task",
            args: {},
            children: [
              { role: "assistant", content: "", toolCalls: [{ id: "s1", name: "grep", args: {} }] },
              { role: "tool", content: "found", name: "grep" },
              { role: "assistant", content: "Done." },
            ],
          },
        ],
      },
      { role: "tool", content: "ok", name: "write_file" },
      { role: "tool", content: "Done.", name: "task" },
      { role: "user", content: "Revise it", grader: true },
      { role: "user", content: "Files restored", note: true },
      { role: "assistant", content: "", toolCalls: [{ id: "3", name: "write_file", args: {} }] },
      { role: "assistant", content: "Here it is." },
      { role: "user", content: "Thanks" },
      { role: "assistant", content: "You're welcome." },
    ];
    expect(demoPreview(messages)).toEqual({ prompts: ["Write the report", "Thanks"], replies: 6, tools: ["write_file", "task", "grep"] });
  });

  it("an empty thread keeps nothing", () => {
    expect(demoPreview([])).toEqual({ prompts: [], replies: 0, tools: [] });
    expect([repliesText(1), repliesText(2)]).toEqual(["1 model reply", "2 model replies"]);
  });
});
