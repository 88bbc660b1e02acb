/**
 * The files panel and the file viewer in Chromium over the real agent
 * worker (its own IndexedDB) and the scripted demo model: the tree follows
 * a turn and the user's writes, the viewer pages a 200,000-line file with
 * only one page in the DOM, Markdown previews are sanitized, edits save,
 * deletes ask first, the workspace downloads as a zip fflate can read, and
 * a 360 px phone gets a full-screen viewer without sideways scrolling.
 */
import { unzipSync } from "fflate";
import { flushSync } from "svelte";
import { afterEach, describe, expect, it } from "vitest";
import { page, userEvent } from "vitest/browser";
import { workerPool } from "../../testing/worker-pool.ts";
import type { AgentClient } from "../../page/client.ts";
import { Chat } from "../chat/chat.svelte.ts";
import { cleanupRendered, render } from "../../testing/render.svelte.ts";
import FileViewer from "./file-viewer.svelte";
import FilesPanel from "./files-panel.svelte";
import { FilesState, ZIP_NAME } from "./files.svelte.ts";

const { spawn } = workerPool();
const cleanup: Array<() => void> = [];

afterEach(() => {
  cleanupRendered();
  for (const undo of cleanup.splice(0).reverse()) undo();
});

async function setup(): Promise<{ client: AgentClient; chat: Chat; files: FilesState; thread: string }> {
  const client = spawn();
  const thread = `thread-${crypto.randomUUID()}`;
  const chat = new Chat(client, thread);
  await chat.connect();
  const files = new FilesState(client, chat);
  const stop = files.watch();
  cleanup.push(() => {
    stop();
    chat.dispose();
  });
  return { client, chat, files, thread };
}

/** A demo turn: the scripted model writes /hello.md ("You said: hello"). */
async function helloTurn(chat: Chat): Promise<void> {
  expect(await chat.send({ text: "hello" })).toBe(true);
  await chat.idle();
}

function viewer(files: FilesState, onClose: () => void = () => files.close()): HTMLElement {
  return render(FileViewer, { files, onClose });
}

const fileButton = (path: string) => document.querySelector<HTMLButtonElement>(`button[data-path="${CSS.escape(path)}"]`);
const rows = (root: ParentNode) => root.querySelectorAll("[data-line]");

async function readText(client: AgentClient, thread: string, path: string): Promise<string | null> {
  const read = await client.readFile(thread, path, 0, 5000);
  return read.ok ? read.value.lines.join("\n") : null;
}

