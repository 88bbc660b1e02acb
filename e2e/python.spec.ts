/**
 * A data task through the UI with Python (issue 18): a CSV is dropped on the composer (into /uploads/), a command
 * runs `python3` over it in the offline shell (the demo model turns "$ <command>" into `execute`), the summary file
 * it writes opens in the file viewer, and the terminal shows Python's first load. Every request leaving the machine
 * is aborted, so Python comes from the site's own files; and the service worker cached those files at that first
 * use, not before (they are not in its precache).
 *
 * With no sandbox chosen (no shell, no `execute`), the model gets the `python` tool instead: it asks first (as a
 * command does), draws a PNG with the standard library, and the image opens in the file viewer.
 */
import { expect, type Page } from "@playwright/test";
import { AFTER_LOAD, connect, idle, send, shot, watchErrors } from "./app.ts";
import { startPackageSource } from "../src/testing/python-package-source.ts";
import { PYTHON_PACKAGES_CDN } from "../src/protocol/settings.ts";
import { providerScope } from "./control.ts";
import { test } from "./fixtures.ts";

const LOOPBACK_HOST = /^(?:127\.0\.0\.1|localhost|\[::1\])$/;

/** The URLs of the service worker's cache (one cache per build). */
const cachedUrls = (page: Page) =>
  page.evaluate(async () => {
    const urls: string[] = [];
    for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) urls.push(request.url);
    return urls;
  });

const PROGRAM = [
  "import csv",
  "rows = list(csv.DictReader(open('/uploads/sales.csv')))",
  "totals = {}",
  "[totals.__setitem__(r['region'], totals.get(r['region'], 0) + int(r['amount'])) for r in rows]",
  "out = open('/summary.csv', 'w')",
  "out.write('region,total\\n' + ''.join(f'{k},{v}\\n' for k, v in sorted(totals.items())))",
  "print(len(rows), 'rows,', len(totals), 'regions')",
].join("; ");

