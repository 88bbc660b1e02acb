/**
 * approval-dialog.svelte in Chromium: only the allowed decisions, edited
 * arguments checked (JSON, then the tool's schema in the real worker), the
 * decisions sent, focus and Enter, diffs and commands, the phone width; and
 * a whole pause answered through it against the real agent worker.
 */
import { flushSync } from "svelte";
import { afterEach, describe, expect, it, vi } from "vitest";
import { page, userEvent } from "vitest/browser";
import { WAIT } from "../../testing/wait.ts";
import { workerPool } from "../../testing/worker-pool.ts";
import ApprovalDialog from "./approval-dialog.svelte";
import { cleanupRendered, reactiveProps, render } from "../../testing/render.svelte.ts";
import { buildTimeline } from "../chat/timeline.ts";
import Timeline from "../chat/timeline.svelte";
import type { ApprovalAction, ApprovalDecision } from "../../protocol/approvals.ts";
import type { ApprovalContent } from "./choices.ts";

afterEach(cleanupRendered);

const { spawn } = workerPool(`test-${crypto.randomUUID()}`);

const ALL = ["approve", "edit", "reject", "respond"] as const;
const FILE_SCHEMA = { type: "object", properties: { file_path: { type: "string" } }, required: ["file_path"], additionalProperties: false };

function action(name: string, args: Record<string, unknown>, allowed: ApprovalAction["allowedDecisions"] = [...ALL]): ApprovalAction {
  return {
    name,
    args,
    description: `Tool execution requires approval\n\nTool: ${name}\nArgs: ${JSON.stringify(args, null, 2)}`,
    allowedDecisions: allowed,
  };
}

const del = (allowed?: ApprovalAction["allowedDecisions"]): ApprovalAction => ({
  ...action("delete", { file_path: "/hello.md" }, allowed),
  schema: FILE_SCHEMA,
});

type Decide = (decisions: ApprovalDecision[]) => Promise<boolean>;
type CheckArgs = (schema: Record<string, unknown>, args: unknown) => Promise<string | null>;

const noCheck: CheckArgs = async () => null;

function show(approval: ApprovalContent | null, options: { onDecide?: Decide; checkArgs?: CheckArgs; error?: string } = {}) {
  const onDecide = vi.fn<Decide>(options.onDecide ?? (async () => true));
  const el = render(ApprovalDialog, { approval, onDecide, checkArgs: options.checkArgs ?? noCheck, error: options.error });
  const dialog = el.querySelector("dialog")!;
  return { el, dialog, onDecide };
}

const buttons = (root: ParentNode) => [...root.querySelectorAll("button")];
const button = (root: ParentNode, name: string) => buttons(root).find((b) => b.textContent?.trim() === name);
const names = (root: ParentNode) => buttons(root).map((b) => b.textContent?.trim());
const field = (root: ParentNode, label: string): HTMLTextAreaElement => {
  const l = [...root.querySelectorAll("label")].find((x) => x.textContent?.trim().startsWith(label));
  if (!l) throw new Error(`no field labelled ${label}`);
  return document.getElementById(l.htmlFor) as HTMLTextAreaElement;
};
const describedBy = (el: Element) =>
  (el.getAttribute("aria-describedby") ?? "")
    .split(/\s+/)
    .map((id) => document.getElementById(id)?.textContent?.trim() ?? "")
    .join(" ");

