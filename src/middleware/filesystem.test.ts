import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { describe, expect, it } from "vitest";
import { StateBackend } from "../backends/state.ts";
import type { ExecuteResult, SandboxBackendProtocol } from "../backends/protocol.ts";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import type { AgentTool } from "../harness/types.ts";
import { ScriptedChatModel } from "../models/scripted.ts";
import { headTailPreview } from "./eviction.ts";

const toolResults = (messages: BaseMessage[]) => messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));

/** 169,889 characters over 2,000 numbered lines, as in the seed's probe P3. */
function bigText(): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 1; size < 169_889; i++) {
    const line = `row ${String(i).padStart(5, "0")} ${"abcdefghij".repeat(8)}`;
    lines.push(line);
    size += line.length + 1;
  }
  const text = lines.join("\n");
  return text.slice(0, 169_889);
}

describe("large tool result eviction", () => {
  const big = bigText();
  const dump: AgentTool = {
    name: "dump",
    description: "returns a huge text",
    schema: { type: "object", properties: {} },
    run: async () => big,
  };

  it("stores a 169,889-char result and shows the model a stub under 2,000 chars, readable page by page", async () => {
    expect(big.length).toBe(169_889);
    const totalLines = big.split("\n").length;
    const pages = Math.ceil(totalLines / 100);
    const model = new ScriptedChatModel({
      script: ({ call }) => {
        if (call === 0) return { toolCalls: [{ name: "dump", args: {}, id: "call/big:1" }] };
        if (call <= pages)
          return {
            toolCalls: [{ name: "read_file", args: { file_path: "/large_tool_results/call_big:1", offset: (call - 1) * 100, limit: 100 } }],
          };
        return { text: "read it all" };
      },
    });
    const out = await createDeepAgent({ model, tools: [dump] }).invoke({ messages: [new HumanMessage("dump")] });
    const [stub, ...reads] = toolResults(out.messages);
    const stubText = String(stub!.content);
    expect(stubText.length).toBeLessThan(2_000);
    expect(stubText).toContain("/large_tool_results/call_big:1");
    expect(stubText).toContain("read_file");
    expect(stubText).toContain("offset=0 and limit=100");
    expect(stubText).toContain(`... [${totalLines - 10} lines truncated] ...`);
    expect(stubText).toContain("     1\trow 00001");
    expect(stubText).toContain(`${String(totalLines).padStart(6)}\t`);
    // The model's next request carries the stub, not the full text.
    expect(String(model.calls[1]!.messages.at(-1)!.content)).toBe(stubText);
    // Paging through read_file gives back every line.
    const rebuilt = reads
      .map((m) =>
        String(m.content)
          .split("\n")
          .map((l) => l.slice(l.indexOf("\t") + 1))
          .join("\n"),
      )
      .join("\n");
    expect(rebuilt).toBe(big);
    expect(out.files["/large_tool_results/call_big:1"].content).toBe(big);
  });

  it("does not evict results of tools that cap themselves (read_file cuts at 80,000 chars instead)", async () => {
    const model = new ScriptedChatModel({
      script: [{ toolCalls: [{ name: "read_file", args: { file_path: "/wide.txt", limit: 100 } }] }, { text: "ok" }],
    });
    const wide = Array.from({ length: 100 }, () => "y".repeat(1_000)).join("\n");
    const agent = createDeepAgent({ model });
    const out = await agent.invoke({
      messages: [new HumanMessage("read")],
      files: { "/wide.txt": { content: wide, encoding: "utf-8", createdAt: "t", modifiedAt: "t" } },
    });
    const [result] = toolResults(out.messages);
    const text = String(result!.content);
    expect(text.length).toBe(80_000);
    expect(text).toContain("[Output was truncated due to size limits. The file content is very large.");
    expect(text).toContain("execute(command='jq . /wide.txt')");
    expect(Object.keys(out.files)).toEqual(["/wide.txt"]);
  });

  it("keeps short results as they are", () => {
    expect(headTailPreview("a\nb")).toBe("     1\ta\n     2\tb");
  });
});

describe("same-path mutations in one AI message", () => {
  it("rejects the second mutation of a path and runs the others", async () => {
    const model = new ScriptedChatModel({
      script: [
        {
          toolCalls: [
            { name: "write_file", args: { file_path: "/a.md", content: "first" }, id: "w1" },
            { name: "edit_file", args: { file_path: "//a.md", old_string: "first", new_string: "second" }, id: "w2" },
            { name: "write_file", args: { file_path: "/b.md", content: "other" }, id: "w3" },
          ],
        },
        { text: "ok" },
      ],
    });
    const out = await createDeepAgent({ model }).invoke({ messages: [new HumanMessage("go")] });
    const byId = Object.fromEntries(toolResults(out.messages).map((m) => [m.tool_call_id, m]));
    expect(byId.w1!.status).toBe("success");
    expect(byId.w2!.status).toBe("error");
    expect(String(byId.w2!.content)).toContain("/a.md");
    expect(byId.w3!.status).toBe("success");
    expect(out.files["/a.md"].content).toBe("first");
    expect(out.files["/b.md"].content).toBe("other");
  });
});

describe("execute on a sandbox backend", () => {
  class FakeSandbox extends StateBackend implements SandboxBackendProtocol {
    readonly id = "fake";
    async execute(command: string): Promise<ExecuteResult> {
      return command === "fail"
        ? { output: "boom", exitCode: 2, truncated: false }
        : { output: `ran ${command}`, exitCode: 0, truncated: true };
    }
  }

  it("is shown to the model and reports exit codes", async () => {
    const model = new ScriptedChatModel({
      script: [
        {
          toolCalls: [
            { name: "execute", args: { command: "echo hi" } },
            { name: "execute", args: { command: "fail" } },
          ],
        },
        { text: "ok" },
      ],
    });
    const out = await createDeepAgent({ model, backend: (rt) => new FakeSandbox(rt) }).invoke({ messages: [new HumanMessage("run")] });
    expect(model.calls[0]!.tools).toContain("execute");
    const [ok, failed] = toolResults(out.messages);
    expect(ok!.content).toBe("ran echo hi\n[Command succeeded with exit code 0]\n[Output was truncated due to size limits]");
    expect(failed!.content).toBe("boom\n[Command failed with exit code 2]");
  });
});

describe("deletes reach state", () => {
  it("removes the file from state through the delete marker", async () => {
    const model = new ScriptedChatModel({
      script: [
        { toolCalls: [{ name: "write_file", args: { file_path: "/old.md", content: "x" } }] },
        { toolCalls: [{ name: "delete", args: { file_path: "/old.md" } }] },
        { text: "gone" },
      ],
    });
    const out = await createDeepAgent({ model }).invoke({ messages: [new HumanMessage("go")] });
    expect(out.files).toEqual({});
  });
});
