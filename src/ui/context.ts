/** Typed access to the chat shared through Svelte context. */
import { getContext, setContext } from "svelte";
import type { Chat } from "./chat.svelte.ts";

const CHAT = Symbol("deeptab.chat");

/** Call in a component's setup to share a chat with its children. */
export function setChat(chat: Chat): Chat {
  return setContext(CHAT, chat);
}

/** The root context for `mount(App, { context })`: the app's chat, created outside the tree. */
export function chatContext(chat: Chat): Map<symbol, unknown> {
  return new Map<symbol, unknown>([[CHAT, chat]]);
}

/** Call in a component's setup, below a component that called {@link setChat}. */
export function getChat(): Chat {
  const chat = getContext<Chat | undefined>(CHAT);
  if (!chat) throw new Error("getChat() needs setChat() in an ancestor component.");
  return chat;
}
