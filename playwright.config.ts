import { defineConfig } from "@playwright/test";
import { chromiumArgs, chromiumPath } from "./scripts/chromium.ts";

// DEEPTAB_E2E_PORT and DEEPTAB_E2E_DIST let two runs (or a run and a hand-started preview) live side by side.
const port = Number(process.env.DEEPTAB_E2E_PORT) || 4317;
const outDir = process.env.DEEPTAB_E2E_DIST ?? "dist";

export default defineConfig({
  testDir: "e2e",
  testMatch: "*.spec.ts",
  timeout: 60_000,
  // The built app's worker, IndexedDB and loopback servers on a loaded 2-core CI machine: a state the page reaches in
  // under a second when idle took over 5 s (Playwright's default) beside another CPU-heavy job.
  expect: { timeout: 15_000 },
  retries: 0,
  reporter: process.env.CI ? "line" : "list",
  // Scripted OpenAI and Anthropic servers on fixed loopback ports (e2e/servers.ts), for the whole run.
  globalSetup: "./e2e/global-setup.ts",
  globalTeardown: "./e2e/global-teardown.ts",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: "chromium",
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    // A failure leaves the page as it was in test-results/ (not committed), beside the error.
    screenshot: "only-on-failure",
  },
  webServer: {
    command: `npx vite preview --port ${port} --strictPort --host 127.0.0.1 --outDir ${outDir} --bypass-lock`,
    url: `http://127.0.0.1:${port}`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});
