import { toErrorInfo } from "../../core/errors.ts";

/**
 * Runs a worker call for a state class: its value, or undefined when it throws (the worker itself is broken), with
 * `setError` told the failure's message, or null once a call succeeds.
 */
export async function guarded<T>(call: () => Promise<T>, setError: (message: string | null) => void): Promise<T | undefined> {
  try {
    const value = await call();
    setError(null);
    return value;
  } catch (cause) {
    setError(toErrorInfo(cause).message);
    return undefined;
  }
}
