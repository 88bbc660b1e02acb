/** The page entry: one agent worker, one chat, one thread list, one Svelte app. */
import { mount } from "svelte";
import App from "./ui/app.svelte";
import { Chat } from "./ui/chat.svelte.ts";
import { chatContext } from "./ui/context.ts";
import { Threads } from "./ui/threads.svelte.ts";
import { connectAgent } from "./worker/client.ts";

const target = document.getElementById("app");
if (!target) throw new Error("index.html has no #app element.");

/** The thread this tab shows; kept across reloads. */
const THREAD_KEY = "deeptab:thread";
const threadId = localStorage.getItem(THREAD_KEY) ?? crypto.randomUUID();
localStorage.setItem(THREAD_KEY, threadId);

const client = connectAgent();
const chat = new Chat(client, threadId);
const threads = new Threads(client, chat, (id) => localStorage.setItem(THREAD_KEY, id));
mount(App, { target, context: chatContext(chat, threads) });
addEventListener("pagehide", (event: PageTransitionEvent) => {
  if (event.persisted) return;
  chat.dispose();
  threads.dispose();
  client.close();
});
