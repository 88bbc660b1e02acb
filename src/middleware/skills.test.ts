import { HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { InMemoryStore, MemorySaver } from "@langchain/langgraph/web";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { FileData } from "../backends/protocol.ts";
import type { BackendOption } from "../backends/runtime.ts";
import { StateBackend } from "../backends/state.ts";
import { StoreBackend } from "../backends/store.ts";
import { createDeepAgent } from "../agent/create-deep-agent.ts";
import type { AgentState, AgentTool } from "../harness/types.ts";
import { ScriptedChatModel, type ScriptedTurn } from "../models/scripted.ts";
import { FIXED_NOW, textFile } from "../testing/runtime.ts";
import { parseFrontmatter } from "./frontmatter.ts";
import { parseSkill, skillsMiddleware, type SkillError, type SkillMetadata } from "./skills.ts";

const now = () => FIXED_NOW;
const stateBackend: BackendOption = (rt) => new StateBackend(rt);

function skillFile(name: string, description: string, extra = "", body = "## Steps\n\nTHE SECRET BODY of " + name): FileData {
  return textFile(`---\nname: ${name}\ndescription: ${description}\n${extra}---\n\n${body}\n`);
}

const systemText = (messages: readonly BaseMessage[]) => String(messages[0]!.content);
const toolResults = (messages: readonly BaseMessage[]) => messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));

async function run(
  files: Record<string, FileData>,
  script: ScriptedTurn[],
  options: { sources?: string[]; skillTools?: AgentTool[] } = {},
) {
  const model = new ScriptedChatModel({ script });
  const mw = skillsMiddleware({
    sources: options.sources ?? ["/skills"],
    backend: stateBackend,
    now,
    skillTools: options.skillTools ?? [],
  });
  const agent = createDeepAgent({ model, systemPrompt: "You are the base agent.", middleware: [mw] });
  const out = (await agent.invoke({ messages: [new HumanMessage("hi")], files })) as AgentState;
  return { model, out };
}

afterEach(() => vi.restoreAllMocks());