describe("approval dialog", () => {
  it("opens modal with the focus inside, titled, naming the origin; Escape does not dismiss it", async () => {
    const { dialog } = show({
      actions: [del(), action("read_file", { file_path: "/a.md" })],
      subagent: { type: "researcher", taskId: "t1" },
    });
    expect(dialog.open).toBe(true);
    expect(dialog.matches(":modal")).toBe(true);
    expect(document.getElementById(dialog.getAttribute("aria-labelledby")!)?.textContent).toBe("Approve 2 tool calls");
    expect(dialog.textContent).toContain("Subagent researcher");
    expect(dialog.contains(document.activeElement)).toBe(true);
    // The first call's arguments: a labelled, focusable scroll region.
    expect(document.activeElement?.getAttribute("role")).toBe("region");
    expect(document.activeElement?.getAttribute("aria-label")).toBe("Arguments of call 1 (delete)");
    expect(button(dialog, "Close")).toBeUndefined();
    await userEvent.keyboard("{Escape}");
    await userEvent.keyboard("{Escape}");
    expect(dialog.open).toBe(true);
  });

  it("stays closed without an approval and shows the main agent as the origin", () => {
    expect(show(null).dialog.open).toBe(false);
    cleanupRendered();
    const { dialog } = show({ actions: [del()] });
    expect(dialog.querySelector('[data-testid="approval-origin"]')?.textContent).toContain("Main agent");
    expect(document.getElementById(dialog.getAttribute("aria-labelledby")!)?.textContent).toBe("Approve delete?");
    // The default description's repeated arguments are not shown twice.
    expect(dialog.querySelector(".description")?.textContent).toBe("Tool execution requires approval");
  });

  it("says which requests wait after the shown one (parallel subagents), and nothing when none do", () => {
    const { dialog } = show({
      actions: [del()],
      subagent: { type: "researcher", taskId: "t1" },
      waiting: [{ subagent: { type: "writer", taskId: "t2" }, tools: ["write_file"] }],
    });
    expect(dialog.querySelector('[data-testid="approval-waiting"]')?.textContent).toBe(
      "1 more request waits after this one: Subagent writer (write_file)",
    );
    cleanupRendered();
    expect(show({ actions: [del()] }).dialog.querySelector('[data-testid="approval-waiting"]')).toBeNull();
  });

  it("an approve-only call offers only Approve (no Reject: rejecting such a rule used to fail the run)", async () => {
    const { dialog, onDecide } = show({ actions: [action("execute", { command: "npm test" }, ["approve"])] });
    expect(names(dialog)).toEqual(["Approve"]);
    expect(dialog.querySelector("textarea")).toBeNull();
    await userEvent.click(button(dialog, "Approve")!);
    expect(onDecide).toHaveBeenCalledWith([{ type: "approve" }]);
    expect(dialog.open).toBe(false);
  });

  it("offers exactly the allowed decisions per call when there are several", () => {
    const { dialog } = show({ actions: [del(["reject", "respond"]), action("execute", { command: "ls" }, ["approve", "edit"])] });
    const sections = [...dialog.querySelectorAll('[data-testid="approval-action"]')];
    expect(sections.map((s) => s.getAttribute("data-tool"))).toEqual(["delete", "execute"]);
    const options = sections.map((s) => [...s.querySelectorAll("label.option")].map((l) => l.textContent?.trim()));
    expect(options).toEqual([
      ["Reject", "Respond"],
      ["Approve", "Edit"],
    ]);
    // Not every call allows approve: no "Approve all".
    expect(names(dialog)).toEqual(["Send decisions"]);
  });

  it("edit: invalid JSON and a schema violation (checked in the real worker) disable Send and show the problem", async () => {
    const client = spawn();
    const { dialog, onDecide } = show({ actions: [del()] }, { checkArgs: (schema, args) => client.checkArgs(schema, args) });
    await userEvent.click(button(dialog, "Edit")!);
    const box = field(dialog, "Edited arguments (JSON)");
    expect(document.activeElement).toBe(box);
    expect(JSON.parse(box.value)).toEqual({ file_path: "/hello.md" });
    const send = button(dialog, "Send edited call")!;

    await userEvent.fill(box, '{"file_path": ');
    expect(send.disabled).toBe(true);
    expect(box.getAttribute("aria-invalid")).toBe("true");
    expect(describedBy(box)).toContain("Not valid JSON");

    await userEvent.fill(box, "[1, 2]");
    expect(describedBy(box)).toContain("must be a JSON object");
    expect(send.disabled).toBe(true);

    await userEvent.fill(box, '{"file_path": 5}');
    await vi.waitFor(() => expect(describedBy(box)).toContain("argument 'file_path' must be of type string, got integer"), WAIT);
    expect(box.getAttribute("aria-invalid")).toBe("true");
    expect(send.disabled).toBe(true);
    await userEvent.click(send, { force: true });
    expect(onDecide).not.toHaveBeenCalled();

    await userEvent.fill(box, '{"file_path": "/other.md"}');
    await vi.waitFor(() => expect(send.disabled).toBe(false), WAIT);
    expect(box.hasAttribute("aria-invalid")).toBe(false);
    await userEvent.click(send);
    expect(onDecide).toHaveBeenCalledWith([{ type: "edit", editedAction: { name: "delete", args: { file_path: "/other.md" } } }]);
  });

  it("reject sends the reason; respond needs an answer", async () => {
    const first = show({ actions: [del()] });
    await userEvent.fill(field(first.dialog, "Reason (the agent sees it)"), "  keep it ");
    await userEvent.click(button(first.dialog, "Reject")!);
    expect(first.onDecide).toHaveBeenCalledWith([{ type: "reject", message: "keep it" }]);
    cleanupRendered();

    const second = show({ actions: [del()] });
    await userEvent.click(button(second.dialog, "Respond")!);
    expect(button(second.dialog, "Respond")!.getAttribute("aria-expanded")).toBe("true");
    const answer = field(second.dialog, "Answer instead of running the tool");
    const send = button(second.dialog, "Send answer")!;
    expect(send.disabled).toBe(true);
    await userEvent.fill(answer, "   ");
    expect(send.disabled).toBe(true);
    await userEvent.fill(answer, "It is already gone.");
    expect(send.disabled).toBe(false);
    await userEvent.click(send);
    expect(second.onDecide).toHaveBeenCalledWith([{ type: "respond", message: "It is already gone." }]);
  });

  it("respond takes the reason's place: one text field, labelled for it, keeping what was typed", async () => {
    const { dialog, onDecide } = show({ actions: [del()] });
    const labels = () => [...dialog.querySelectorAll("textarea")].map((t) => t.labels?.[0]?.textContent?.trim());
    expect(labels()).toEqual(["Reason (the agent sees it)"]);
    await userEvent.fill(field(dialog, "Reason (the agent sees it)"), "It is already gone.");
    await userEvent.click(button(dialog, "Respond")!);
    expect(labels()).toEqual(["Answer instead of running the tool"]);
    const answer = field(dialog, "Answer instead of running the tool");
    expect(answer.value).toBe("It is already gone.");
    expect(document.activeElement).toBe(answer);
    // Closing Respond brings the reason back, with the text.
    await userEvent.click(button(dialog, "Respond")!);
    expect(labels()).toEqual(["Reason (the agent sees it)"]);
    expect(field(dialog, "Reason (the agent sees it)").value).toBe("It is already gone.");
    await userEvent.click(button(dialog, "Respond")!);
    await userEvent.click(button(dialog, "Send answer")!);
    expect(onDecide).toHaveBeenCalledWith([{ type: "respond", message: "It is already gone." }]);
  });

  it("several calls: a decision each, then one Send; Approve all when every call allows it", async () => {
    const approval = { actions: [del(), action("execute", { command: "ls" }, ["approve", "reject"])] };
    const { dialog, onDecide } = show(approval);
    const send = button(dialog, "Send decisions")!;
    expect(send.disabled).toBe(true);
    expect(describedBy(send)).toBe("Choose a decision for call 1 (delete).");
    const radio = (i: number, label: string) =>
      [...dialog.querySelectorAll('[data-testid="approval-action"]')[i]!.querySelectorAll("label.option")].find(
        (l) => l.textContent?.trim() === label,
      )!;
    await userEvent.click(radio(0, "Respond"));
    expect(describedBy(send)).toContain("Write the answer");
    const answer = field(dialog, "Answer instead of running the tool");
    // With several calls, each field's name says which call it is for.
    expect(document.querySelector(`label[for="${answer.id}"]`)?.textContent).toContain("for call 1 (delete)");
    await userEvent.fill(answer, "No need.");
    await userEvent.click(radio(1, "Reject"));
    await userEvent.fill(field(dialog, "Reason (the agent sees it)"), "not now");
    expect(send.disabled).toBe(false);
    await userEvent.click(send);
    expect(onDecide).toHaveBeenCalledWith([
      { type: "respond", message: "No need." },
      { type: "reject", message: "not now" },
    ]);
    cleanupRendered();

    const again = show(approval);
    await userEvent.click(button(again.dialog, "Approve all")!);
    expect(again.onDecide).toHaveBeenCalledWith([{ type: "approve" }, { type: "approve" }]);
  });

  it("Enter approves only when every call allows approve and nothing else is picked", async () => {
    const ok = show({ actions: [del(), action("read_file", { file_path: "/a" })] });
    // In a text field Enter is a newline, never an approval.
    const radio = [...ok.dialog.querySelectorAll<HTMLInputElement>('input[type="radio"]')].find((r) => r.value === "reject")!;
    await userEvent.click(radio);
    field(ok.dialog, "Reason (the agent sees it)").focus();
    await userEvent.keyboard("{Enter}");
    // Reject is picked: Enter outside a field does nothing either.
    ok.dialog.querySelector<HTMLElement>('[role="region"]')!.focus();
    await userEvent.keyboard("{Enter}");
    expect(ok.onDecide).not.toHaveBeenCalled();
    cleanupRendered();

    const fresh = show({ actions: [del(), action("read_file", { file_path: "/a" })] });
    await userEvent.keyboard("{Enter}");
    expect(fresh.onDecide).toHaveBeenCalledWith([{ type: "approve" }, { type: "approve" }]);
    cleanupRendered();

    const single = show({ actions: [del()] });
    field(single.dialog, "Reason (the agent sees it)").focus();
    await userEvent.keyboard("{Enter}");
    expect(single.onDecide).not.toHaveBeenCalled();
    cleanupRendered();

    const noApprove = show({ actions: [del(["reject", "respond"])] });
    expect(names(noApprove.dialog)).toEqual(["Reject", "Respond"]);
    await userEvent.keyboard("{Enter}");
    expect(noApprove.onDecide).not.toHaveBeenCalled();
    expect(noApprove.dialog.open).toBe(true);
  });

  it("gives every control and scroll region an accessible name", async () => {
    const { dialog } = show({
      actions: [
        { ...action("edit_file", { file_path: "/a.md" }), change: { path: "/a.md", before: "a\n", after: "b\n" } },
        action("execute", { command: "ls" }),
        del(),
      ],
    });
    const sections = [...dialog.querySelectorAll('[data-testid="approval-action"]')];
    for (const [i, type] of ["edit", "reject", "respond"].entries()) {
      await userEvent.click(sections[i]!.querySelector<HTMLInputElement>(`input[type="radio"][value="${type}"]`)!);
    }
    const controls = [...dialog.querySelectorAll<HTMLElement>("button, textarea, input, [tabindex]")];
    expect(controls.length).toBeGreaterThan(10);
    const nameOf = (el: HTMLElement) =>
      el.getAttribute("aria-label") ??
      (
        (el.id && document.querySelector(`label[for="${el.id}"]`)?.textContent) ||
        el.closest("label")?.textContent ||
        el.textContent ||
        ""
      ).trim();
    for (const el of controls) expect(nameOf(el), el.outerHTML.slice(0, 80)).not.toBe("");
    const textNames = [...dialog.querySelectorAll("textarea")].map(nameOf);
    expect(new Set(textNames).size).toBe(textNames.length);
    expect(dialog.querySelectorAll('[role="region"][tabindex="0"]')).toHaveLength(3);
  });

  it("an edit_file call shows its removed and added lines; execute shows its command", () => {
    const edit: ApprovalAction = {
      ...action("edit_file", { file_path: "/notes.md", old_string: "old line", new_string: "new line" }),
      change: { path: "/notes.md", before: "# Notes\nold line\nend\n", after: "# Notes\nnew line\nend\n" },
    };
    const command = "rm -rf node_modules && npm ci && <b>npm</b> test";
    const { dialog } = show({ actions: [edit, action("execute", { command, timeout: 60 })] });
    const diff = dialog.querySelector('[role="region"][aria-label="Diff of /notes.md"]')!;
    expect(diff.getAttribute("tabindex")).toBe("0");
    expect([...diff.querySelectorAll(".row.removed .text")].map((r) => r.textContent)).toEqual(["old line"]);
    expect([...diff.querySelectorAll(".row.added .text")].map((r) => r.textContent)).toEqual(["new line"]);
    const pre = dialog.querySelector('pre[aria-label="Command of call 2 (execute)"]')!;
    // As text, never markup.
    expect(pre.textContent).toBe(command);
    expect(pre.querySelector("b")).toBeNull();
    expect(getComputedStyle(pre).fontFamily).toMatch(/mono/i);
    expect(dialog.querySelector('pre[aria-label="Other arguments of call 2 (execute)"]')?.textContent).toBe('{\n  "timeout": 60\n}');
  });

  it("closes once the decision is accepted; stays open with the reason when it is not", async () => {
    let accept = false;
    const props = reactiveProps({
      approval: { actions: [del()] } as ApprovalContent | null,
      onDecide: vi.fn<Decide>(async () => {
        if (!accept) props.error = "delete allows only: approve.";
        return accept;
      }),
      checkArgs: noCheck,
      error: undefined as string | undefined,
    });
    const el = render(ApprovalDialog, props);
    const dialog = el.querySelector("dialog")!;
    await userEvent.click(button(dialog, "Reject")!);
    await vi.waitFor(() => expect(dialog.querySelector('[data-testid="approval-refused"]')).not.toBeNull(), WAIT);
    const refused = dialog.querySelector('[data-testid="approval-refused"]')!;
    expect(refused.textContent).toBe("The decision was not accepted: delete allows only: approve.");
    expect(refused.getAttribute("role")).toBe("alert");
    expect(document.activeElement).toBe(refused);
    expect(dialog.open).toBe(true);

    accept = true;
    await userEvent.click(button(dialog, "Approve")!);
    await vi.waitFor(() => expect(dialog.open).toBe(false), WAIT);
    // A new pause opens it again, with fresh choices.
    props.approval = { actions: [action("read_file", { file_path: "/b" })] };
    flushSync();
    expect(dialog.open).toBe(true);
    expect(dialog.querySelector('[data-testid="approval-refused"]')).toBeNull();
  });

  it("at 390 × 844 every button is on screen and nothing widens the dialog", async () => {
    const before = { width: window.innerWidth, height: window.innerHeight };
    await page.viewport(390, 844);
    try {
      expect(window.innerWidth).toBe(390);
      const long = `/very/long/${"segment/".repeat(30)}file.ts`;
      const layouts: ApprovalContent[] = [
        { actions: [{ ...action("execute", { command: `echo ${"x".repeat(2000)}` }), description: "Runs a command. ".repeat(30) }] },
        {
          actions: [
            {
              ...action("write_file", { file_path: long, content: "y".repeat(3000) }),
              change: { path: long, before: "", after: `${"y".repeat(3000)}\n` },
            },
            action("read_file", { file_path: long, note: "z".repeat(2000) }),
            action("execute", { command: "ls" }, ["approve", "reject"]),
          ],
          subagent: { type: "general-purpose", taskId: "t1" },
        },
      ];
      for (const approval of layouts) {
        const { dialog } = show(approval);
        // Every decision's field open too (the widest the dialog gets).
        for (const name of ["Edit", "Respond"]) {
          const b = button(dialog, name);
          if (b) await userEvent.click(b);
        }
        for (const radio of dialog.querySelectorAll<HTMLInputElement>('input[type="radio"][value="edit"]')) await userEvent.click(radio);
        const box = dialog.getBoundingClientRect();
        expect(box.left).toBeGreaterThanOrEqual(0);
        expect(box.right).toBeLessThanOrEqual(390);
        expect(box.width).toBeGreaterThanOrEqual(380);
        expect(dialog.scrollWidth).toBeLessThanOrEqual(dialog.clientWidth);
        const all = buttons(dialog);
        expect(all.length).toBeGreaterThan(0);
        for (const b of all) {
          b.scrollIntoView({ block: "nearest" });
          const r = b.getBoundingClientRect();
          expect(r.width, b.textContent ?? "").toBeGreaterThan(0);
          expect(r.left).toBeGreaterThanOrEqual(0);
          expect(r.right).toBeLessThanOrEqual(390);
          expect(r.top).toBeGreaterThanOrEqual(0);
          expect(r.bottom).toBeLessThanOrEqual(844);
          // Not clipped or covered: the button itself is what a tap at its center hits.
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          expect(hit === b || b.contains(hit), `${b.textContent} is covered`).toBe(true);
        }
        cleanupRendered();
      }
    } finally {
      await page.viewport(before.width, before.height);
    }
  });
});

