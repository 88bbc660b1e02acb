/**
 * Pure helpers of the settings and model manager: field checks (a problem
 * for the person, or null), and download figures as short text.
 */
import { formatBytes } from "../shared/errors.ts";
import type { DownloadError } from "../../protocol/errors.ts";
import type { DownloadProgress } from "../../protocol/settings.ts";

/**
 * The approval settings' labels. Commands (`execute`) can change files too
 * (`echo > f`, `rm`, `sed -i`): "Ask before changing files" does not cover
 * them, and its label says so.
 */
export const APPROVAL_LABELS = {
  approveExecute: "Ask before running commands",
  approveWrites:
    "Ask before changing files (write, edit, delete; shows a diff). Commands can change files too: only asking before commands covers them",
} as const;

/** The smallest context window the worker accepts (settings.ts sanitizes below it away). */
const MIN_WINDOW = 512;
const MAX_WINDOW = 100_000_000;

function httpUrl(text: string): URL | null {
  try {
    const url = new URL(text.trim());
    return url.protocol === "http:" || url.protocol === "https:" ? url : null;
  } catch {
    return null;
  }
}

/** A provider's base URL: an http(s) URL. */
export function checkBaseUrl(text: string): string | null {
  if (!text.trim()) return "Enter the server's base URL, e.g. http://localhost:11434/v1.";
  return httpUrl(text) ? null : "Enter a full http:// or https:// URL, e.g. http://localhost:11434/v1.";
}

/** Python's package source: an http(s) URL of a folder (a Pyodide distribution's, with its pyodide-lock.json). */
export function checkPackageSource(text: string): string | null {
  if (!text.trim()) return "Enter the package source's URL, e.g. Pyodide's CDN folder.";
  return httpUrl(text) ? null : "Enter a full https:// URL of a folder with a pyodide-lock.json.";
}

/** The context window field: empty (the model's default) or a whole number of tokens ≥ 512. */
export function checkContextWindow(text: string): string | null {
  const value = text.trim();
  if (!value) return null;
  if (!/^\d+$/.test(value)) return `Enter a whole number of tokens (at least ${MIN_WINDOW}).`;
  const n = Number(value);
  if (n < MIN_WINDOW) return `The context window must be at least ${MIN_WINDOW} tokens.`;
  if (n > MAX_WINDOW) return "That is larger than any model's context window.";
  return null;
}

/** The window a valid field holds, or undefined when it is empty. */
export function parseContextWindow(text: string): number | undefined {
  const value = text.trim();
  return value && checkContextWindow(value) === null ? Number(value) : undefined;
}

/** A GGUF download URL: http(s), a path ending in .gguf. */
export function checkGgufUrl(text: string): string | null {
  if (!text.trim()) return "Paste the URL of a .gguf file.";
  const url = httpUrl(text);
  if (!url) return "Enter a full https:// URL of a .gguf file.";
  if (!url.pathname.toLowerCase().endsWith(".gguf")) return "The URL must point to a .gguf file (…/model-Q4_K_M.gguf).";
  return null;
}

/** Seconds as "45 s", "3 min 20 s", "1 h 5 min". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}

/** "120.0 MB of 469.0 MB · 5.2 MB/s · 1 min 10 s left". */
export function describeProgress(p: DownloadProgress): string {
  const parts = [p.total !== undefined ? `${formatBytes(p.loaded)} of ${formatBytes(p.total)}` : formatBytes(p.loaded)];
  if (p.bytesPerSecond > 0) parts.push(`${formatBytes(p.bytesPerSecond)}/s`);
  if (p.etaSeconds !== undefined && Number.isFinite(p.etaSeconds)) parts.push(`${formatDuration(p.etaSeconds)} left`);
  return parts.join(" · ");
}

/** A headline for a failed download; the error's own message gives the details. */
export function downloadErrorTitle(error: DownloadError): string {
  switch (error.code) {
    case "cancelled":
      return "Cancelled. Resume continues from what is already on disk.";
    case "quota":
      return "Not enough storage for this model.";
    case "too_large":
      return "A file of this model is too large for the in-tab engine.";
    case "network":
      return "The download could not reach the server (offline, or the server does not allow browser downloads: CORS).";
    case "http":
      return "The server refused the download.";
    case "storage":
      return "The browser's storage failed.";
    case "invalid":
      return "This is not a model the app can download.";
  }
}
