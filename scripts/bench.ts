/**
 * `npm run bench`: each figure is a ratio against a baseline run in the same
 * process, so machine noise cancels out.
 */
import { benchLoop } from "./bench-loop.ts";

const sections: Array<() => Promise<string[]>> = [benchLoop];

for (const section of sections) {
  for (const line of await section()) console.log(line);
  console.log("");
}
