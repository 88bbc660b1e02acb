/**
 * The result type for expected failures. Functions that can fail in ways the
 * caller must handle return a {@link Result} instead of throwing; the error
 * side is plain data ({@link ErrorInfo} by default) so it crosses
 * postMessage unchanged.
 *
 * The one deliberate exception is the backend protocol (backends/protocol.ts),
 * which keeps deepagents' shape (`T | { error, message }`) so backends written
 * against deepagents' semantics carry over one to one.
 */
import type { ErrorInfo } from "./errors.ts";

export type Ok<T> = { readonly ok: true; readonly value: T };
export type Err<E = ErrorInfo> = { readonly ok: false; readonly error: E };
export type Result<T, E = ErrorInfo> = Ok<T> | Err<E>;

export function ok<T>(value: T): Ok<T> {
  return { ok: true, value };
}

export function err<E>(error: E): Err<E> {
  return { ok: false, error };
}

/** An {@link Err} with a coded {@link ErrorInfo}. */
export function fail<C extends string>(code: C, message: string, name = "Error"): Err<ErrorInfo & { code: C }> {
  return { ok: false, error: { name, code, message } };
}
