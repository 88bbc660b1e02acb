/**
 * `npm run bench`: each figure is a ratio against a baseline run in the same
 * process, so machine noise cancels out. The browser sections run last, in
 * headless Chromium (skipped when it is missing); the app section needs
 * `npm run build` first.
 */
import { benchAgents } from "./agents.ts";
import { benchApp } from "./app.ts";
import { benchBrowser } from "./browser.ts";
import { benchCheckpoints } from "./checkpoint.ts";
import { benchContext } from "./context.ts";
import { benchLoop } from "./loop.ts";
import { benchJs } from "./js.ts";
import { benchMcp } from "./mcp.ts";
import { benchPatterns } from "./patterns.ts";
import { benchPrompt } from "./prompt.ts";
import { benchPython } from "./python.ts";
import { benchRunaway } from "./runaway.ts";
import { benchServer } from "./server.ts";
import { benchShell } from "./shell.ts";
import { benchStop } from "./stop.ts";
import { benchStorage } from "./storage.ts";
import { benchWrites } from "./writes.ts";

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
