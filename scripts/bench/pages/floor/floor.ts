/**
 * The floor under the app's navigation → first token (scripts/bench/app.ts):
 * a blank page that creates a worker running a bare LangGraph loop
 * (floor.worker.ts) at once, sends the box's text on Enter and shows the
 * streamed text. No UI framework, storage, settings or harness: what is left
 * is the browser, the libraries every deeptab turn needs, and the machine.
 */
const worker = new Worker(new URL("./floor.worker.ts", import.meta.url), { type: "module" });
performance.mark("deeptab:worker-spawned");
const box = document.querySelector("textarea")!;
const live = document.querySelector('[data-testid="assistant-live"]')!;
worker.onmessage = (e: MessageEvent<string>) => live.append(e.data);
box.addEventListener("keydown", (e) => {
  if (e.key !== "Enter") return;
  e.preventDefault();
  worker.postMessage(box.value);
});