describe("skills: listing", () => {
  it("lists name, description and path after the stable prompt, never the body", async () => {
    const { model, out } = await run(
      {
        "/skills/web-research/SKILL.md": skillFile("web-research", "Research a topic on the web and cite sources."),
        "/skills/pdf/SKILL.md": skillFile("pdf", ">\n  Fill and merge\n  PDF forms."),
        "/skills/pdf/reference.md": textFile("not a skill"),
      },
      [{ text: "done" }],
    );
    const system = systemText(model.calls[0]!.messages);
    expect(system.startsWith("You are the base agent.")).toBe(true);
    expect(system).toContain("## Skills");
    expect(system).toContain("- web-research: Research a topic on the web and cite sources. (/skills/web-research/SKILL.md)");
    expect(system).toContain("- pdf: Fill and merge PDF forms. (/skills/pdf/SKILL.md)");
    expect(system).toContain("read its SKILL.md with `read_file`");
    expect(system).not.toContain("THE SECRET BODY");
    expect(system).not.toContain("## Steps");
    expect((out.skillsMetadata as SkillMetadata[]).map((s) => s.path).sort()).toEqual([
      "/skills/pdf/SKILL.md",
      "/skills/web-research/SKILL.md",
    ]);
    expect(out.skillErrors).toEqual([]);
  });

  it("adds no section when no skill is found", async () => {
    const { model } = await run({}, [{ text: "done" }]);
    expect(systemText(model.calls[0]!.messages)).toBe("You are the base agent.");
  });

  it("lets a later source override an earlier one with the same name", async () => {
    const { model, out } = await run(
      {
        "/base/pdf/SKILL.md": skillFile("pdf", "Base PDF skill."),
        "/base/csv/SKILL.md": skillFile("csv", "Base CSV skill."),
        "/project/pdf/SKILL.md": skillFile("pdf", "Project PDF skill."),
      },
      [{ text: "done" }],
      { sources: ["/base", "/project"] },
    );
    const system = systemText(model.calls[0]!.messages);
    expect(system).toContain("- pdf: Project PDF skill. (/project/pdf/SKILL.md)");
    expect(system).not.toContain("Base PDF skill.");
    expect(system).toContain("- csv: Base CSV skill. (/base/csv/SKILL.md)");
    expect((out.skillsMetadata as SkillMetadata[]).filter((s) => s.name === "pdf")).toHaveLength(1);
  });

  it("re-reads SKILL.md files only when their listing changed, and sees a skill added between runs", async () => {
    let reads = 0;
    const counting: BackendOption = (rt) => {
      const b = new StateBackend(rt);
      const read = b.read.bind(b);
      b.read = (path, offset, limit) => (reads++, read(path, offset, limit));
      return b;
    };
    const model = new ScriptedChatModel({ script: () => ({ text: "ok" }) });
    const agent = createDeepAgent({
      model,
      checkpointer: new MemorySaver(),
      middleware: [skillsMiddleware({ sources: ["/skills"], backend: counting, now })],
    });
    const config = { configurable: { thread_id: "stamp" } };
    await agent.invoke({ messages: [new HumanMessage("1")], files: { "/skills/a/SKILL.md": skillFile("a", "Skill A.") } }, config);
    expect(reads).toBe(1);
    await agent.invoke({ messages: [new HumanMessage("2")] }, config);
    // Nothing changed: the stamp matched, no SKILL.md was read again.
    expect(reads).toBe(1);
    await agent.invoke({ messages: [new HumanMessage("3")], files: { "/skills/b/SKILL.md": skillFile("b", "Skill B.") } }, config);
    expect(systemText(model.calls[1]!.messages)).not.toContain("Skill B.");
    expect(systemText(model.calls[2]!.messages)).toContain("- b: Skill B. (/skills/b/SKILL.md)");
    expect(systemText(model.calls[2]!.messages)).toContain("- a: Skill A.");
  });

  it("sees a skill added, edited or deleted mid-run by someone else at the next model call", async () => {
    const store = new InMemoryStore();
    const shared: BackendOption = () => new StoreBackend(store, ["fs"]);
    // The user, through another view of the same files (as the page's files panel is), not through the agent.
    const outside = new StoreBackend(store, ["fs"]);
    await outside.write("/skills/a/SKILL.md", skillFile("a", "Skill A.").content);
    let step = 0;
    const userEdits: AgentTool = {
      name: "wait_for_user",
      description: "waits while the user works",
      schema: { type: "object", properties: {} },
      run: async () => {
        if (step++ === 0) await outside.write("/skills/b/SKILL.md", skillFile("b", "Skill B.").content);
        else {
          await outside.edit("/skills/a/SKILL.md", "Skill A.", "Skill A, edited to be longer.");
          await outside.delete!("/skills/b/SKILL.md");
        }
        return "ok";
      },
    };
    const model = new ScriptedChatModel({
      script: [
        { toolCalls: [{ name: "wait_for_user", args: {} }] },
        { toolCalls: [{ name: "wait_for_user", args: {} }] },
        { text: "done" },
      ],
    });
    const agent = createDeepAgent({
      model,
      backend: shared,
      tools: [userEdits],
      middleware: [skillsMiddleware({ sources: ["/skills"], backend: shared, now })],
    });
    await agent.invoke({ messages: [new HumanMessage("go")] });
    const systems = model.calls.map((c) => systemText(c.messages));
    expect(systems[0]).toContain("- a: Skill A. (");
    expect(systems[0]).not.toContain("Skill B.");
    expect(systems[1]).toContain("- b: Skill B.");
    expect(systems[2]).toContain("- a: Skill A, edited to be longer.");
    expect(systems[2]).not.toContain("Skill B.");
  });
});

