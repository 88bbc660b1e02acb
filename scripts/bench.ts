/**
 * `npm run bench`: each figure is a ratio against a baseline run in the same
 * process, so machine noise cancels out. The browser sections run last, in
 * headless Chromium (skipped when it is missing); the app section needs
 * `npm run build` first.
 */
import { benchAgents } from "./bench-agents.ts";
import { benchApp } from "./bench-app.ts";
import { benchBrowser } from "./bench-browser.ts";
import { benchCheckpoints } from "./bench-checkpoint.ts";
import { benchContext } from "./bench-context.ts";
import { benchLoop } from "./bench-loop.ts";
import { benchJs } from "./bench-js.ts";
import { benchMcp } from "./bench-mcp.ts";
import { benchPatterns } from "./bench-patterns.ts";
import { benchPrompt } from "./bench-prompt.ts";
import { benchPython } from "./bench-python.ts";
import { benchRunaway } from "./bench-runaway.ts";
import { benchServer } from "./bench-server.ts";
import { benchShell } from "./bench-shell.ts";
import { benchStop } from "./bench-stop.ts";
import { benchStorage } from "./bench-storage.ts";
import { benchWrites } from "./bench-writes.ts";

const sections: Array<() => Promise<string[]>> = [
  benchLoop,
  benchContext,
  benchCheckpoints,
  benchStorage,
  benchWrites,
  benchPatterns,
  benchPrompt,
  benchShell,
  benchRunaway,
  benchStop,
  benchAgents,
  benchMcp,
  benchServer,
  benchJs,
  benchPython,
  benchBrowser,
  benchApp,
];

for (const section of sections) {
  for (const line of await section()) console.log(line);
  console.log("");
}
