import type { JsonSchema } from "./types.ts";

/**
 * A small JSON-schema check for tool arguments: required keys, primitive
 * types, enums, and unknown keys when `additionalProperties` is false.
 * Returns a message for the model, or undefined when the arguments fit.
 */
export function validateArgs(schema: JsonSchema, args: unknown): string | undefined {
  if (typeof args !== "object" || args === null || Array.isArray(args)) {
    return "arguments must be a JSON object";
  }
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (schema.required ?? []) as string[];
  const problems: string[] = [];
  for (const key of required) {
    if (!(key in args) || (args as Record<string, unknown>)[key] === undefined) problems.push(`missing required argument '${key}'`);
  }
  for (const [key, value] of Object.entries(args)) {
    const prop = props[key];
    if (!prop) {
      if (schema.additionalProperties === false) {
        problems.push(`unknown argument '${key}' (valid: ${Object.keys(props).join(", ") || "none"})`);
      }
      continue;
    }
    if (value === undefined || value === null) continue;
    const problem = checkType(prop, value);
    if (problem) problems.push(`argument '${key}' ${problem}`);
  }
  return problems.length ? problems.join("; ") : undefined;
}

function checkType(prop: JsonSchema, value: unknown): string | undefined {
  const types = Array.isArray(prop.type) ? (prop.type as string[]) : prop.type ? [prop.type as string] : [];
  if (types.length && !types.some((t) => fits(t, value))) {
    return `must be of type ${types.join(" | ")}, got ${Array.isArray(value) ? "array" : typeof value}`;
  }
  const allowed = prop.enum as unknown[] | undefined;
  if (allowed && !allowed.includes(value)) return `must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}`;
  return undefined;
}

function fits(type: string, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return typeof value === "object" && value !== null && !Array.isArray(value);
    case "null":
      return value === null;
    default:
      return true;
  }
}