describe("skills: invalid ones are reported, not fatal", () => {
  it("skips and records each invalid SKILL.md without logging", async () => {
    const spies = (["log", "warn", "error", "debug", "info"] as const).map((k) => vi.spyOn(console, k).mockImplementation(() => {}));
    const { model, out } = await run(
      {
        "/skills/good/SKILL.md": skillFile("good", "A good skill."),
        "/skills/no-name/SKILL.md": textFile("---\ndescription: nameless\n---\nbody"),
        "/skills/no-desc/SKILL.md": textFile("---\nname: no-desc\n---\nbody"),
        "/skills/long-desc/SKILL.md": skillFile("long-desc", "x".repeat(1_025)),
        "/skills/bad-yaml/SKILL.md": textFile('---\nname: bad-yaml\ndescription: "unterminated\n---\nbody'),
        "/skills/other-dir/SKILL.md": skillFile("not-the-dir", "Mismatched name."),
        "/skills/Upper/SKILL.md": skillFile("Upper", "Uppercase name."),
        "/skills/no-frontmatter/SKILL.md": textFile("# just markdown"),
      },
      [{ text: "done" }],
    );
    const errors = out.skillErrors as SkillError[];
    const byPath = Object.fromEntries(errors.map((e) => [e.path.split("/")[2], e.message]));
    expect(Object.keys(byPath).sort()).toEqual(["Upper", "bad-yaml", "long-desc", "no-desc", "no-frontmatter", "no-name", "other-dir"]);
    expect(byPath["no-name"]).toBe("missing required 'name'");
    expect(byPath["no-desc"]).toBe("missing required 'description'");
    expect(byPath["long-desc"]).toMatch(/description exceeds 1024 characters/);
    expect(byPath["bad-yaml"]).toMatch(/^invalid YAML: Missing closing "quote at line 2/);
    expect(byPath["other-dir"]).toBe("name 'not-the-dir' must match its directory name 'other-dir'");
    expect(byPath["Upper"]).toMatch(/lowercase/);
    expect(byPath["no-frontmatter"]).toMatch(/no YAML frontmatter/);
    expect((out.skillsMetadata as SkillMetadata[]).map((s) => s.name)).toEqual(["good"]);
    const system = systemText(model.calls[0]!.messages);
    expect(system).toContain("- good: A good skill.");
    expect(system).not.toMatch(/nameless|Mismatched|Uppercase/);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it("accepts names of up to 64 characters and rejects 65", async () => {
    const name64 = "a".repeat(64);
    expect(await parseSkill(`---\nname: ${name64}\ndescription: d\n---\n`, `/s/${name64}/SKILL.md`)).toMatchObject({ name: name64 });
    const name65 = "a".repeat(65);
    expect(await parseSkill(`---\nname: ${name65}\ndescription: d\n---\n`, `/s/${name65}/SKILL.md`)).toEqual({
      path: `/s/${name65}/SKILL.md`,
      message: "name exceeds 64 characters",
    });
    expect(await parseSkill("---\nname: a--b\ndescription: d\n---\n", "/s/a--b/SKILL.md")).toHaveProperty("message");
  });
});

describe("skills: tools disclosed after reading", () => {
  const ran: unknown[] = [];
  const deploy: AgentTool = {
    name: "deploy",
    description: "deploys the app",
    schema: { type: "object", properties: { env: { type: "string" } }, required: ["env"] },
    run: async (args) => {
      ran.push(args);
      return `deployed to ${String(args.env)}`;
    },
  };
  const files = {
    "/skills/deploy-app/SKILL.md": skillFile("deploy-app", "Deploy the app.", "metadata:\n  include_tools: deploy\n"),
    "/skills/notes/SKILL.md": skillFile("notes", "Take notes."),
  };

  it("hides a skill tool until its SKILL.md has been read, then shows it", async () => {
    ran.length = 0;
    const { model, out } = await run(
      files,
      [
        { toolCalls: [{ name: "read_file", args: { file_path: "/skills/notes/SKILL.md" } }] },
        { toolCalls: [{ name: "read_file", args: { file_path: "/skills//deploy-app/SKILL.md", limit: 1000 } }] },
        { toolCalls: [{ name: "deploy", args: { env: "prod" } }] },
        { text: "done" },
      ],
      { skillTools: [deploy] },
    );
    expect(model.calls[0]!.tools).not.toContain("deploy");
    expect(model.calls[0]!.tools).toContain("read_file");
    expect(model.calls[1]!.tools).not.toContain("deploy"); // reading another skill unlocks nothing
    expect(model.calls[2]!.tools).toContain("deploy");
    expect(systemText(model.calls[0]!.messages)).toContain("also makes the tools it lists available");
    // The body reached the model only through the read_file result.
    expect(String(toolResults(out.messages)[1]!.content)).toContain("THE SECRET BODY of deploy-app");
    expect(toolResults(out.messages)[2]!.content).toBe("deployed to prod");
    expect(ran).toEqual([{ env: "prod" }]);
    expect(out.skillsRead).toEqual(["/skills/notes/SKILL.md", "/skills/deploy-app/SKILL.md"]);
  });

  it("rejects a call to a hidden skill tool and does not unlock on a failed read", async () => {
    ran.length = 0;
    const { model, out } = await run(
      files,
      [
        { toolCalls: [{ name: "deploy", args: { env: "prod" } }] },
        { toolCalls: [{ name: "read_file", args: { file_path: "/skills/deploy-app/SKILL.mdx" } }] },
        { text: "done" },
      ],
      { skillTools: [deploy] },
    );
    const [rejected, failedRead] = toolResults(out.messages);
    expect(rejected!.status).toBe("error");
    expect(rejected!.content).toBe(
      "Error: tool 'deploy' is not available yet. Read the SKILL.md of a skill that provides it first (/skills/deploy-app/SKILL.md).",
    );
    expect(failedRead!.status).toBe("error");
    expect(ran).toEqual([]);
    expect(model.calls[2]!.tools).not.toContain("deploy");
    expect(out.skillsRead).toEqual([]);
  });

  it("never hides tools the agent has from elsewhere, even when a skill lists them", async () => {
    const { model } = await run({ "/skills/fs/SKILL.md": skillFile("fs", "Files.", "allowed-tools: read_file write_file\n") }, [
      { text: "done" },
    ]);
    expect(model.calls[0]!.tools).toEqual(expect.arrayContaining(["read_file", "write_file"]));
  });
});

describe("frontmatter parser (the yaml package, as deepagentsjs parses SKILL.md)", () => {
  it("handles quotes, block scalars, lists and nested maps", async () => {
    const parsed = await parseFrontmatter(
      [
        "---",
        "name: web-research # trailing comment",
        "description: |",
        "  Line one.",
        "    indented",
        "title: 'it''s \"quoted\"'",
        'escaped: "a\\tb \\u00e9"',
        "tags: [a, 'b c', \"d,e\"]",
        "allowed-tools:",
        "- read_file",
        "- grep",
        "metadata:",
        "  include_tools: search fetch",
        "  owners:",
        "    - ann",
        "    - bob",
        "  deeper: { level: 2 }",
        "folded: >-",
        "  one",
        "  two",
        "",
        "  three",
        "version: 2",
        "---",
        "# Body",
      ].join("\n"),
    );
    expect(parsed).toEqual({
      ok: true,
      value: {
        body: "# Body",
        data: {
          name: "web-research",
          description: "Line one.\n  indented\n",
          title: 'it\'s "quoted"',
          escaped: "a\tb é",
          tags: ["a", "b c", "d,e"],
          "allowed-tools": ["read_file", "grep"],
          metadata: { include_tools: "search fetch", owners: ["ann", "bob"], deeper: { level: 2 } },
          folded: "one two\nthree",
          version: 2,
        },
      },
    });
  });

  it("reports invalid YAML, a missing fence and a non-mapping as error values", async () => {
    const bad = (yaml: string) => parseFrontmatter(`---\n${yaml}\n---\n`);
    expect(await bad("a: b\na: c")).toEqual({ ok: false, error: "invalid YAML: Map keys must be unique at line 2, column 1" });
    expect(await bad("d: use when: x")).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^invalid YAML: Nested mappings are not allowed/),
    });
    expect(await bad("name: x\n\tdescription: y")).toMatchObject({ ok: false, error: expect.stringMatching(/Tabs are not allowed/) });
    expect(await bad("just text")).toMatchObject({ ok: false, error: expect.stringMatching(/must be a mapping/) });
    expect(await parseFrontmatter("---\nname: x\n")).toMatchObject({ ok: false, error: expect.stringMatching(/not closed/) });
    expect(await parseFrontmatter("# no fence")).toMatchObject({ ok: false, error: expect.stringMatching(/no YAML frontmatter/) });
  });

  it("rejects a skill whose name or description is not a string", async () => {
    expect(await parseSkill("---\nname: 123\ndescription: d\n---\n", "/skills/123/SKILL.md")).toEqual({
      path: "/skills/123/SKILL.md",
      message: "'name' must be a string",
    });
    expect(await parseSkill("---\nname: ok\ndescription: [a]\n---\n", "/skills/ok/SKILL.md")).toMatchObject({
      message: "'description' must be a string",
    });
  });
});
