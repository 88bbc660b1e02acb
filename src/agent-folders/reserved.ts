/**
 * The places in a thread's filesystem an agent's starter files may not aim at: a link agent only adds to its own
 * threads, so a starter file lands in the thread's own workspace, never in what every thread shares (the person's
 * `/memories/` and `/skills/`), nor where the harness, the person or the shell keep their own things.
 *
 * One table: the loader refuses a folder with a starter file here (load.ts), and seeding a thread refuses such a
 * path again (worker/threads/thread-agents.ts). The worker's layout test checks every shared route of the app's filesystem
 * is in it, so a new shared route cannot be forgotten.
 */
import { HISTORY_DIR } from "../context/history-file.ts";
import { LARGE_RESULTS_DIR } from "../context/result-files.ts";

/**
 * Where a thread gets the folder's skills: `skills/report/SKILL.md` → `/agent-skills/report/SKILL.md`, in that
 * thread's own workspace (the app's `/skills/` is shared by every thread, and an agent's skills are its threads' only).
 */
export const AGENT_SKILLS_DIR = "/agent-skills/";

/** A folder of the thread's filesystem that is not the agent's to fill, and whose it is. */
export interface ReservedPlace {
  /** The folder, with its trailing slash (`/memories/`). */
  prefix: string;
  /** Whose it is, for a person ("your memory, shared by every thread"). */
  why: string;
  /** True when the folder is shared by every thread (a route of the app's filesystem outside the thread's workspace). */
  shared: boolean;
}

/**
 * Every reserved place. `/uploads/` is the person's: an agent's file there would pose as something they attached.
 * `/tmp/` and `/dev/` are the offline shell's own (its scratch folder and devices, apart from the workspace), so a
 * starter file there is one commands never see.
 */
export const RESERVED_PLACES: readonly ReservedPlace[] = [
  { prefix: "/memories/", why: "your memory, shared by every thread", shared: true },
  { prefix: "/skills/", why: "your skills, shared by every thread", shared: true },
  {
    prefix: AGENT_SKILLS_DIR,
    why: "the thread's skills folder (an agent's skills go in skills/<name>/SKILL.md, where the review lists them)",
    shared: false,
  },
  { prefix: `${LARGE_RESULTS_DIR}/`, why: "where the harness keeps long tool results", shared: false },
  { prefix: `${HISTORY_DIR}/`, why: "where the harness keeps the conversation's summarized history", shared: false },
  { prefix: "/uploads/", why: "where your attachments go", shared: false },
  { prefix: "/tmp/", why: "the shell's scratch folder, which commands see apart from the workspace", shared: false },
  { prefix: "/dev/", why: "the shell's devices", shared: false },
];

/**
 * The reserved place a workspace path (`/memories/AGENTS.md`) is in, or is (`/memories`), or undefined. Compared
 * without regard to case, so `/Memories/` is refused on a filesystem that folds case.
 */
export function reservedPlace(path: string): ReservedPlace | undefined {
  const lower = path.toLowerCase();
  return RESERVED_PLACES.find(({ prefix }) => lower.startsWith(prefix) || lower === prefix.slice(0, -1));
}

/** Why a starter file may not land at `path` (`/memories/AGENTS.md`), as a problem's text; undefined when it may. */
export function reservedPathProblem(path: string): string | undefined {
  const place = reservedPlace(path);
  return place && `it would land in ${place.prefix} (${path}), ${place.why}: an agent's starter files go in its threads' own workspace`;
}
