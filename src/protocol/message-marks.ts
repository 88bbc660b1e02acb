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
