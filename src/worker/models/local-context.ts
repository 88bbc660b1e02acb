/** Context tokens a model in the tab is loaded with when the choice does not say (engine.ts's DEFAULT_CONTEXT). */
export const DEFAULT_LOCAL_CONTEXT = 8_192;
