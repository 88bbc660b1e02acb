/** agent.yaml pinned_skills in Chromium: the Node file runs here too. */
import "./pinned-skills.test.ts";
