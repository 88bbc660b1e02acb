/**
 * Agents through the page, as a person meets them, with the loopback provider:
 * - the gallery lists the general agent and the site's example agents; a starter prompt of one goes into the
 *   message box of a thread with that agent, and its turn runs with the agent's instructions and starter files;
 * - `?agent=<url>` on a second loopback origin with CORS opens a review of everything the agent brings; **Use this
 *   agent** lands on it (its name focused, its description and starter prompt, "Now using" it announced) and runs a
 *   thread whose request holds its instructions, its subagent in `task`, its skill, and whose
 *   `read_file` of its starter file succeeds; a reload keeps it (no second review); a changed agent at the same URL
 *   asks again; **Leave** stores nothing and takes `?agent=` out of the address;
 * - the same link from a host without CORS: an error that names CORS;
 * - tampered zips (a `../` path, 10,000 files, a 200 MB file stored and deflated, invalid YAML): refused with a clear
 *   message, nothing stored (the gallery the same after a reload).
 */
import { expect, type Page } from "@playwright/test";
import { Zip, ZipDeflate, ZipPassThrough, zipSync } from "fflate";
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { zipAgent } from "../src/agent-folders/zip.ts";
import { putAgentFile } from "../src/testing/agent-link-files.ts";
import { startAgentLinkServer, type AgentLinkServer } from "../src/testing/agent-link-server.ts";
import { AFTER_LOAD, axeViolations, connect, idle, watchErrors } from "./app.ts";
import { providerScope, type RecordedRequest } from "./control.ts";
import { test } from "./fixtures.ts";

const encoder = new TextEncoder();
let links: AgentLinkServer;

test.beforeAll(async () => {
  links = await startAgentLinkServer();
});
test.afterAll(async () => {
  await links?.close();
});

/** A small agent folder with a marker in each part, so the test finds each in the model's request. */
function linkAgent(marker: string): Map<string, Uint8Array> {
  const files: Record<string, string> = {
    "agent.yaml": [
      `name: Link agent ${marker}`,
      "description: An agent from a link.",
      "suggestions: [Read the notes]",
      "interrupt_on:",
      "  delete: true",
      "",
    ].join("\n"),
    "AGENTS.md": `You are the link agent (instructions-${marker}).`,
    "agents/critic.md": "---\nname: critic\ndescription: Checks drafts (critic-marker).\n---\nYou critique drafts.",
    "skills/summary/SKILL.md": "---\nname: summary\ndescription: Summarizes notes (skill-marker).\n---\n# Summary\nSummarize.",
    "files/notes/a.md": `Starter note (file-marker-${marker}).`,
  };
  return new Map(Object.entries(files).map(([path, text]) => [path, encoder.encode(text)]));
}

interface ChatBody {
  messages: Array<{ role: string; content: unknown }>;
  tools?: Array<{ function: { name: string; description: string } }>;
}

function systemText(req: RecordedRequest): string {
  return JSON.stringify((req.body as unknown as ChatBody).messages.filter((m) => m.role === "system").map((m) => m.content));
}

function toolResults(req: RecordedRequest): string {
  return JSON.stringify((req.body as unknown as ChatBody).messages.filter((m) => m.role === "tool").map((m) => m.content));
}

/** The ids of the agents the gallery shows. */
async function cardIds(page: Page): Promise<string[]> {
  await expect(page.getByTestId("agent-card").first()).toBeVisible(AFTER_LOAD);
  return page.getByTestId("agent-card").evaluateAll((cards) => cards.map((c) => c.getAttribute("data-agent") ?? ""));
}

