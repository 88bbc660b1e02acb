import { runHarness, runBare } from "./scripts/bench-loop.ts";
const which = process.argv[2];
for (let i = 0; i < 5; i++) await (which === "bare" ? runBare() : runHarness());
const ts: number[] = [];
for (let i = 0; i < 20; i++) ts.push((await (which === "bare" ? runBare() : runHarness())).cpu);
console.log(which, ts.map((t) => t.toFixed(0)).join(" "));