describe("files panel", () => {
  it("lists /hello.md after a turn and follows the user's writes", async () => {
    const { client, chat, files, thread } = await setup();
    render(FilesPanel, { files });
    await expect.element(page.getByTestId("files-empty")).toBeVisible();

    await helloTurn(chat);
    await expect.poll(() => fileButton("/hello.md")).not.toBeNull();
    const hello = fileButton("/hello.md")!;
    expect(hello.getAttribute("aria-label")).toMatch(/^\/hello\.md, \d+ B$/);
    expect(
      page
        .getByRole("button", { name: /^Workspace \/ [\d.]+ K?B \(1 file\)$/ })
        .element()
        .getAttribute("aria-expanded"),
    ).toBe("true");

    // A write from outside the panel shows up on the next reload (chat.revision), in a collapsed folder.
    expect(await client.writeFile(thread, "/notes/todo.txt", "buy milk\n")).toEqual({ ok: true, value: null });
    await chat.reload();
    const folder = page.getByRole("button", { name: "notes/, 1 file" });
    await expect.element(folder).toHaveAttribute("aria-expanded", "false");
    expect(fileButton("/notes/todo.txt")).toBeNull();
    await userEvent.click(folder);
    await expect.element(folder).toHaveAttribute("aria-expanded", "true");
    expect(fileButton("/notes/todo.txt")).not.toBeNull();

    // The user's own new file: validated path, then created and opened.
    await userEvent.click(page.getByRole("button", { name: "New file", exact: true }));
    const path = page.getByLabelText("Path", { exact: true });
    await userEvent.fill(path, "/a/../b.md");
    await expect.element(page.getByText("The path must not contain .. segments.")).toBeVisible();
    await expect.element(path).toHaveAttribute("aria-invalid", "true");
    await userEvent.fill(path, "relative.md");
    await expect.element(page.getByText("The path must be absolute (start with /).")).toBeVisible();
    await userEvent.click(page.getByRole("button", { name: "Create" }));
    expect(files.current).toBeNull();
    await userEvent.fill(path, "/made.md");
    await userEvent.fill(page.getByLabelText("Content", { exact: true }), "# Made\n");
    await userEvent.click(page.getByRole("button", { name: "Create" }));
    await expect.poll(() => files.current?.page?.lines).toEqual(["# Made"]);
    expect(await readText(client, thread, "/made.md")).toBe("# Made");
    await expect.poll(() => fileButton("/made.md")).not.toBeNull();

    // The same path again is refused, with a way to open the existing file.
    files.close();
    await userEvent.click(page.getByRole("button", { name: "New file", exact: true }));
    await userEvent.fill(page.getByLabelText("Path", { exact: true }), "/made.md");
    await userEvent.click(page.getByRole("button", { name: "Create" }));
    await expect.element(page.getByRole("alert")).toHaveTextContent("/made.md already exists.");
    // The refusal's code (already_exists) offers the existing file.
    await userEvent.click(page.getByRole("button", { name: "Open it", exact: true }));
    await expect.poll(() => files.current?.path).toBe("/made.md");
  });

  it("while the first list loads, says so and nothing else: no group says Empty. beside Loading files…", async () => {
    const real = spawn();
    // The worker lists the files only when the test lets it: the panel shows its loading state meanwhile.
    let release = () => undefined as void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const client = new Proxy(real, {
      get(target, prop, receiver) {
        if (prop !== "listFiles") return Reflect.get(target, prop, receiver) as unknown;
        return async (threadId: string) => {
          await held;
          return target.listFiles(threadId);
        };
      },
    });
    const chat = new Chat(client, `thread-${crypto.randomUUID()}`);
    cleanup.push(() => chat.dispose());
    await chat.connect();
    const files = new FilesState(client, chat);
    const panel = render(FilesPanel, { files });
    const listed = files.refresh();
    await expect.poll(() => panel.textContent).toContain("Loading files…");
    expect(panel.textContent).not.toContain("Empty.");
    release();
    await listed;
    await expect.poll(() => panel.querySelector('[data-testid="files-empty"]')).not.toBeNull();
    expect(panel.textContent).not.toContain("Loading files…");
  });

  it("updates during a run, as soon as the tool result arrives", async () => {
    const { chat, files } = await setup();
    render(FilesPanel, { files });
    await expect.element(page.getByTestId("files-empty")).toBeVisible();
    // The demo writes /hello.md first, then streams its answer for a while (~25 tokens, 25 ms apart).
    const sent = chat.send({ text: "hello" });
    let runningWhenShown: boolean | undefined;
    await expect
      .poll(() => {
        if (fileButton("/hello.md")) runningWhenShown ??= chat.running;
        return runningWhenShown;
      })
      .toBeDefined();
    expect(runningWhenShown).toBe(true);
    expect(await sent).toBe(true);
    await chat.idle();
  });

  it("follows a thread switch: the viewer closes and the tree is the other thread's", async () => {
    const { chat, files } = await setup();
    await helloTurn(chat);
    render(FilesPanel, { files });
    await expect.poll(() => fileButton("/hello.md")).not.toBeNull();
    await files.open("/hello.md");
    await chat.open(`thread-${crypto.randomUUID()}`);
    await expect.poll(() => files.current).toBeNull();
    await expect.element(page.getByTestId("files-empty")).toBeVisible();
    expect(fileButton("/hello.md")).toBeNull();
  });

  it("creates /memories/AGENTS.md and a skill from their templates", async () => {
    const { client, files, thread } = await setup();
    render(FilesPanel, { files });
    await expect.element(page.getByTestId("files-empty")).toBeVisible();

    await userEvent.click(page.getByRole("button", { name: "New memory file" }));
    await expect.element(page.getByLabelText("Path", { exact: true })).toHaveValue("/memories/AGENTS.md");
    await expect.element(page.getByLabelText("Content", { exact: true })).toHaveValue(expect.stringContaining("# Memory"));
    await userEvent.click(page.getByRole("button", { name: "Create" }));
    await expect.poll(() => files.current?.path).toBe("/memories/AGENTS.md");
    expect(await readText(client, thread, "/memories/AGENTS.md")).toContain("# Memory");
    files.close();

    await userEvent.click(page.getByRole("button", { name: "New skill" }));
    const name = page.getByLabelText("Skill name");
    await userEvent.fill(name, "Bad Name");
    await expect.element(page.getByText(/Use lowercase letters, digits and single hyphens/)).toBeVisible();
    await userEvent.fill(name, "write-tests");
    await expect.element(page.getByText("/skills/write-tests/SKILL.md")).toBeVisible();
    await expect
      .element(page.getByLabelText("Content", { exact: true }))
      .toHaveValue(expect.stringMatching(/^---\nname: write-tests\ndescription: <what it does and when to use it>\n---\n/));
    await userEvent.click(page.getByRole("button", { name: "Create" }));
    await expect.poll(() => files.current?.path).toBe("/skills/write-tests/SKILL.md");
    expect(await readText(client, thread, "/skills/write-tests/SKILL.md")).toMatch(/^---\nname: write-tests\n/);
    // The skill's folder is revealed in the tree.
    await expect.poll(() => fileButton("/skills/write-tests/SKILL.md")).not.toBeNull();
    expect(page.getByRole("button", { name: /^Memories \/memories\/ [\d.]+ K?B \(1 file\)$/ }).element()).toBeTruthy();
  });

  it("downloads the workspace as a zip that fflate can read", async () => {
    const { chat, files } = await setup();
    await helloTurn(chat);
    render(FilesPanel, { files });
    const blobs: Blob[] = [];
    const clicked: Array<{ href: string; download: string }> = [];
    const original = { create: URL.createObjectURL, revoke: URL.revokeObjectURL, click: HTMLAnchorElement.prototype.click };
    URL.createObjectURL = (blob: Blob | MediaSource) => {
      blobs.push(blob as Blob);
      return `blob:stub-${blobs.length}`;
    };
    URL.revokeObjectURL = () => undefined;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      clicked.push({ href: this.href, download: this.download });
    };
    try {
      await userEvent.click(page.getByRole("button", { name: "Download workspace (zip)" }));
      await expect.poll(() => blobs.length).toBe(1);
      expect(clicked).toEqual([{ href: "blob:stub-1", download: ZIP_NAME }]);
      expect(blobs[0]!.type).toBe("application/zip");
      const entries = unzipSync(new Uint8Array(await blobs[0]!.arrayBuffer()));
      expect(Object.keys(entries)).toEqual(["hello.md"]);
      expect(new TextDecoder().decode(entries["hello.md"])).toContain("You said: hello");
    } finally {
      URL.createObjectURL = original.create;
      URL.revokeObjectURL = original.revoke;
      HTMLAnchorElement.prototype.click = original.click;
    }
  });
});