test("the gallery lists the agents; a starter prompt of a site's agent fills the box of a thread with it, which runs", async ({ page }) => {
  test.setTimeout(90_000);
  const errors = watchErrors(page);
  const provider = providerScope("openai");
  await provider.script([
    { toolCalls: [{ id: "call_csv", name: "read_file", args: { file_path: "/data/sales.csv" } }] },
    { text: "The sales file has a header and rows." },
  ]);
  await page.goto("/");
  expect(await cardIds(page)).toEqual(["general", "site:coding", "site:data", "site:research"]);
  await connect(page, { provider: "openai-compatible", baseUrl: provider.baseUrl, model: "m" });
  expect(await axeViolations(page, '[data-testid="agent-gallery"]')).toEqual([]);

  const card = page.locator('[data-testid="agent-card"][data-agent="site:data"]');
  const prompt = "Total the sales in /data/sales.csv by region and by month.";
  // The prompt's own chip (a recorded demo of it is a chip of its own, which replays it).
  await card.getByRole("button", { name: prompt, exact: true }).click();
  const box = page.getByRole("textbox", { name: "Message" });
  // Put in the box (not sent), with the thread now on the agent.
  await expect(box).toHaveValue(prompt);
  await expect(box).toBeFocused();
  await expect(page.getByRole("combobox", { name: "Agent" })).toHaveValue("site:data");
  await expect(card).toContainText("This thread's agent");
  await box.press("Enter");
  await idle(page, 60_000);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("The sales file has a header and rows.");

  const chats = await provider.chatRequests();
  expect(chats).toHaveLength(2);
  expect(systemText(chats[0]!)).toContain("CSV");
  // Its starter file was in the thread's workspace for read_file.
  expect(toolResults(chats[1]!)).toContain("region");
  expect(errors).toEqual([]);
});

