/** Typed access to the chat and the thread list shared through Svelte context. */
import { getContext, setContext } from "svelte";
import type { Chat } from "./chat.svelte.ts";
import type { Threads } from "./threads.svelte.ts";

const CHAT = Symbol("deeptab.chat");
const THREADS = Symbol("deeptab.threads");

/** Call in a component's setup to share a chat with its children. */
export function setChat(chat: Chat): Chat {
  return setContext(CHAT, chat);
}

/** The root context for `mount(App, { context })`: the app's chat (and thread list), created outside the tree. */
export function chatContext(chat: Chat, threads?: Threads): Map<symbol, unknown> {
  const context = new Map<symbol, unknown>([[CHAT, chat]]);
  if (threads) context.set(THREADS, threads);
  return context;
}

/** Call in a component's setup, below a component that called {@link setChat}. */
export function getChat(): Chat {
  const chat = getContext<Chat | undefined>(CHAT);
  if (!chat) throw new Error("getChat() needs setChat() in an ancestor component.");
  return chat;
}

/** The thread list, or undefined when the app was mounted without one. */
export function getThreads(): Threads | undefined {
  return getContext<Threads | undefined>(THREADS);
}