test("a CSV dropped in the composer, summarised by python3, opens in the file viewer (Python from the site, offline)", async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const errors = watchErrors(page);
  const leaving: string[] = [];
  await context.route(
    (url) => !LOOPBACK_HOST.test(url.hostname) && /^(?:https?|wss?):$/.test(url.protocol),
    (route) => {
      leaving.push(route.request().url());
      return route.abort("internetdisconnected");
    },
  );
  await page.goto("/");
  const box = page.getByRole("textbox", { name: "Message" });
  await expect(box).toBeVisible(AFTER_LOAD);
  await expect.poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), AFTER_LOAD).toBe(true);

  await box.fill("Here is the sales data");
  const dropped = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(["region,amount\nnorth,10\nsouth,5\nnorth,7\neast,1\n"], "sales.csv", { type: "text/csv" }));
    return dt;
  });
  const form = page.locator("form").filter({ has: box });
  await form.dispatchEvent("drop", { dataTransfer: dropped });
  await box.press("Enter");
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "false", { timeout: 60_000 });
  // Installed, and Pyodide not among what it precached.
  expect((await cachedUrls(page)).some((url) => url.includes("/assets/pyodide/"))).toBe(false);

  await page.getByRole("tab", { name: "Terminal" }).click();
  // Right after a run the thread may still count as busy for a moment (the composer then keeps the text): send again.
  await box.fill(`$ python3 -c "${PROGRAM}"`);
  await expect(async () => {
    if (await box.inputValue()) await box.press("Enter");
    await expect(box).toHaveValue("", { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await page.getByTestId("approve").click();
  // While Python loads (seconds), the terminal shows it; the lines are the panel's, not the command's output.
  await expect(page.getByRole("tabpanel")).toContainText("[python3: loading Python, first use on this thread", { timeout: 60_000 });
  const answer = page.getByTestId("assistant-message").last();
  await expect(answer).toContainText("4 rows, 3 regions", { timeout: 180_000 });
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "false", { timeout: 60_000 });

  await expect(page.getByTestId("command")).toHaveAttribute("data-exit", "0");
  await expect(page.getByRole("tabpanel")).toContainText("4 rows, 3 regions");

  await page.getByRole("tab", { name: "Files" }).click();
  const file = page.getByTestId("files").locator('[data-testid="file"][data-path="/summary.csv"]');
  await file.click();
  const viewer = page.getByTestId("file-viewer");
  await expect(viewer).toHaveAttribute("data-path", "/summary.csv");
  const code = viewer.getByRole("region", { name: "/summary.csv", exact: true });
  await expect
    .poll(async () => (await code.locator("[data-line] .text").allTextContents()).join("\n"))
    .toBe("region,total\neast,1\nnorth,17\nsouth,5");

  // Cached at that first use, from this site; nothing tried to leave the machine.
  const cached = await cachedUrls(page);
  for (const name of ["pyodide.asm.wasm", "python_stdlib.zip"])
    expect(cached.some((url) => url.endsWith(`/assets/pyodide/${name}`))).toBe(true);
  expect(leaving).toEqual([]);
  expect(errors).toEqual([]);
});

/** A 40×30 bar chart as a PNG, drawn with the standard library only (zlib, struct): what a plot without matplotlib is. */
const PLOT = [
  "import struct, zlib",
  "w, h = 40, 30",
  "bars = [10, 25, 18, 30]",
  "rows = []",
  "for y in range(h):",
  "    row = bytearray([0])",
  "    for x in range(w):",
  "        bar = x // 10",
  "        on = h - y <= bars[bar] and x % 10 < 8",
  "        row += bytes([30, 100, 200]) if on else bytes([255, 255, 255])",
  "    rows.append(bytes(row))",
  "def chunk(kind, data):",
  "    return struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))",
  "png = b'\\x89PNG\\r\\n\\x1a\\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0))",
  "png += chunk(b'IDAT', zlib.compress(b''.join(rows))) + chunk(b'IEND', b'')",
  "open('/plot.png', 'wb').write(png)",
  "print('wrote /plot.png,', len(png), 'bytes')",
].join("\n");

test("with no sandbox, the python tool (asking first) draws a PNG with the standard library; it opens as an image", async ({ page }) => {
  test.setTimeout(240_000);
  const errors = watchErrors(page);
  const scope = providerScope("openai");
  await page.goto("/");
  await connect(page, { provider: "openai-compatible", baseUrl: scope.baseUrl, model: "e2e-model" });
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByLabel("Sandbox").selectOption({ label: "None" });
  await dialog.getByRole("checkbox", { name: "Ask before running commands" }).setChecked(true);
  await dialog.getByRole("button", { name: "Save" }).click();
  await expect(dialog.getByRole("status")).toContainText("Saved.");
  await page.keyboard.press("Escape");

  await scope.script([{ toolCalls: [{ name: "python", args: { code: PLOT } }] }, { text: "The chart is in /plot.png." }]);
  await send(page, "Plot the four numbers");
  // Code runs only once the person approves it, as a command does.
  await page.getByTestId("approve").click();
  await expect(page.getByTestId("assistant-message").last()).toHaveText("The chart is in /plot.png.", { timeout: 180_000 });
  await idle(page);
  const [first] = await scope.chatRequests();
  const offered = ((first!.body.tools as Array<{ function: { name: string } }> | undefined) ?? []).map((t) => t.function.name);
  expect(offered).toContain("python");
  expect(offered).not.toContain("execute");
  await expect(page.locator('[data-testid="tool-call"][data-tool="python"]')).toHaveAttribute("data-status", "done");

  await page.getByRole("tab", { name: "Terminal" }).click();
  await expect(page.getByTestId("command")).toHaveAttribute("data-exit", "0");
  await expect(page.getByRole("tabpanel")).toContainText("wrote /plot.png,");

  await page.getByRole("tab", { name: "Files" }).click();
  await page.getByTestId("files").locator('[data-testid="file"][data-path="/plot.png"]').click();
  const image = page.getByTestId("file-viewer").getByRole("img", { name: "Image /plot.png" });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([40, 30]);
  await page.screenshot({ path: shot("python-plot-1280") });
  expect(errors).toEqual([]);
});

test("Python packages, switched on in Settings, come from Pyodide's CDN when a program imports them (nothing before)", async ({
  page,
  context,
}) => {
  test.setTimeout(240_000);
  const errors = watchErrors(page);
  // Pyodide's CDN folder, played by a loopback source (a lock for this Pyodide and real wheels) behind the real URL.
  const source = await startPackageSource();
  const cdn: string[] = [];
  const leaving: string[] = [];
  await context.route(
    (url) => !LOOPBACK_HOST.test(url.hostname) && /^(?:https?|wss?):$/.test(url.protocol),
    async (route) => {
      const url = route.request().url();
      if (!url.startsWith(PYTHON_PACKAGES_CDN)) {
        leaving.push(url);
        return route.abort("internetdisconnected");
      }
      cdn.push(url.slice(PYTHON_PACKAGES_CDN.length));
      const answer = await fetch(`${source.url}${url.slice(PYTHON_PACKAGES_CDN.length)}`);
      const body = Buffer.from(await answer.arrayBuffer());
      return route.fulfill({ status: answer.status, body, headers: { "Access-Control-Allow-Origin": "*" } });
    },
  );
  try {
    await page.goto("/");
    const box = page.getByRole("textbox", { name: "Message" });
    await expect(box).toBeVisible(AFTER_LOAD);

    // Off by default: the import's error names the setting, and nothing is fetched.
    await turnWithApproval(page, `$ python3 -c "import deeptab_probe"`);
    await expect(page.getByTestId("assistant-message").last()).toContainText("only Python's standard library is available offline");
    expect(cdn).toEqual([]);

    await page.getByRole("button", { name: "Settings" }).click();
    const dialog = page.getByRole("dialog", { name: "Settings" });
    const packages = dialog.getByRole("checkbox", { name: /^Python packages/ });
    await expect(packages).not.toBeChecked();
    await packages.check();
    const field = dialog.getByRole("textbox", { name: "Package source" });
    await expect(field).toHaveValue(PYTHON_PACKAGES_CDN);
    // A source that is not a URL cannot be saved.
    await field.fill("cdn please");
    await expect(dialog.getByText("Enter a full https:// URL of a folder with a pyodide-lock.json.")).toBeVisible();
    await expect(dialog.getByRole("button", { name: "Save" })).toBeDisabled();
    await field.fill(PYTHON_PACKAGES_CDN);
    await page.screenshot({ path: shot("python-packages-settings-1280") });
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect(dialog.getByRole("status")).toContainText("Saved.");
    await page.keyboard.press("Escape");

    await turnWithApproval(page, `$ python3 -c "import deeptab_probe; print(deeptab_probe.hello())"`);
    await expect(page.getByTestId("assistant-message").last()).toContainText("hello from a package (base 2.0)");
    expect(cdn).toEqual(["pyodide-lock.json", "deeptab_base-2.0-py3-none-any.whl", "deeptab_probe-1.0-py3-none-any.whl"]);

    // The request log lists the CDN; nothing else left the machine.
    await page.getByRole("button", { name: "Settings" }).click();
    const log = dialog.getByTestId("request-log");
    if ((await log.getAttribute("open")) === null) await log.locator("summary").click();
    await log.getByRole("button", { name: "Refresh" }).click();
    await expect(log.getByRole("row").filter({ hasText: "cdn.jsdelivr.net" }).filter({ hasText: "pyodide-lock.json" })).toBeVisible();
    expect(leaving).toEqual([]);
    expect(errors).toEqual([]);
  } finally {
    await source.close();
  }
});

/** Sends a "$ command" to the demo model and approves the command (asked first by default); waits for the answer. */
async function turnWithApproval(page: Page, text: string): Promise<void> {
  const box = page.getByRole("textbox", { name: "Message" });
  const answers = await page.getByTestId("assistant-message").count();
  await box.fill(text);
  await expect(async () => {
    if (await box.inputValue()) await box.press("Enter");
    await expect(box).toHaveValue("", { timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await page.getByTestId("approve").click();
  await expect(page.getByTestId("assistant-message")).toHaveCount(answers + 1, { timeout: 180_000 });
  await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "false", { timeout: 180_000 });
}
