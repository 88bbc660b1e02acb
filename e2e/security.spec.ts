/**
 * What a person's browser is protected from, in the built app (vite preview),
 * with the model served by the loopback provider servers:
 *
 * - Prompt-injected markup does not run: `<img onerror>`, `<script>` and
 *   `javascript:` links in a streamed answer, in the user's own message, in
 *   the approval dialog's diffs, in files the model writes (.md in the code
 *   view and the Markdown preview, .html in the highlighted code view) and in
 *   thread titles (renamed, and imported from a crafted export) show as text;
 *   a `window.__pwned` trap, the page's dialogs, CSP violations and the DOM
 *   (no event-handler attributes, no `javascript:` URLs, no injected script
 *   or image) all say nothing ran, before and after a reload.
 * - The network: during a whole session (load, connect, turns with a tool
 *   call, reload, another turn) every request the browser makes goes to
 *   127.0.0.1 (the app's origin and the chosen provider), and the request log
 *   in Settings lists the provider's host only.
 * - The API key: after connecting OpenAI with a key and running a turn, the
 *   key is nowhere in the DOM (nor in any input), in IndexedDB (every
 *   database and store, bytes and blobs decoded), in the thread export, in
 *   localStorage or sessionStorage, in console messages (page and workers),
 *   or in any request but the provider's. Not remembered, it is gone after a
 *   reload (the key status says so and a turn is refused, before any
 *   request, with the advice to add one); remembered, it survives a reload and sits only in the key
 *   store's namespace.
 */
import { readFile, writeFile } from "node:fs/promises";
import { expect, type BrowserContext, type Page } from "@playwright/test";
import { connect, idle, send, turn, watchErrors } from "./app.ts";
import { providerScope, type ProviderScope } from "./control.ts";
import { PROVIDER_URLS } from "./servers.ts";
import { test } from "./fixtures.ts";

// The payloads. Each one, if it ran, would set window.__pwned and open a dialog.
const IMG = `<img src=x onerror="window.__pwned='img';alert('img')">`;
const SCRIPT = `<script>window.__pwned='script';alert('script')</script>`;
const LINK = `[click me](javascript:window.__pwned='link';alert('link'))`;
const RAW_LINK = `<a href="javascript:window.__pwned='a';alert('a')">raw link</a>`;
const IFRAME = `<iframe src="javascript:window.__pwned='iframe'"></iframe>`;
const TITLE_IMG = `<img src=x onerror="window.__pwned='title'">`;
const TITLE_SCRIPT = `<script>window.__pwned='import'</script>`;

const MD = `# Notes\n\n${IMG}\n\n${SCRIPT}\n\n${LINK}\n\n${RAW_LINK}\n\n${IFRAME}\n`;
const HTML = `<!doctype html>\n<html>\n<body onload="window.__pwned='body'">\n${IMG}\n${SCRIPT}\n${RAW_LINK}\n</body>\n</html>\n`;
const ANSWER = `Here you go: ${IMG} then ${SCRIPT} and ${LINK} or ${RAW_LINK}.`;

