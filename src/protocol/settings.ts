/**
 * Settings, keys, sandboxes and models as the page sees and edits them, and the request log's entries.
 */
import type { SandboxKind } from "../agent/deeptab-prompt.ts";
import { PYODIDE_CDN } from "../backends/sandbox/pyodide-release.ts";
import type { ModelChoice, ProviderId } from "../models/providers.ts";
import type { CachedModel, DownloadProgress, ModelSource } from "../models/wllama/model-store.ts";

export type { CachedModel, DownloadProgress, ModelChoice, ModelSource, ProviderId, SandboxKind };

export type SandboxChoice = SandboxKind | "auto";

export interface SandboxStatus {
  choice: SandboxChoice;
  /** The sandbox commands run in now. */
  active: SandboxKind;
  /** Why it is the active one ("no WebContainer: boot did not finish within 20 s …"). */
  reason: string;
  webcontainer: "unavailable" | "booting" | "ready";
}

export interface Settings {
  /** The model of new threads. */
  defaultModel: ModelChoice;
  sandbox: SandboxChoice;
  /** Ask before `execute` (on by default). */
  approveExecute: boolean;
  /** Ask before `write_file`, `edit_file` and `delete` (off by default; the dialog shows a diff). */
  approveWrites: boolean;
  /** Tool descriptions: chosen by the model's window (`auto`, the default), deepagents' full texts, or the compact ones. */
  toolProfile: ToolProfileChoice;
  /**
   * The harness profile of every thread (deepagentsjs' profiles: prompt additions, tool texts, exclusions): `auto`
   * (the default) picks it by the thread's provider and model; a registered key forces that one, over an agent
   * folder's own `harness_profile` (the person's choice wins, as for the tool descriptions).
   */
  harnessProfile: string;
  /**
   * Where python3 gets packages beyond the standard library: "" (the default: none, the standard library offline) or
   * the URL of a package source, a folder of a Pyodide distribution such as Pyodide's CDN (PYTHON_PACKAGES_CDN), a
   * third party the person chooses by switching it on.
   */
  pythonPackages: string;
}

/** Pyodide's CDN folder for the site's Pyodide: the package source the setting offers. */
export const PYTHON_PACKAGES_CDN = PYODIDE_CDN;

/** `auto`: compact below 16,384 tokens of window (COMPACT_PROFILE_BELOW), else full (`default`). */
export type ToolProfileChoice = "auto" | "default" | "compact";

export interface KeyStatus {
  provider: ProviderId;
  set: boolean;
  remembered: boolean;
  /** The origin the key is sent to (the endpoint it was entered with); a model on any other origin gets no key. */
  origin?: string;
  /** A key was set for an earlier session only (before a reload) and is gone: it has to be entered again. */
  notKept?: boolean;
}

/** One request the worker made to a model provider, a download host, an MCP server or a page (the request log). */
export interface RequestLogEntry {
  at: string;
  method: string;
  host: string;
  path: string;
  status?: number;
  /** The browser followed a redirect from here (the next entry is where it ended). */
  redirected?: boolean;
}
