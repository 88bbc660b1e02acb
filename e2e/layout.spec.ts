/**
 * The layout from phone to desktop, with the demo model: at 390 and 360 px
 * nothing scrolls sideways on any main screen (conversation with tool cards
 * and a subagent, the thread drawer, the files sheet and the file viewer,
 * the settings, an approval); the thread list is a drawer and the files a
 * sheet there, while at 1280 px both stand beside the conversation. It saves
 * screenshots of those screens at 1280×800 and 390×844, light and dark
 * (test-results/screenshots/), to be looked at. The theme toggle switches
 * light, dark and the system's, and the choice survives a reload. axe-core
 * finds no violation on a phone with the files sheet open, nor on a desktop;
 * the panel tabs follow the arrow keys.
 */
import { expect, type Page } from "@playwright/test";
import { axeViolations, shot, turn, watchErrors } from "./app.ts";
import { test } from "./fixtures.ts";

/** Page-wide horizontal overflow: the document wider than the viewport, or an element sticking out of it. */
async function sideways(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > width) out.push(`document scrollWidth ${document.documentElement.scrollWidth} > ${width}`);
    for (const el of document.querySelectorAll<HTMLElement>("body *")) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const style = getComputedStyle(el);
      if (style.visibility === "hidden" || style.position === "fixed") continue;
      // Inside a horizontally scrollable box (code, tables) sticking out is fine: that box scrolls.
      let scroller: HTMLElement | null = el.parentElement;
      let clipped = false;
      while (scroller && scroller !== document.body) {
        const o = getComputedStyle(scroller).overflowX;
        if (o === "auto" || o === "scroll" || o === "hidden" || o === "clip") {
          clipped = true;
          break;
        }
        scroller = scroller.parentElement;
      }
      if (!clipped && (r.right > width + 1 || r.left < -1))
        out.push(`${el.tagName.toLowerCase()}.${el.className} ${Math.round(r.left)}..${Math.round(r.right)}`);
    }
    return out.slice(0, 5);
  });
}

/** A thread with a note, a subagent and a command, so the timeline shows cards of each kind. */
async function fillThread(page: Page): Promise<void> {
  await turn(page, "hello, please keep a note of this");
  await turn(page, "research cats and their sleeping habits");
  await page.getByRole("button", { name: "Settings" }).click();
  await page.getByRole("checkbox", { name: "Ask before running commands" }).uncheck();
  await page.getByRole("dialog", { name: "Settings" }).getByRole("button", { name: "Save", exact: true }).click();
  await expect(page.getByRole("dialog", { name: "Settings" }).getByRole("status")).toContainText("Saved.");
  await page.keyboard.press("Escape");
  await turn(page, "$ seq 1 5 | sort -r > /count.txt && cat /count.txt");
  // The file tree follows the agent (listed again shortly after the run ends).
  await expect(page.getByTestId("file").filter({ hasText: "count.txt" })).toBeAttached();
}

