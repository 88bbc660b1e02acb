import { benchLoop } from "./scripts/bench-loop.ts";
for (const l of await benchLoop()) console.log(l);
