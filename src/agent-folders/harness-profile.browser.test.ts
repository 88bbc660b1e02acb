/** agent.yaml harness_profile in Chromium: the Node file runs here too. */
import "./harness-profile.test.ts";