test("a CORS link: review, Use this agent, a turn with its instructions, subagent, skill, file; a reload keeps it; a change asks", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  const provider = providerScope("openai");
  await provider.script([
    { toolCalls: [{ id: "call_notes", name: "read_file", args: { file_path: "/notes/a.md" } }] },
    { text: "Read the note." },
  ]);
  const name = `${crypto.randomUUID()}/agent.zip`;
  const url = await putAgentFile(links.url, name, zipAgent(linkAgent("v1"), "link-agent"));
  await page.goto("/");
  // A large window: the tools keep their full descriptions (a small one gets the compact ones).
  await connect(page, { provider: "openai-compatible", baseUrl: provider.baseUrl, model: "m", contextWindow: 200_000 });
  const before = await cardIds(page);

  await page.goto(`/?agent=${encodeURIComponent(url)}`);
  const dialog = page.getByRole("dialog", { name: "Use Link agent v1?" });
  await expect(dialog).toBeVisible(AFTER_LOAD);
  const review = dialog.getByTestId("agent-review");
  await expect(review.getByTestId("agent-origin")).toHaveText(`From a link: ${url}`);
  await expect(review.getByTestId("agent-hosts")).toContainText("None besides the model provider");
  await expect(review.getByTestId("agent-rules")).toContainText("delete: asks you before it runs");
  await expect(review.getByTestId("agent-subagents")).toContainText("critic");
  await expect(review.getByTestId("agent-subagents")).toContainText("Checks drafts (critic-marker).");
  await expect(review.getByTestId("agent-skills")).toContainText("summary");
  await expect(review.getByTestId("agent-files")).toContainText("/notes/a.md");
  await review.getByText(/^Instructions \(AGENTS\.md/).click();
  await expect(review.getByTestId("agent-instructions").locator("pre")).toHaveText("You are the link agent (instructions-v1).");
  expect(await axeViolations(page, "dialog[open]")).toEqual([]);
  // Nothing is stored by the review.
  expect(await page.evaluate(() => document.querySelectorAll('[data-testid="agent-card"]').length)).toBe(before.length);

  await dialog.getByRole("button", { name: "Use this agent" }).click();
  await expect(dialog).toBeHidden();
  // The page lands on the agent: its name (focused), description and starter prompt, said in the polite live region,
  // and not the general agent's welcome or the demo model's prompts.
  const landing = page.getByTestId("agent-landing");
  await expect(landing.getByRole("heading", { name: "Link agent v1" })).toBeFocused();
  await expect(landing).toContainText("An agent from a link.");
  await expect(landing.getByRole("list", { name: "Try Link agent v1 with" }).getByRole("button")).toHaveText(["Read the notes"]);
  await expect(page.getByTestId("announce")).toHaveText("Now using Link agent v1");
  await expect(page.getByText("What should the agent do?")).toHaveCount(0);
  await expect(page.getByText(/research cats/)).toHaveCount(0);
  expect(await axeViolations(page, '[data-testid="agent-landing"]')).toEqual([]);
  const picker = page.getByRole("combobox", { name: "Agent" });
  await expect(picker.locator("option:checked")).toHaveText("Link agent v1");
  const agentId = await picker.inputValue();
  expect(agentId).toMatch(/^agent:/);
  expect(await cardIds(page)).toEqual([...before, agentId]);

  // Share: the zip and the JSON bundle download, and the link that opens it is copied.
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  const downloads: string[] = [];
  page.on("download", (d) => downloads.push(d.suggestedFilename()));
  await page.getByRole("button", { name: "Share Link agent v1" }).click();
  await expect(page.getByTestId("agent-status")).toContainText("The link to open it was copied.");
  await expect.poll(() => downloads.sort()).toEqual(["link-agent-v1.json", "link-agent-v1.zip"]);
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(`${new URL(page.url()).origin}/?agent=${encodeURIComponent(url)}`);

  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Read the notes");
  await box.press("Enter");
  await idle(page, 60_000);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Read the note.");
  const chats = await provider.chatRequests();
  expect(chats).toHaveLength(2);
  const system = systemText(chats[0]!);
  expect(system).toContain("instructions-v1");
  expect(system).toContain("skill-marker");
  const task = (chats[0]!.body as unknown as ChatBody).tools?.find((t) => t.function.name === "task");
  // Its subagent is one `task` can start, described as its file describes it.
  expect(task?.function.description).toContain("critic");
  expect(task?.function.description).toContain("critic-marker");
  expect(toolResults(chats[1]!)).toContain("file-marker-v1");

  // A reload (the link still in the address) keeps the agent: no second review.
  await page.reload();
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Read the note.", AFTER_LOAD);
  await expect(picker).toHaveValue(agentId);
  await expect(page.getByTestId("app")).toHaveAttribute("data-agents", "settled", AFTER_LOAD);
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // The same URL with other content: reviewed again, saying it changed.
  await putAgentFile(links.url, name, zipAgent(linkAgent("v2"), "link-agent"));
  await page.goto(`/?agent=${encodeURIComponent(url)}`);
  const changed = page.getByRole("dialog", { name: "Use Link agent v2?" });
  await expect(changed.getByTestId("agent-changed-since")).toContainText("changed since you last used it", AFTER_LOAD);
  // Leave: nothing stored, the address loses ?agent=, the thread keeps its agent.
  await changed.getByRole("button", { name: "Leave" }).click();
  await expect(changed).toBeHidden();
  expect(new URL(page.url()).searchParams.has("agent")).toBe(false);
  await page.reload();
  // The thread has messages (no gallery): the picker lists the agents.
  await expect(picker).toHaveValue(agentId, AFTER_LOAD);
  await expect(picker.locator("option")).toHaveCount(before.length + 1);
  expect(await picker.locator("option").evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual([...before, agentId]);
  expect(errors).toEqual([]);
});

test("editing an agent in the app: an invalid agent.yaml is refused with its problem and nothing stored; a new AGENTS.md runs", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors = watchErrors(page);
  const provider = providerScope("openai");
  await provider.script([{ text: "Arr, the research is done." }]);
  const marker = `edited-${crypto.randomUUID().slice(0, 8)}`;
  await page.goto("/");
  await connect(page, { provider: "openai-compatible", baseUrl: provider.baseUrl, model: "m", contextWindow: 200_000 });
  const before = await cardIds(page);

  await page
    .locator('[data-testid="agent-card"][data-agent="site:research"]')
    .getByRole("button", { name: "Edit Research assistant" })
    .click();
  const editor = page.getByTestId("agent-editor");
  await expect(editor).toBeVisible(AFTER_LOAD);
  await expect(editor.getByRole("heading", { level: 2 }).first()).toHaveText("Editing Research assistant");
  // It opens on AGENTS.md in the file viewer; back to the folder's files, then agent.yaml.
  const viewer = editor.getByTestId("file-viewer");
  await expect(viewer).toHaveAttribute("data-path", "AGENTS.md");
  await viewer.getByRole("button", { name: "Close file" }).click();
  await expect(editor.getByRole("list", { name: "Files of the agent" })).toContainText("agents/critic.md");
  await editor.getByRole("button", { name: /^agent\.yaml/ }).click();
  await viewer.getByRole("button", { name: "Edit" }).click();
  const yaml = viewer.getByRole("textbox", { name: "Contents of agent.yaml" });
  const typed = "name: Research assistant\ntools: [read_file, teleport]\n";
  await yaml.fill(typed);
  await viewer.getByRole("button", { name: "Save" }).click();
  const alert = viewer.getByRole("alert");
  await expect(alert).toContainText("Not saved", AFTER_LOAD);
  await expect(alert).toContainText("agent.yaml");
  await expect(alert).toContainText("tools.1");
  await expect(alert).toContainText("teleport");
  // Nothing typed is lost, nothing is stored.
  await expect(yaml).toHaveValue(typed);
  expect(await cardIds(page)).toEqual(before);
  await viewer.getByRole("button", { name: "Cancel" }).click();

  await viewer.getByRole("button", { name: "Close file" }).click();
  await editor.getByRole("button", { name: /^AGENTS\.md/ }).click();
  await viewer.getByRole("button", { name: "Edit" }).click();
  await viewer.getByRole("textbox", { name: "Contents of AGENTS.md" }).fill(`You are a pirate researcher (${marker}).\n`);
  await viewer.getByRole("button", { name: "Save" }).click();
  await expect(viewer.getByRole("status")).toContainText("Saved as a new version", AFTER_LOAD);

  // The edit is a new local agent in the gallery, and the empty thread shown took it.
  const edited = page.locator('[data-testid="agent-card"]', { hasText: "Research assistant (edited)" });
  await expect(edited).toBeVisible(AFTER_LOAD);
  const editedId = (await edited.getAttribute("data-agent"))!;
  expect(editedId).toMatch(/^agent:[0-9a-f]{64}$/);
  expect(await cardIds(page)).toEqual([...before, editedId]);
  await expect(page.getByRole("combobox", { name: "Agent" })).toHaveValue(editedId);
  await editor.getByRole("button", { name: "Done" }).click();
  await expect(editor).toBeHidden();

  const box = page.getByRole("textbox", { name: "Message" });
  await box.fill("Research pirates.");
  await box.press("Enter");
  await idle(page, 60_000);
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Arr, the research is done.");
  const chats = await provider.chatRequests();
  expect(systemText(chats.at(-1)!)).toContain(`You are a pirate researcher (${marker}).`);
  // A reload keeps the edit; the site's agent is still there as it was.
  await page.reload();
  await expect(page.getByRole("combobox", { name: "Agent" })).toHaveValue(editedId, AFTER_LOAD);
  expect(errors).toEqual([]);
});

