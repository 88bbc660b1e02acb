/** The synchronous-subagent parity rows in Chromium: the Node file (upstream-parity-winter-2026-subagents.test.ts) runs here too. */
import "./upstream-parity-winter-2026-subagents.test.ts";
