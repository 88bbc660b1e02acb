/** The crafted-history fuzz (stored-state.test.ts) in Chromium: the same checks and readers, on its JavaScript engine. */
import "./stored-state.test.ts";
