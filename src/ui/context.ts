/** Typed access to the app's state objects shared through Svelte context. */
import { getContext } from "svelte";
import type { AgentsState } from "./agents/state.svelte.ts";
import type { Chat } from "./chat/chat.svelte.ts";
import type { FilesState } from "./files/files.svelte.ts";
import type { RuntimeState } from "./runtime/runtime.svelte.ts";
import type { Servers } from "./runtime/servers.svelte.ts";
import type { SettingsState } from "./settings/settings.svelte.ts";
import type { Threads } from "./threads/threads.svelte.ts";

const APP = Symbol("deeptab.app");

/** Everything the app's components share, created outside the tree (main.ts). */
export interface AppState {
  chat: Chat;
  threads: Threads;
  settings: SettingsState;
  files: FilesState;
  /** The agents: gallery, reviews, the header's picker. */
  agents: AgentsState;
  /** Servers a WebContainer started (the preview pane). */
  servers: Servers;
  /** Settings → Runtime: this tab or a LangGraph server (unset: the tab only, as in component tests). */
  runtime?: RuntimeState;
}

/** The root context for `mount(App, { context })`. */
export function appContext(state: AppState): Map<symbol, unknown> {
  return new Map<symbol, unknown>([[APP, state]]);
}

/** Call in a component's setup, below the root. */
export function getApp(): AppState {
  const app = getContext<AppState | undefined>(APP);
  if (!app) throw new Error("getApp() needs the app context (appContext in mount).");
  return app;
}