describe("file viewer", () => {
  it("opens /hello.md with line numbers, copies it and edits it", async () => {
    const { client, chat, files, thread } = await setup();
    await helloTurn(chat);
    await files.open("/hello.md");
    const root = viewer(files);
    await expect.element(page.getByRole("heading", { name: "/hello.md" })).toBeVisible();
    const code = page.getByRole("region", { name: "/hello.md", exact: true });
    await expect.element(code).toHaveTextContent(/You said: hello/);
    const first = root.querySelector<HTMLElement>('[data-line="1"]')!;
    expect(getComputedStyle(first, "::before").content).toBe('"1"');
    expect(root.textContent).toMatch(/Lines 1–\d+ of \d+/);

    await userEvent.click(page.getByRole("button", { name: "Copy" }));
    await expect.element(page.getByRole("status").filter({ hasText: /Copied|Could not copy/ })).toBeVisible();

    await userEvent.click(page.getByRole("button", { name: "Edit" }));
    const box = page.getByRole("textbox", { name: "Contents of /hello.md" });
    await expect.element(box).toHaveValue(expect.stringContaining("You said: hello"));
    await userEvent.fill(box, "edited by the user\nsecond line\n");
    await userEvent.click(page.getByRole("button", { name: "Save" }));
    await expect.element(page.getByText("Saved. The agent sees the change on its next step.")).toBeVisible();
    expect(await readText(client, thread, "/hello.md")).toBe("edited by the user\nsecond line");
    await expect.element(code).toHaveTextContent(/edited by the user/);
    expect(rows(root)).toHaveLength(2);

    // Cancel leaves the file alone.
    await userEvent.click(page.getByRole("button", { name: "Edit" }));
    await userEvent.fill(page.getByRole("textbox", { name: "Contents of /hello.md" }), "nope");
    await userEvent.click(page.getByRole("button", { name: "Cancel" }));
    expect(await readText(client, thread, "/hello.md")).toBe("edited by the user\nsecond line");
  });

  it("opens a 200,000-line file quickly, one 500-line page in the DOM, pages and jumps to a line", async () => {
    const { client, files, thread } = await setup();
    const text = Array.from({ length: 200_000 }, (_, i) => `line ${i + 1} ${"x".repeat(i % 40)}`).join("\n");
    expect(await client.writeFile(thread, "/big.txt", text)).toEqual({ ok: true, value: null });
    const root = viewer(files);

    const started = performance.now();
    await files.open("/big.txt");
    flushSync();
    const openMs = performance.now() - started;
    await expect.element(page.getByText("Lines 1–500 of 200,000")).toBeVisible();
    const shownMs = performance.now() - started;
    expect(rows(root)).toHaveLength(500);
    expect(root.querySelector('[data-line="1"]')!.textContent).toMatch(/^line 1 /);
    expect(root.querySelector('[data-line="500"]')!.textContent).toMatch(/^line 500 /);

    await userEvent.click(page.getByRole("button", { name: "Next lines" }));
    await expect.element(page.getByText("Lines 501–1,000 of 200,000")).toBeVisible();
    expect(rows(root).length).toBeLessThanOrEqual(500);
    expect(root.querySelector('[data-line="501"]')!.textContent).toMatch(/^line 501 /);
    expect(root.querySelector('[data-line="1"]')).toBeNull();

    // Over 2 MB: editing is disabled, and says why.
    const edit = page.getByRole("button", { name: "Edit" });
    await expect.element(edit).toBeDisabled();
    await expect.element(page.getByText(/Files over 2 MB cannot be edited here/)).toBeVisible();

    // Opening at a line (an offloaded result card) shows its page and scrolls to it.
    const jumpStart = performance.now();
    await files.open("/big.txt", 150_000);
    await expect.element(page.getByText("Lines 149,501–150,000 of 200,000")).toBeVisible();
    const jumpMs = performance.now() - jumpStart;
    const target = root.querySelector<HTMLElement>('[data-line="150000"]')!;
    await expect.poll(() => target.hasAttribute("data-target")).toBe(true);
    const body = root.querySelector<HTMLElement>(".body")!.getBoundingClientRect();
    const at = target.getBoundingClientRect();
    expect(at.top).toBeGreaterThanOrEqual(body.top);
    expect(at.bottom).toBeLessThanOrEqual(body.bottom + 1);
    expect(rows(root).length).toBeLessThanOrEqual(500);

    console.info(
      `[files] 200,000-line file (${(text.length / 1e6).toFixed(1)} MB): open ${openMs.toFixed(0)} ms, ` +
        `first page visible ${shownMs.toFixed(0)} ms, jump to line 150,000 ${jumpMs.toFixed(0)} ms; DOM rows ${rows(root).length}`,
    );
    expect(shownMs).toBeLessThan(5000);
  });

  it("previews Markdown sanitized: an onerror image does not run", async () => {
    const { client, files, thread } = await setup();
    const hostile = [
      "# Title",
      "",
      '<img src=x onerror="window.__deeptabPwned = 1">',
      "",
      "<script>window.__deeptabPwned = 2</script>",
      "",
      "[click](javascript:window.__deeptabPwned=3)",
      "",
      "- item **bold**",
    ].join("\n");
    expect(await client.writeFile(thread, "/x.md", hostile)).toEqual({ ok: true, value: null });
    await files.open("/x.md");
    const root = viewer(files);
    // Source view: the HTML is text.
    await expect.element(page.getByRole("region", { name: "/x.md", exact: true })).toHaveTextContent(/<img src=x onerror=/);
    expect(root.querySelector("img, script")).toBeNull();

    const toggle = page.getByRole("button", { name: "Preview" });
    await userEvent.click(toggle);
    await expect.element(toggle).toHaveAttribute("aria-pressed", "true");
    const preview = page.getByTestId("markdown-preview");
    await expect.element(preview.getByRole("heading", { name: "Title" })).toBeVisible();
    await expect.element(preview.getByText("bold")).toBeVisible();
    await new Promise((r) => setTimeout(r, 200));
    expect((window as { __deeptabPwned?: number }).__deeptabPwned).toBeUndefined();
    const el = preview.element();
    expect(el.querySelector("script, [onerror]")).toBeNull();
    for (const a of el.querySelectorAll("a")) expect(a.getAttribute("href") ?? "").not.toMatch(/^javascript:/i);
  });

  it("asks before deleting, and deletes on confirmation", async () => {
    const { client, chat, files, thread } = await setup();
    await helloTurn(chat);
    await files.open("/hello.md");
    let closed = 0;
    viewer(files, () => {
      closed++;
      files.close();
    });
    await userEvent.click(page.getByRole("button", { name: "Delete" }));
    const dialog = page.getByRole("dialog", { name: "Delete file?" });
    await expect.element(dialog).toBeVisible();
    await expect.element(dialog).toHaveTextContent(/Delete \/hello\.md\?/);
    await userEvent.click(dialog.getByRole("button", { name: "Cancel" }));
    await expect.element(dialog).not.toBeInTheDocument();
    expect(await readText(client, thread, "/hello.md")).not.toBeNull();

    await userEvent.click(page.getByRole("button", { name: "Delete" }));
    await userEvent.click(page.getByRole("dialog", { name: "Delete file?" }).getByRole("button", { name: "Delete" }));
    await expect.poll(() => closed).toBe(1);
    expect(await readText(client, thread, "/hello.md")).toBeNull();
    expect(files.current).toBeNull();
    expect(files.entries.map((e) => e.path)).not.toContain("/hello.md");
  });

  it("shows a binary file's size with Download only", async () => {
    const { client, files, thread } = await setup();
    expect(await client.writeFile(thread, "/blob.bin", `\u0000${"x".repeat(3071)}`)).toEqual({ ok: true, value: null });
    await files.open("/blob.bin");
    const root = viewer(files);
    await expect.element(page.getByTestId("binary")).toHaveTextContent("Binary file (3 KB)");
    expect(page.getByRole("button", { name: "Download" }).element()).toBeTruthy();
    expect([...root.querySelectorAll(".toolbar button")].map((b) => b.textContent?.trim())).toEqual(["Download", "Delete"]);
  });

  it("shows an image file (a PNG, by its bytes) as an image; SVG, HTML named .png and other binary files stay text or binary", async () => {
    const { chat, files } = await setup();
    const canvas = new OffscreenCanvas(4, 3);
    const ctx = canvas.getContext("2d")!;
    ctx.fillStyle = "red";
    ctx.fillRect(0, 0, 4, 3);
    const png = new Uint8Array(await (await canvas.convertToBlob({ type: "image/png" })).arrayBuffer());
    const text = (t: string) => new TextEncoder().encode(t);
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" onload="window.__ran = 1"><script>window.__ran = 2</script></svg>';
    const attachments = [
      { name: "plot.png", content: png },
      { name: "fake.png", content: text('<img src=x onerror="window.__ran = 3">') },
      { name: "drawing.svg", content: text(svg) },
      { name: "noise.png", content: new Uint8Array([0, 1, 2, 3, 0, 5]) },
    ];
    expect(await chat.send({ text: "here are the pictures", attachments })).toBe(true);
    await chat.idle();

    await files.open("/uploads/plot.png");
    viewer(files);
    const image = page.getByRole("img", { name: "Image /uploads/plot.png" });
    await expect.element(image).toBeVisible();
    await expect.poll(() => (image.element() as HTMLImageElement).naturalWidth).toBe(4);
    expect((image.element() as HTMLImageElement).src).toMatch(/^blob:/);
    await expect.element(page.getByTestId("file-image")).toHaveTextContent("PNG image");

    for (const [path, kind] of [
      ["/uploads/fake.png", "text"],
      ["/uploads/drawing.svg", "text"],
      ["/uploads/noise.png", "binary"],
    ] as const) {
      await files.open(path);
      await expect.poll(() => files.current?.page?.path).toBe(path);
      flushSync();
      expect(document.querySelector('[data-testid="file-image"]')).toBeNull();
      if (kind === "binary") await expect.element(page.getByTestId("binary")).toBeVisible();
      else expect(rows(document).length).toBeGreaterThan(0);
    }
    expect((window as unknown as { __ran?: number }).__ran).toBeUndefined();
  });

  it("is full screen on a 360 px phone, with Close file, and never widens the page (light and dark)", async () => {
    const before = { width: window.innerWidth, height: window.innerHeight };
    await page.viewport(360, 640);
    try {
      const { client, files, thread } = await setup();
      const long = `/very/long/${"segment/".repeat(30)}file.ts`;
      expect(await client.writeFile(thread, long, `const x = "${"y".repeat(3000)}";\n`)).toEqual({ ok: true, value: null });
      await files.refresh();
      render(FilesPanel, { files });
      await files.open(long);
      let closed = 0;
      const root = viewer(files, () => closed++);
      await expect.element(page.getByRole("region", { name: long, exact: true })).toBeVisible();
      const section = root.querySelector<HTMLElement>('[data-testid="file-viewer"]')!;
      expect(getComputedStyle(section).position).toBe("fixed");
      const box = section.getBoundingClientRect();
      expect([box.left, box.top, Math.round(box.width), Math.round(box.height)]).toEqual([0, 0, 360, 640]);
      expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(360);
      for (const theme of ["dark", "light"]) {
        document.documentElement.setAttribute("data-theme", theme);
        expect(getComputedStyle(section).backgroundColor).toBe(theme === "dark" ? "rgb(13, 17, 23)" : "rgb(255, 255, 255)");
      }
      for (const b of section.querySelectorAll("button")) expect(b.getBoundingClientRect().right).toBeLessThanOrEqual(360);
      await userEvent.click(page.getByRole("button", { name: "Close file" }));
      expect(closed).toBe(1);
    } finally {
      document.documentElement.removeAttribute("data-theme");
      await page.viewport(before.width, before.height);
    }
  });
});
