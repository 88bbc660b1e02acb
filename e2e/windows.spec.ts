/**
 * Issue 42, small windows keep their meaning, in the built app: an OpenAI-compatible server that does not say its
 * window is assumed to have 8,192 tokens, and the context meter and Settings say so; the person sets the window in
 * Settings and the assumption goes. A server that says (vLLM's /v1/models max_model_len) is taken at its word.
 * Screenshots at 1280×800 and 390×844.
 */
import { expect } from "@playwright/test";
import { connect, shot, turn } from "./app.ts";
import { providerScope } from "./control.ts";
import { test } from "./fixtures.ts";

test("a server that does not say its window: assumed 8,192 tokens, said in the meter and Settings, then set by the person", async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const scope = providerScope("openai");
  await page.goto("/");
  await connect(page, { provider: "openai-compatible", baseUrl: scope.baseUrl, model: "served-model" });
  await turn(page, "hello");
  const meter = page.getByTestId("context-meter").filter({ visible: true });
  await expect(meter.getByTestId("window-assumed")).toHaveText("assumed");
  await expect(meter.getByRole("meter")).toHaveAttribute("aria-label", /assumed 8,192 tokens — the server did not say; set it in Settings/);
  await page.screenshot({ path: shot("windows-assumed-desktop") });

  await page.getByRole("button", { name: "Settings", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await expect(dialog.getByText("Assumed 8,192 tokens — the server did not say. Enter the model's window if you know it.")).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await dialog.getByLabel("Context window").scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot("windows-assumed-settings-phone") });
  await page.setViewportSize({ width: 1280, height: 800 });
  await dialog.getByLabel("Context window").fill("131072");
  await dialog.getByRole("button", { name: "Save", exact: true }).click();
  await expect(dialog.getByRole("status")).toContainText("Saved.");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(meter.getByTestId("context-used")).toHaveText(/\/ 131\.1k$/);
  await expect(meter.getByTestId("window-assumed")).toHaveCount(0);
});

test("a server that says its window (vLLM's max_model_len) is taken at its word: no assumption anywhere", async ({ page }) => {
  const scope = providerScope("openai");
  await scope.configure({ local: { kind: "vllm", model: "served-model", maxModelLen: 131_072 } });
  await page.goto("/");
  await connect(page, { provider: "openai-compatible", baseUrl: scope.baseUrl, model: "served-model" });
  await turn(page, "hello");
  const meter = page.getByTestId("context-meter").filter({ visible: true });
  await expect(meter.getByTestId("context-used")).toHaveText(/\/ 131\.1k$/);
  await expect(meter.getByTestId("window-assumed")).toHaveCount(0);
  await page.setViewportSize({ width: 390, height: 844 });
  // On a phone the meter sits under the agent's buttons, whole on the screen (Save as demo once pushed it off).
  const phoneMeter = page.getByTestId("context-used").filter({ visible: true });
  await expect(phoneMeter).toHaveText(/\/ 131\.1k$/);
  await expect.poll(async () => (await phoneMeter.boundingBox())?.x ?? Infinity).toBeGreaterThanOrEqual(0);
  await expect
    .poll(async () => {
      const box = await phoneMeter.boundingBox();
      return box ? box.x + box.width : Infinity;
    })
    .toBeLessThanOrEqual(390);
  await page.screenshot({ path: shot("windows-vllm-phone") });
});