test("the same link from a host without CORS: an error that names CORS, nothing stored", async ({ page }) => {
  const errors = watchErrors(page);
  const url = await putAgentFile(links.url, `${crypto.randomUUID()}/agent.zip`, zipAgent(linkAgent("nocors")), { cors: false });
  await page.goto("/");
  const before = await cardIds(page);
  await page.goto(`/?agent=${encodeURIComponent(url)}`);
  const dialog = page.getByRole("dialog", { name: "This agent cannot be opened" });
  await expect(dialog.getByTestId("agent-error")).toHaveAttribute("data-code", "fetch_failed", AFTER_LOAD);
  await expect(dialog.getByRole("alert")).toContainText("CORS");
  await expect(dialog).toContainText(url);
  expect(await axeViolations(page, "dialog[open]")).toEqual([]);
  await dialog.getByRole("button", { name: "Close" }).first().click();
  await expect(dialog).toBeHidden();
  expect(new URL(page.url()).searchParams.has("agent")).toBe(false);
  await page.reload();
  expect(await cardIds(page)).toEqual(before);
  // The browser itself logs the blocked request; the page adds nothing.
  expect(errors.filter((e) => !/CORS|Failed to load resource|net::ERR_FAILED/.test(e))).toEqual([]);
});

/** Writes a zip holding AGENTS.md and one `size`-byte file of zeros to `path`, a megabyte at a time. */
async function writeBigZip(path: string, size: number, deflate: boolean): Promise<void> {
  const out = createWriteStream(path);
  let failed: Error | null = null;
  const zip = new Zip((error, data) => {
    if (error) failed = error;
    else out.write(data);
  });
  const agents = new ZipPassThrough("AGENTS.md");
  zip.add(agents);
  agents.push(encoder.encode("A big agent."), true);
  const big = deflate ? new ZipDeflate("files/big.bin", { level: 1 }) : new ZipPassThrough("files/big.bin");
  zip.add(big);
  const chunk = new Uint8Array(1024 * 1024);
  for (let sent = 0; sent < size; sent += chunk.length) {
    big.push(chunk, sent + chunk.length >= size);
    if (out.writableNeedDrain) await once(out, "drain");
  }
  zip.end();
  out.end();
  await once(out, "finish");
  if (failed) throw failed;
}

