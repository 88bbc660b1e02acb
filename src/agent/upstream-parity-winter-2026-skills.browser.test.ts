/** Issue 42's skills and read_file parity in Chromium: the Node table (upstream-parity-winter-2026-skills.test.ts) runs here too. */
import "./upstream-parity-winter-2026-skills.test.ts";