/** Makes every way markup could run observable: a setter trap on window.__pwned, CSP violation reports. */
async function installTraps(page: Page): Promise<{ dialogs: string[] }> {
  await page.addInitScript(() => {
    const w = window as unknown as { __pwnedHits: unknown[]; __csp: string[] };
    w.__pwnedHits = [];
    w.__csp = [];
    Object.defineProperty(window, "__pwned", {
      configurable: false,
      get: () => undefined,
      set: (value: unknown) => void w.__pwnedHits.push(value),
    });
    document.addEventListener("securitypolicyviolation", (e) => w.__csp.push(`${e.effectiveDirective} ${e.blockedURI}`));
  });
  const dialogs: string[] = [];
  page.on("dialog", (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { dialogs };
}

/**
 * What would show that injected markup became live: trap hits, CSP reports (the CSP blocks inline handlers, so
 * the DOM is checked too), event-handler attributes, javascript: URLs, injected scripts, frames and images.
 */
async function liveMarkup(page: Page) {
  return page.evaluate(() => {
    const w = window as unknown as { __pwnedHits: unknown[]; __csp: string[] };
    const all = Array.from(document.querySelectorAll("*"));
    const URL_ATTRS = new Set(["href", "src", "action", "formaction", "data", "srcdoc", "xlink:href", "poster", "background"]);
    const brief = (el: Element) => el.outerHTML.slice(0, 120);
    return {
      hits: w.__pwnedHits,
      csp: w.__csp,
      handlers: all.filter((el) => Array.from(el.attributes).some((a) => /^on/i.test(a.name))).map(brief),
      jsUrls: all
        .filter((el) => Array.from(el.attributes).some((a) => URL_ATTRS.has(a.name) && /^\s*javascript:/i.test(a.value)))
        .map(brief),
      scripts: Array.from(document.scripts)
        .filter((s) => s.textContent?.includes("__pwned"))
        .map(brief),
      frames: Array.from(document.querySelectorAll("iframe, object, embed")).map(brief),
      images: Array.from(document.images).map(brief),
    };
  });
}

const NOTHING_LIVE = { hits: [], csp: [], handlers: [], jsUrls: [], scripts: [], frames: [], images: [] };

/** The lines the file viewer's code view shows for `path`, joined. */
async function viewerText(page: Page, path: string): Promise<string> {
  const code = page.getByTestId("file-viewer").getByRole("region", { name: path, exact: true });
  return (await code.locator("[data-line] .text").allTextContents()).join("\n");
}

async function openFile(page: Page, path: string) {
  const viewer = page.getByTestId("file-viewer");
  if (await viewer.isVisible()) await viewer.getByRole("button", { name: "Close file" }).click();
  await page.getByTestId("files").locator(`[data-testid="file"][data-path="${path}"]`).click();
  await expect(viewer).toHaveAttribute("data-path", path);
  return viewer;
}

test("injected markup in answers, files, diffs and thread titles shows as text and never runs", async ({ page }, info) => {
  const errors = watchErrors(page);
  const { dialogs } = await installTraps(page);
  const requested: string[] = [];
  page.context().on("request", (r) => requested.push(r.url()));
  const scope = providerScope("openai");
  await scope.script([
    {
      toolCalls: [
        { id: "call_md", name: "write_file", args: { file_path: "/evil.md", content: MD } },
        { id: "call_html", name: "write_file", args: { file_path: "/evil.html", content: HTML } },
      ],
    },
    // Streamed in small pieces, so tags arrive cut in the middle while the answer renders live.
    { chunks: ANSWER.match(/.{1,7}/gs)!, delayMs: 5 },
  ]);
  await page.goto("/");
  await connect(page, { provider: "openai-compatible", baseUrl: scope.baseUrl, model: "gpt-4o-mini", approveWrites: true });

  await send(page, `Write the files ${LINK} ${IMG}`);
  // The approval shows both new files as diffs, payloads as text.
  const approval = page.getByTestId("approval");
  await expect(approval.getByTestId("approval-action")).toHaveCount(2);
  const mdDiff = approval.getByRole("region", { name: "Diff of /evil.md" });
  await expect(mdDiff.locator('[data-marker="+"]')).toContainText([IMG, SCRIPT, LINK, RAW_LINK, IFRAME]);
  await expect(approval.getByRole("region", { name: "Diff of /evil.html" }).locator('[data-marker="+"]')).toContainText([IMG, SCRIPT]);
  expect(await liveMarkup(page)).toEqual(NOTHING_LIVE);
  await approval.getByTestId("approve-all").click();
  await expect(approval).toHaveCount(0);
  await idle(page);

  // The user's message and the streamed answer: the markup is the text the model wrote.
  await expect(page.getByTestId("user-message")).toHaveText(`Write the files ${LINK} ${IMG}`);
  const answer = page.getByTestId("assistant-message").last();
  await expect(answer).toContainText(`Here you go: ${IMG} then ${SCRIPT} and click me or ${RAW_LINK}.`);
  await expect(answer.getByText("click me")).toBeVisible();
  expect(await liveMarkup(page)).toEqual(NOTHING_LIVE);

  // The files, in the code view (as written) and the Markdown preview (as text, the link inert).
  await page.getByRole("tab", { name: "Files" }).click();
  const viewer = await openFile(page, "/evil.md");
  await expect.poll(() => viewerText(page, "/evil.md")).toBe(MD.trimEnd());
  await viewer.getByRole("button", { name: "Preview" }).click();
  const preview = viewer.getByTestId("markdown-preview");
  await expect(preview.getByRole("heading", { name: "Notes" })).toBeVisible();
  for (const text of [IMG, SCRIPT, RAW_LINK, IFRAME]) await expect(preview).toContainText(text);
  await expect(preview.getByText("click me")).toBeVisible();
  expect(await liveMarkup(page)).toEqual(NOTHING_LIVE);
  await openFile(page, "/evil.html");
  await expect.poll(() => viewerText(page, "/evil.html")).toBe(HTML.trimEnd());
  expect(await liveMarkup(page)).toEqual(NOTHING_LIVE);

  // Thread titles: renamed to markup, then imported from an export whose title is markup.
  const items = page.getByTestId("thread-item");
  await items.first().getByTestId("thread-rename").click();
  await page.getByTestId("rename-input").fill(TITLE_IMG);
  await page.getByTestId("rename-input").press("Enter");
  await expect(page.getByTestId("thread-title")).toHaveText([TITLE_IMG]);
  const download = page.waitForEvent("download");
  await items.first().getByTestId("thread-export").click();
  const exported = JSON.parse(await readFile(await (await download).path(), "utf8")) as { thread: { title: string } };
  expect(exported.thread.title).toBe(TITLE_IMG);
  exported.thread.title = TITLE_SCRIPT;
  const crafted = info.outputPath("crafted-title.json");
  await writeFile(crafted, JSON.stringify(exported));
  await page.getByTestId("import-input").setInputFiles(crafted);
  await expect(items).toHaveCount(2);
  await expect(page.getByTestId("thread-title")).toHaveText([TITLE_SCRIPT, TITLE_IMG]);
  expect(await liveMarkup(page)).toEqual(NOTHING_LIVE);

  // Stored, then shown again from storage: still text.
  await page.reload();
  await expect(page.getByTestId("thread-title")).toHaveText([TITLE_SCRIPT, TITLE_IMG]);
  await expect(page.getByTestId("assistant-message").last()).toContainText(`Here you go: ${IMG}`);
  await items.nth(1).getByTestId("thread-open").click();
  await expect(page.getByTestId("user-message")).toHaveText(`Write the files ${LINK} ${IMG}`);
  expect(await liveMarkup(page)).toEqual(NOTHING_LIVE);

  expect(dialogs).toEqual([]);
  // No image was fetched from the payloads' src=x.
  expect(requested.filter((u) => /\/x(?:$|\?)/.test(new URL(u).pathname))).toEqual([]);
  expect(errors).toEqual([]);
});

/** Every request the context makes, from the page, its workers and its service worker. */
function recordRequests(context: BrowserContext): { url: string; headers: Record<string, string>; body: string }[] {
  const seen: { url: string; headers: Record<string, string>; body: string }[] = [];
  context.on("request", (r) => seen.push({ url: r.url(), headers: r.headers(), body: r.postData() ?? "" }));
  return seen;
}

/** The hosts in Settings › Request log, after a refresh. */
async function loggedHosts(page: Page): Promise<string[]> {
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  const log = dialog.getByTestId("request-log");
  if ((await log.getAttribute("open")) === null) await log.locator("summary").click();
  await log.getByRole("button", { name: "Refresh" }).click();
  await expect(log.getByRole("table")).toBeVisible();
  const hosts = await log.locator("tbody tr td:nth-child(3)").allTextContents();
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  return hosts;
}

test("a whole session talks only to 127.0.0.1: the app's origin and the chosen provider; the request log lists only the provider", async ({
  page,
  context,
}) => {
  const errors = watchErrors(page);
  const seen = recordRequests(context);
  const scope = providerScope("openai");
  await scope.script([
    { toolCalls: [{ id: "call_w", name: "write_file", args: { file_path: "/a.txt", content: "a\n" } }] },
    { chunks: ["Wrote ", "it."] },
    { chunks: ["Second ", "turn."] },
  ]);
  await page.goto("/");
  const appOrigin = new URL(page.url()).origin;
  const providerHost = new URL(scope.baseUrl).host;
  await connect(page, { provider: "openai-compatible", baseUrl: scope.baseUrl, model: "gpt-4o-mini" });
  await turn(page, "Write a file");
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Wrote it.");
  const before = await loggedHosts(page);
  expect(before.length).toBeGreaterThanOrEqual(2);
  expect(new Set(before)).toEqual(new Set([providerHost]));

  await page.reload();
  await expect(page.getByTestId("tool-call")).toHaveCount(1);
  await turn(page, "Again");
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Second turn.");
  const after = await loggedHosts(page);
  expect(after.length).toBeGreaterThanOrEqual(1);
  expect(new Set(after)).toEqual(new Set([providerHost]));

  const origins = new Set(seen.map((r) => new URL(r.url).origin));
  expect([...origins].sort()).toEqual([appOrigin, PROVIDER_URLS.openai].sort());
  // The worker's model requests are among what the browser reported (so nothing went unseen).
  expect(seen.filter((r) => r.url.startsWith(`${scope.baseUrl}/chat/completions`)).length).toBe(3);
  expect((await scope.chatRequests()).length).toBe(3);
  expect(errors).toEqual([]);
});

const KEY = "sk-e2e-SECRET-123";

/** Every IndexedDB record of the origin: database, store, key and value as text (bytes and blobs decoded as UTF-8). */
async function dumpIndexedDB(page: Page): Promise<{ db: string; store: string; key: string; value: string }[]> {
  return page.evaluate(async () => {
    const asText = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
    async function plain(v: unknown): Promise<unknown> {
      if (v instanceof ArrayBuffer) return asText(new Uint8Array(v));
      if (ArrayBuffer.isView(v)) return asText(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));
      if (v instanceof Blob) return await v.text();
      if (v instanceof Date) return v.toISOString();
      if (Array.isArray(v)) return Promise.all(v.map(plain));
      if (v instanceof Map) return plain(Object.fromEntries(v));
      if (v instanceof Set) return plain([...v]);
      if (v && typeof v === "object") {
        const out: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(v)) out[k] = await plain(x);
        return out;
      }
      return v;
    }
    const done = <T>(req: IDBRequest<T>) =>
      new Promise<T>((resolve, reject) => {
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    const rows: { db: string; store: string; key: string; value: string }[] = [];
    for (const { name } of await indexedDB.databases()) {
      if (!name) continue;
      const db = await done(indexedDB.open(name));
      try {
        for (const store of Array.from(db.objectStoreNames)) {
          const os = db.transaction(store, "readonly").objectStore(store);
          const [keys, values] = await Promise.all([done(os.getAllKeys()), done(os.getAll())]);
          for (const [i, key] of keys.entries()) {
            rows.push({ db: name, store, key: JSON.stringify(await plain(key)), value: JSON.stringify(await plain(values[i])) });
          }
        }
      } finally {
        db.close();
      }
    }
    return rows;
  });
}

/** Where the key shows up in the page: the DOM, input values, Web Storage, IndexedDB records. */
async function keyPlaces(page: Page): Promise<string[]> {
  const places: string[] = [];
  if ((await page.content()).includes(KEY)) places.push("DOM");
  const values = await page.locator("input, textarea, select").evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
  if (values.some((v) => v.includes(KEY))) places.push("input value");
  const storage = await page.evaluate(() => JSON.stringify([{ ...localStorage }, { ...sessionStorage }]));
  if (storage.includes(KEY)) places.push("Web Storage");
  for (const row of await dumpIndexedDB(page)) {
    if (row.key.includes(KEY) || row.value.includes(KEY)) places.push(`IndexedDB ${row.db}/${row.store} ${row.key}`);
  }
  return places;
}

/** Console messages of the page and of its workers. */
function recordConsole(page: Page): string[] {
  const messages: string[] = [];
  page.on("console", (m) => messages.push(m.text()));
  page.on("worker", (w) => w.on("console", (m) => messages.push(m.text())));
  return messages;
}

async function connectOpenAI(page: Page, scope: ProviderScope, remember: boolean): Promise<void> {
  await connect(page, { provider: "openai", baseUrl: scope.baseUrl, model: "gpt-4o-mini", key: KEY, remember });
}

/** Opens Settings and returns the key status line, checking the key field is empty; closes it again. */
async function keyStatus(page: Page): Promise<{ status: string; placeholder: string }> {
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  const field = dialog.getByLabel("API key");
  await expect(field).toHaveValue("");
  // The dialog's own inputs (open now) do not hold it either.
  expect(await keyPlaces(page)).not.toContain("input value");
  const status = (await dialog.getByTestId("key-status").textContent()) ?? "";
  const placeholder = (await field.getAttribute("placeholder")) ?? "";
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  return { status, placeholder };
}

/** Exports the shown thread (the thread list's Export button) and returns the file's text. */
async function exportText(page: Page): Promise<string> {
  const download = page.waitForEvent("download");
  await page.getByTestId("thread-item").first().getByTestId("thread-export").click();
  return readFile(await (await download).path(), "utf8");
}

test(
  "an API key not remembered: used for the turn, then nowhere in the page, storage, export, console or other requests; " +
    "gone after a reload",
  async ({ page, context }) => {
    const errors = watchErrors(page);
    const logged = recordConsole(page);
    const seen = recordRequests(context);
    const scope = providerScope("openai");
    await scope.configure({ requireKey: KEY });
    await scope.script([{ chunks: ["The key ", "worked."] }]);
    await page.goto("/");
    await connectOpenAI(page, scope, false);
    await turn(page, "Hello with a key");
    await expect(page.getByTestId("assistant-message").last()).toHaveText("The key worked.");
    const [chat] = await scope.chatRequests();
    expect(chat?.headers.authorization).toBe(`Bearer ${KEY}`);

    expect(await keyStatus(page)).toEqual({
      status: "A key is set. It is never shown again. It is sent only to OpenAI.",
      placeholder: "set (this session): type to replace it",
    });
    expect(await keyPlaces(page)).toEqual([]);
    // The dump does read the thread (its messages are there as text), so the key's absence means something.
    expect((await dumpIndexedDB(page)).some((row) => row.value.includes("Hello with a key"))).toBe(true);
    expect(await exportText(page)).not.toContain(KEY);
    expect(logged.filter((m) => m.includes(KEY))).toEqual([]);
    // Only the provider's requests carry it (the page's own, e.g. its assets, never do).
    const carrying = seen.filter((r) => `${r.url} ${JSON.stringify(r.headers)} ${r.body}`.includes(KEY));
    expect(carrying.length).toBeGreaterThan(0);
    expect(carrying.filter((r) => !r.url.startsWith(`${scope.baseUrl}/`))).toEqual([]);

    // Not remembered: a reload forgets it.
    await page.reload();
    await expect(page.getByTestId("assistant-message").last()).toHaveText("The key worked.");
    expect(await keyStatus(page)).toEqual({
      status: "No key set: the one used before the reload was for that session only and was not kept. It is sent only to OpenAI.",
      placeholder: "paste your key",
    });
    expect(await keyPlaces(page)).toEqual([]);
    // A turn is refused before any request, saying the key was not kept; the message stays in the box.
    await send(page, "Still there?");
    const refusal = page.getByTestId("run-error");
    await expect(refusal).toHaveAttribute("data-code", "key_missing", { timeout: 15_000 });
    await expect(refusal).toContainText("The OpenAI API key was for the last session only, so the reload did not keep it.");
    await expect(page.getByRole("textbox", { name: "Message" })).toHaveValue("Still there?");
    expect(await scope.chatRequests()).toHaveLength(1);
    expect(logged.filter((m) => m.includes(KEY))).toEqual([]);
    expect(errors).toEqual([]);
  },
);

test("an API key remembered: it survives a reload and is stored only in the key store's namespace", async ({ page, context }) => {
  const errors = watchErrors(page);
  const logged = recordConsole(page);
  const seen = recordRequests(context);
  const scope = providerScope("openai");
  await scope.configure({ requireKey: KEY });
  await scope.script([{ chunks: ["Remembered ", "key works."] }, { chunks: ["Still ", "works after a reload."] }]);
  await page.goto("/");
  await connectOpenAI(page, scope, true);
  await turn(page, "Hello with a remembered key");
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Remembered key works.");
  const onlyInKeyStore = ['IndexedDB deeptab-store/items ["keys","openai"]'];
  expect(await keyPlaces(page)).toEqual(onlyInKeyStore);

  await page.reload();
  expect(await keyStatus(page)).toEqual({
    status: "A key is set. It is never shown again. It is sent only to OpenAI.",
    placeholder: "set (remembered on this device): type to replace it",
  });
  await turn(page, "And after a reload?");
  await expect(page.getByTestId("assistant-message").last()).toHaveText("Still works after a reload.");
  const chats = await scope.chatRequests();
  expect(chats.map((c) => c.headers.authorization)).toEqual([`Bearer ${KEY}`, `Bearer ${KEY}`]);
  expect(await keyPlaces(page)).toEqual(onlyInKeyStore);
  expect(await exportText(page)).not.toContain(KEY);
  expect(logged.filter((m) => m.includes(KEY))).toEqual([]);
  expect(
    seen.filter((r) => `${r.url} ${JSON.stringify(r.headers)} ${r.body}`.includes(KEY) && !r.url.startsWith(`${scope.baseUrl}/`)),
  ).toEqual([]);
  expect(errors).toEqual([]);
});
