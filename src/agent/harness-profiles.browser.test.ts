/** Harness profiles in Chromium: the Node file (harness-profiles.test.ts) runs here too. */
import "./harness-profiles.test.ts";