for (const width of [390, 360]) {
  test(`at ${width} px no screen scrolls sideways; threads are a drawer and files a sheet`, async ({ page }) => {
    test.setTimeout(90_000);
    const errors = watchErrors(page);
    await page.setViewportSize({ width, height: 844 });
    await page.goto("/");
    expect(await sideways(page)).toEqual([]);
    await fillThread(page);
    await expect(page.getByTestId("tool-call")).not.toHaveCount(0);
    expect(await sideways(page)).toEqual([]);
    const box = await page.getByRole("textbox", { name: "Message" }).boundingBox();
    expect(box!.width).toBeGreaterThan(width * 0.5);

    // The thread list is a drawer over the conversation, closed by its scrim.
    const drawerButton = page.getByRole("button", { name: "Threads", exact: true });
    await expect(page.getByTestId("thread-list")).not.toBeInViewport();
    await drawerButton.click();
    await expect(drawerButton).toHaveAttribute("aria-expanded", "true");
    await expect(page.getByTestId("thread-list")).toBeInViewport();
    expect(await sideways(page)).toEqual([]);
    // The scrim is the strip beside the drawer: a tap there closes it; so does Escape.
    await page.getByRole("button", { name: "Close threads" }).click({ position: { x: width - 12, y: 400 } });
    await expect(page.getByTestId("thread-list")).not.toBeInViewport();
    await drawerButton.click();
    await expect(page.getByTestId("thread-list")).toBeInViewport();
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("thread-list")).not.toBeInViewport();

    // Files are a sheet; the viewer opens in it and fits.
    await page.getByRole("button", { name: "Files and tools" }).click();
    await expect(page.getByRole("tab", { name: "Files" })).toBeInViewport();
    await page.getByTestId("file").filter({ hasText: "research.md" }).first().click();
    await expect(page.getByTestId("file-viewer")).toBeVisible();
    expect(await sideways(page)).toEqual([]);
    // On a phone the viewer takes the whole screen; its back button returns to the files sheet.
    await page.getByRole("button", { name: "Close file" }).click();
    await expect(page.getByRole("tab", { name: "Files" })).toBeInViewport();
    await page.getByRole("button", { name: "Close panel" }).click();

    await page.getByRole("button", { name: "Settings" }).click();
    await expect(page.getByRole("dialog", { name: "Settings" })).toBeVisible();
    expect(await sideways(page)).toEqual([]);
    const save = await page.getByRole("dialog", { name: "Settings" }).getByRole("button", { name: "Save", exact: true }).boundingBox();
    expect(save!.x + save!.width).toBeLessThanOrEqual(width);
    await page.keyboard.press("Escape");

    // An approval: every decision button is on screen.
    await turn(page, "please delete it");
    const approval = page.getByTestId("approval");
    await expect(approval).toBeVisible();
    expect(await sideways(page)).toEqual([]);
    for (const id of ["approve", "reject"]) {
      const b = await approval.getByTestId(id).first().boundingBox();
      expect(b, id).not.toBeNull();
      expect(b!.x).toBeGreaterThanOrEqual(0);
      expect(b!.x + b!.width).toBeLessThanOrEqual(width);
    }
    expect(errors).toEqual([]);
  });
}

test("on a phone, with the files sheet open, axe finds nothing: the tab list holds only tabs, the page keeps its heading", async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/");
  await turn(page, "hello");
  await page.getByRole("button", { name: "Files and tools" }).click();
  await expect(page.getByRole("tab", { name: "Files" })).toBeInViewport();
  // Only tabs in the tab list (axe: aria-required-children, critical); Close panel sits beside it.
  await expect(page.getByRole("tablist", { name: "Panels" }).locator("> *:not([role=tab])")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Close panel" })).toBeInViewport();
  // The level-one heading is out of sight on a phone but still the page's heading (axe: page-has-heading-one).
  await expect(page.getByRole("heading", { level: 1, name: "deeptab" })).toHaveCount(1);
  expect(await axeViolations(page)).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 800 });
  expect(await axeViolations(page)).toEqual([]);
});

test("the panel tabs follow the arrow keys, Home and End", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  const tab = (name: string | RegExp) => page.getByRole("tab", { name });
  await tab("Files").click();
  await expect(tab("Files")).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowRight");
  await expect(tab(/^Todos/)).toBeFocused();
  await expect(tab(/^Todos/)).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel", { name: /^Todos/ })).toContainText("No todos yet");
  await page.keyboard.press("End");
  await expect(tab("Preview")).toBeFocused();
  await page.keyboard.press("ArrowRight");
  await expect(tab("Files")).toHaveAttribute("aria-selected", "true");
  await page.keyboard.press("ArrowLeft");
  await expect(tab("Preview")).toHaveAttribute("aria-selected", "true");
  // One tab stop: the selected tab.
  await expect(page.getByRole("tablist", { name: "Panels" }).locator('[tabindex="0"]')).toHaveCount(1);
});

test("at 1280 px the thread list and the files panel stand beside the conversation", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  await turn(page, "hello");
  const list = await page.getByTestId("thread-list").boundingBox();
  const conversation = await page.getByRole("region", { name: "Conversation" }).boundingBox();
  const files = await page.getByRole("complementary", { name: "Files and tools" }).boundingBox();
  expect(list!.x + list!.width).toBeLessThanOrEqual(conversation!.x + 1);
  expect(conversation!.x + conversation!.width).toBeLessThanOrEqual(files!.x + 1);
  expect(conversation!.width).toBeGreaterThan(500);
  await expect(page.getByRole("button", { name: "Threads", exact: true })).toBeHidden();
});