test("tampered zips are refused with a clear message, and nothing is stored", async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const errors = watchErrors(page);
  await page.goto("/");
  const before = await cardIds(page);
  const input = page.getByTestId("agent-file-input");
  const dialog = page.getByRole("dialog", { name: "This agent cannot be opened" });

  async function refused(file: string | { name: string; buffer: Buffer }, code: string, text: RegExp): Promise<void> {
    await input.setInputFiles(typeof file === "string" ? file : { ...file, mimeType: "application/zip" });
    await expect(dialog.getByTestId("agent-error")).toHaveAttribute("data-code", code, { timeout: 60_000 });
    await expect(dialog).toContainText(text);
    await expect(dialog).toContainText("Nothing was stored.");
    await dialog.getByRole("button", { name: "Close" }).first().click();
    await expect(dialog).toBeHidden();
  }

  const agentsMd = encoder.encode("An agent.");
  await refused(
    { name: "traversal.zip", buffer: Buffer.from(zipSync({ "AGENTS.md": agentsMd, "../evil.txt": encoder.encode("x") })) },
    "invalid_agent",
    /\.\.\/evil\.txt/,
  );
  const many: Record<string, Uint8Array> = { "AGENTS.md": agentsMd };
  for (let i = 0; i < 10_000; i++) many[`files/f${i}.txt`] = encoder.encode(String(i));
  await refused({ name: "many.zip", buffer: Buffer.from(zipSync(many, { level: 0 })) }, "invalid_agent", /files/);
  await refused(
    { name: "bad-yaml.zip", buffer: Buffer.from(zipSync({ "AGENTS.md": agentsMd, "agent.yaml": encoder.encode("name: [unclosed\n") })) },
    "invalid_agent",
    /agent\.yaml/,
  );
  // 200 MB stored: refused from its size, before the page reads it.
  const stored = testInfo.outputPath("big-stored.zip");
  await writeBigZip(stored, 200 * 1024 * 1024, false);
  await refused(stored, "too_large", /big-stored\.zip.*200\.0 MB/);
  // 200 MB deflated into a small zip: the worker refuses it from what the zip says it holds.
  const deflated = testInfo.outputPath("big-deflated.zip");
  await writeBigZip(deflated, 200 * 1024 * 1024, true);
  await refused(deflated, "invalid_agent", /big\.bin/);

  await page.reload();
  expect(await cardIds(page)).toEqual(before);
  expect(errors).toEqual([]);
});
