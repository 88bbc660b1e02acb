/**
 * The one error shape of the protocol: an expected failure is a value, a `Result` whose error is an `ErrorInfo`
 * (core/errors.ts) with a `code` from the call's documented set, and a message written for people. Every call's codes
 * are here. A rejected call means the worker itself is broken.
 */
import type { AgentProblem } from "../agent-folders/problems.ts";
import type { BackendErrorCode } from "../backends/protocol.ts";
import type { ErrorInfo } from "../core/errors.ts";
import type { Result } from "../core/result.ts";
import type { DownloadError } from "../models/wllama/model-store.ts";

export type { DownloadError, ErrorInfo };

export type StartErrorCode =
  | "thread_busy"
  | "empty_input"
  | "not_paused"
  | "model_unavailable"
  | "not_interrupted"
  | "not_found"
  | "awaiting_approval"
  | "invalid_decision"
  /** The approval a decision was given for is no longer the one waiting. */
  | "approval_changed"
  | "attachment_failed"
  /** The model needs a key this worker does not hold (one for a past session only, or none given): ask for it. */
  | "key_missing"

  /** The thread's stored history cannot be read as messages (a crafted import, a damaged record). */
  | "broken_thread"
  /** Runtime "LangGraph server" (langgraph-runtime.ts): the server's refusals, and what that runtime cannot do yet. */
  | LangGraphErrorCode
  | "not_supported";
export type StartResult = Result<string, ErrorInfo & { code: StartErrorCode }>;

/**
 * Why a steering call failed (steer, editQueued, withdrawQueued; worker-api.ts):
 * - `not_running`: no run of the thread goes on in this tab (send the message as a new turn);
 * - `thread_busy`: another tab runs the thread (steer it there);
 * - `already_taken`: the run took the message meanwhile (it is in the conversation now);
 * - `empty_input`: the text is empty;
 * - `not_supported`: this runtime cannot edit that message.
 */
export type SteerErrorCode = "not_running" | "thread_busy" | "already_taken" | "empty_input" | "not_supported";
export type SteerResult<T> = Result<T, ErrorInfo & { code: SteerErrorCode }>;

/**
 * Why a file call failed (readFile, fileBytes, writeFile, deleteFile): the
 * backend's own codes (backends/protocol.ts), chiefly `file_not_found`,
 * `is_directory`, `invalid_path`, `permission_denied` (a permission rule)
 * and `not_supported` (the thread's filesystem cannot read, write or
 * delete).
 */
export type FileErrorCode = BackendErrorCode;
export type FileError = ErrorInfo & { code: FileErrorCode };
export type FileResult<T> = Result<T, FileError>;

export type ThreadErrorCode =
  "invalid_export" | "invalid_copy" | "not_found" | "thread_busy" | "unavailable" | "quota_exceeded" | "storage_failed";
export type ThreadResult<T> = Result<T, ErrorInfo & { code: ThreadErrorCode }>;

/**
 * Why an agent call failed:
 * - `invalid_agent`: the files are not a valid agent; `problems` lists every one, each naming its file and field;
 * - `fetch_failed`: the link could not be fetched (the message says why: no CORS headers on the host, which must
 *   allow this page's origin; a 404; the network);
 * - `too_large`: the download is larger than an agent may be (agent-folders/limits.ts);
 * - `not_found`: no agent (or no pending review) with that id;
 * - `in_use`: a stored agent that threads still use cannot be removed;
 * - `storage_failed`: IndexedDB refused the write (quota); nothing was stored;
 * - `thread_started`: `setThreadAgent` on a thread that has messages (its agent is fixed by its first message);
 * - `unchanged`: `saveAgentEdit` with changes that leave every file as it was (no new version);
 * - `file_exists`: `setThreadAgent` where the thread already has a file of its own at a starter file's path (an
 *   agent's files never replace the person's; the message names each one, and nothing was written).
 * - `not_recorded`: `saveDemo` on a thread whose turns on the branch shown were not all recorded (run before
 *   recording, on a LangGraph server, or a branch whose run was replaced): the message says which turn;
 * - `thread_busy`: `saveDemo` while a run works on the thread (save it when the run ends).
 */
export type AgentErrorCode =
  | "invalid_agent"
  | "fetch_failed"
  | "too_large"
  | "not_found"
  | "in_use"
  | "storage_failed"
  | "thread_started"
  | "unchanged"
  | "file_exists"
  | "not_recorded"
  | "thread_busy";
export type AgentError = ErrorInfo & { code: AgentErrorCode; problems?: AgentProblem[] };
export type AgentResult<T> = Result<T, AgentError>;

/** Why a call to a LangGraph server failed (page/langgraph-client.ts); runs started there answer with these too. */
export type LangGraphErrorCode =
  "invalid_url" | "unreachable" | "cors" | "unauthorized" | "not_found" | "busy" | "approval_changed" | "server_error" | "run_failed";
export type LangGraphError = ErrorInfo & { code: LangGraphErrorCode };

/**
 * Why dropped files cannot be used (useLocalFile): `not_gguf` (no .gguf file among them), `too_large` (a file over
 * 2 GB, more than llama.cpp in the browser reads).
 */
export type LocalFileErrorCode = "not_gguf" | "too_large";
export type LocalFileError = ErrorInfo & { code: LocalFileErrorCode };