describe("approval dialog with the real worker", () => {
  it("answers the demo agent's delete pause with a reasoned Reject: the run finishes and /hello.md stays", async () => {
    const client = spawn();
    const threadId = `t-${crypto.randomUUID()}`;
    const first = await client.run(threadId, { text: "hello" });
    if (!first.ok) throw new Error(first.error.message);
    expect(await first.value.done).toMatchObject({ type: "done", status: "complete" });
    const second = await client.run(threadId, { text: "please delete it" });
    if (!second.ok) throw new Error(second.error.message);
    expect(await second.value.done).toMatchObject({ type: "done", status: "interrupted" });
    const approval = (await client.getThread(threadId)).approval;
    expect(approval?.actions[0]).toMatchObject({ name: "delete", args: { file_path: "/hello.md" } });

    let finished: Promise<unknown> = Promise.resolve(null);
    const { dialog, onDecide } = show(approval, {
      checkArgs: (schema, args) => client.checkArgs(schema, args),
      onDecide: async (decisions) => {
        const resumed = await client.resume(threadId, decisions);
        if (!resumed.ok) return false;
        finished = resumed.value.done;
        return true;
      },
    });
    expect(names(dialog)).toEqual(["Approve", "Edit", "Reject", "Respond"]);

    // The worker's own schema for delete refuses a bad edit.
    await userEvent.click(button(dialog, "Edit")!);
    const box = field(dialog, "Edited arguments (JSON)");
    await userEvent.fill(box, '{"file_path": 1}');
    await vi.waitFor(() => expect(describedBy(box)).toContain("file_path"), WAIT);
    expect(button(dialog, "Send edited call")!.disabled).toBe(true);
    await userEvent.click(button(dialog, "Edit")!);

    await userEvent.fill(field(dialog, "Reason (the agent sees it)"), "Keep the note.");
    await userEvent.click(button(dialog, "Reject")!);
    await vi.waitFor(() => expect(dialog.open).toBe(false), WAIT);
    expect(onDecide).toHaveBeenCalledWith([{ type: "reject", message: "Keep the note." }]);
    expect(await finished).toMatchObject({ type: "done", status: "complete" });

    const view = await client.getThread(threadId);
    expect(view.approval).toBeNull();
    expect(view.messages.find((m) => m.role === "tool" && m.name === "delete")).toMatchObject({
      content: "Keep the note.",
      status: "error",
      decision: "reject",
    });
    expect((await client.listFiles(threadId)).map((f) => f.path)).toContain("/hello.md");
    // The timeline's card for the call says Rejected (the tool never ran), not Error.
    const timeline = render(Timeline, { items: buildTimeline(view.messages) });
    const card = timeline.querySelector('[data-testid="tool-call"][data-tool="delete"]')!;
    expect(card.getAttribute("data-status")).toBe("rejected");
    expect(card.querySelector(".status")?.textContent).toContain("Rejected");
    expect(card.textContent).not.toContain("Error");
  });
});
