/**
 * The marks deeptab puts in a message's `response_metadata`, in a module of their own with no imports: the page's
 * LangGraph client (loaded on demand) writes and reads them without LangChain's message classes.
 */

/**
 * `response_metadata` key of an AI message the user stopped (its text is what had arrived), or of the
 * result of a call the user stopped (its text is for the model).
 */
export const STOPPED_KEY = "deeptab_stopped";

/** `response_metadata` key of an AI message cut off by a failure (a dropped connection): its text is what had arrived. */
export const CUT_OFF_KEY = "deeptab_cut_off";

/**
 * `additional_kwargs` key of a user message whose turn replays a recorded demo: the demo's `ReplayInfo` (file, title,
 * model, recordedBy, recordedAt, scripted), which becomes `MessageInfo.replay` on the page.
 */
export const REPLAY_KEY = "deeptab_replay";
