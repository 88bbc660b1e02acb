/** The rubric loop in Chromium: the Node file (rubric.test.ts) runs here too. */
import "./rubric.test.ts";
