/** Fork subagents in Chromium: the Node file (subagents-fork.test.ts) runs here too. */
import "./subagents-fork.test.ts";
