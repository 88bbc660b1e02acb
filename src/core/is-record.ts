/** A plain object's shape (not null, not an array): what JSON parsing, a checkpoint or an interrupt value may hold. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
