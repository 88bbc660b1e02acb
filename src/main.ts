/**
 * The page entry: one agent worker, the app's state objects, the page-side
 * services the worker cannot host (WebContainer boots only on the main
 * thread; the Prompt API is Window-only), one Svelte app. The worker is
 * created first (page/boot.ts is the first import), so it boots while the
 * rest of the page evaluates and mounts.
 */
import { agentWorker } from "./page/boot.ts";
import { mount } from "svelte";
import { AgentsState } from "./ui/agents/state.svelte.ts";
import App from "./ui/app.svelte";
import { Chat } from "./ui/chat/chat.svelte.ts";
import { appContext } from "./ui/context.ts";
import { FilesState } from "./ui/files/files.svelte.ts";
import { attachPromptApi } from "./ui/runtime/prompt-api.ts";
import { startSandboxHost } from "./ui/runtime/sandbox-host.ts";
import { Servers } from "./ui/runtime/servers.svelte.ts";
import { SettingsState } from "./ui/settings/settings.svelte.ts";
import { RuntimeState } from "./ui/runtime/runtime.svelte.ts";
import { Threads } from "./ui/threads/threads.svelte.ts";
import { connectAgent } from "./page/client.ts";
import { routeClient } from "./page/langgraph-runtime.ts";

const target = document.getElementById("app");
if (!target) throw new Error("index.html has no #app element.");

/** The thread this tab shows; kept across reloads. */
const THREAD_KEY = "deeptab:thread";
const threadId = localStorage.getItem(THREAD_KEY) ?? crypto.randomUUID();
localStorage.setItem(THREAD_KEY, threadId);

// Settings → Runtime: the page's client sends threads, runs and files to a LangGraph server while one is chosen.
const client = routeClient(connectAgent(agentWorker), () => runtime.route);
const runtime = new RuntimeState(() => client.announce());
const chat = new Chat(client, threadId);
const threads = new Threads(client, chat, (id) => localStorage.setItem(THREAD_KEY, id));
const settings = new SettingsState(client);
const files = new FilesState(client, chat);
const agents = new AgentsState(client, chat, threads);
const servers = new Servers();
const sandbox = startSandboxHost(
  client,
  () => settings.settings?.sandbox ?? "shell",
  (server) => servers.add(server),
  {
    onStatus: (status) => settings.updateSandbox(status),
  },
);
// WebContainer boots once the settings say so (after they load, and after each save): never by default.
settings.onChange(() => void sandbox.boot());
void attachPromptApi(client);
void runtime.restore();

// One turn of the event loop before mounting: Chromium starts the worker's script (created above) only once this
// thread is free, and mounting holds it for a while.
await new Promise((resolve) => setTimeout(resolve, 0));
performance.mark("deeptab:mount");
mount(App, { target, context: appContext({ chat, threads, settings, files, servers, agents, runtime }) });
addEventListener("pagehide", (event: PageTransitionEvent) => {
  if (event.persisted) return;
  sandbox.dispose();
  settings.dispose();
  chat.dispose();
  threads.dispose();
  client.close();
});
