/** Parallel subagents editing one file, in Chromium on real IndexedDB: the Node table (parallel-edits.test.ts) runs here too. */
import "./parallel-edits.test.ts";