test("the theme toggle: system, light, dark and back; data-theme follows, and the choice survives a reload", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  const html = page.locator("html");
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const toggle = page.getByRole("button", { name: /^Theme:/ });
  // The system's (dark) at first: no data-theme.
  await expect(toggle).toHaveAccessibleName("Theme: system theme (switch to light)");
  await expect(html).not.toHaveAttribute("data-theme");
  const dark = await background();
  expect(dark).not.toBe("rgb(255, 255, 255)");

  await toggle.click();
  await expect(html).toHaveAttribute("data-theme", "light");
  await expect(toggle).toHaveAccessibleName("Theme: light theme (switch to dark)");
  await expect.poll(background).toBe("rgb(255, 255, 255)");
  await page.reload();
  // Kept across the reload, although the system is dark.
  await expect(html).toHaveAttribute("data-theme", "light");
  await expect(page.getByRole("button", { name: /^Theme:/ })).toHaveAccessibleName("Theme: light theme (switch to dark)");
  await expect.poll(background).toBe("rgb(255, 255, 255)");

  await page.getByRole("button", { name: /^Theme:/ }).click();
  await expect(html).toHaveAttribute("data-theme", "dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.reload();
  await expect(html).toHaveAttribute("data-theme", "dark");
  await expect.poll(background).toBe(dark);

  // Back to the system's: no data-theme, and the page follows the (now light) system.
  await page.getByRole("button", { name: /^Theme:/ }).click();
  await expect(html).not.toHaveAttribute("data-theme");
  await expect(page.getByRole("button", { name: /^Theme:/ })).toHaveAccessibleName("Theme: system theme (switch to light)");
  await page.reload();
  await expect(html).not.toHaveAttribute("data-theme");
  await expect.poll(background).toBe("rgb(255, 255, 255)");
});

for (const scheme of ["light", "dark"] as const) {
  test(`screenshots of the main screens, ${scheme}`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/");
    await page.screenshot({ path: shot(`desktop-${scheme}-empty`) });
    await fillThread(page);
    await page.screenshot({ path: shot(`desktop-${scheme}-conversation`) });
    await page.getByTestId("file").filter({ hasText: "research.md" }).first().click();
    await expect(page.getByTestId("file-viewer")).toBeVisible();
    await page.screenshot({ path: shot(`desktop-${scheme}-file-viewer`) });
    await page.getByRole("button", { name: "Settings" }).click();
    await page.screenshot({ path: shot(`desktop-${scheme}-settings`) });
    await page.keyboard.press("Escape");
    await turn(page, "please delete it");
    await expect(page.getByTestId("approval")).toBeVisible();
    await page.screenshot({ path: shot(`desktop-${scheme}-approval`) });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await expect(page.getByTestId("approval")).toBeVisible();
    await page.screenshot({ path: shot(`phone-${scheme}-approval`) });
    await page.getByTestId("approve").first().click();
    await expect(page.getByTestId("messages")).toHaveAttribute("data-running", "false");
    await expect(page.getByTestId("approval")).toBeHidden();
    await page.screenshot({ path: shot(`phone-${scheme}-conversation`) });
    await page.getByRole("button", { name: "Threads", exact: true }).click();
    await page.screenshot({ path: shot(`phone-${scheme}-drawer`) });
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Files and tools" }).click();
    await page.screenshot({ path: shot(`phone-${scheme}-files`) });
    await page.getByRole("button", { name: "Close panel" }).click();
    await page.getByRole("button", { name: "Settings" }).click();
    await page.screenshot({ path: shot(`phone-${scheme}-settings`) });
  });
}

test("New thread puts the focus in the message box with a mouse", async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto("/");
  await page.getByRole("button", { name: "New thread" }).click();
  await expect(page.getByTestId("composer-input")).toBeFocused();
});

test.describe("on a touch phone", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("opening a thread leaves the message box unfocused, so no on-screen keyboard covers the thread", async ({ page }) => {
    await page.goto("/");
    await turn(page, "hello");
    await page.getByRole("button", { name: "Threads", exact: true }).click();
    await page.getByRole("button", { name: "New thread" }).click();
    await expect(page.getByRole("button", { name: "New thread" })).toBeHidden();
    await expect(page.getByTestId("composer-input")).not.toBeFocused();
  });
});
