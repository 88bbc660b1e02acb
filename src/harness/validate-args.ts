/**
 * Tool-argument validation with the JSON-schema validator `@langchain/core`
 * ships (`@cfworker/json-schema`), reported in words a model can act on:
 * "missing required argument 'file_path'", "unknown argument 'path' (valid:
 * …)", "argument 'limit' must be of type integer, got number".
 *
 * `null` for an optional argument whose schema does not allow null is read as
 * "not given" (small models often send it); for a required one it is an error.
 */
import { Validator } from "@langchain/core/utils/json_schema";
import { err, ok, type Result } from "../core/result.ts";
import type { JsonSchema } from "./types.ts";
import { isRecord } from "../core/is-record.ts";

/** Validated arguments (optional nulls removed), or what is wrong with them. */
export type ArgsCheck = Result<Record<string, unknown>, string>;

interface OutputUnit {
  keyword: string;
  keywordLocation: string;
  instanceLocation: string;
  error: string;
}

const validators = new WeakMap<JsonSchema, Validator>();

function validatorFor(schema: JsonSchema): Validator {
  let v = validators.get(schema);
  if (!v) {
    v = new Validator(schema as ConstructorParameters<typeof Validator>[0], "2020-12", false);
    validators.set(schema, v);
  }
  return v;
}

function allowsNull(prop: unknown): boolean {
  if (!isRecord(prop)) return true;
  const type = prop.type;
  if (type === undefined) return !prop.enum || (prop.enum as unknown[]).includes(null);
  return type === "null" || (Array.isArray(type) && type.includes("null"));
}

/** `#/todos/0/content` → `todos[0].content`. */
function argName(pointer: string): string {
  const parts = pointer
    .replace(/^#\/?/, "")
    .split("/")
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  let out = "";
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p;
  return out;
}

/** The schema at a keyword location such as `#/properties/todos/items/additionalProperties`, minus its last step. */
function schemaAt(schema: JsonSchema, keywordLocation: string): unknown {
  const parts = keywordLocation.replace(/^#\/?/, "").split("/").filter(Boolean).slice(0, -1);
  let node: unknown = schema;
  for (const p of parts) node = isRecord(node) || Array.isArray(node) ? (node as Record<string, unknown>)[p] : undefined;
  return node;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number" && Number.isInteger(value)) return "integer";
  return typeof value;
}

function valueAt(args: unknown, pointer: string): unknown {
  let node = args;
  for (const p of pointer.replace(/^#\/?/, "").split("/").filter(Boolean))
    node = isRecord(node) || Array.isArray(node) ? (node as Record<string, unknown>)[p] : undefined;
  return node;
}

function describe(unit: OutputUnit, schema: JsonSchema, args: unknown): string | undefined {
  const where = argName(unit.instanceLocation);
  switch (unit.keyword) {
    case "properties":
    case "items":
    case "prefixItems":
    case "false":
    case "allOf":
    case "$ref":
      return undefined;
    case "required": {
      const missing = /"(.*)"/.exec(unit.error)?.[1] ?? "?";
      return `missing required argument '${where ? `${where}.${missing}` : missing}'`;
    }
    case "additionalProperties": {
      const extra = /"(.*)"/.exec(unit.error)?.[1] ?? "?";
      const owner = schemaAt(schema, unit.keywordLocation);
      const valid = isRecord(owner) && isRecord(owner.properties) ? Object.keys(owner.properties).join(", ") : "";
      return `unknown argument '${where ? `${where}.${extra}` : extra}' (valid: ${valid || "none"})`;
    }
    case "type": {
      const owner = schemaAt(schema, unit.keywordLocation);
      const expected = isRecord(owner) ? owner.type : undefined;
      const types = Array.isArray(expected) ? expected.join(" | ") : String(expected);
      return `argument '${where}' must be of type ${types}, got ${typeOf(valueAt(args, unit.instanceLocation))}`;
    }
    case "enum": {
      const owner = schemaAt(schema, unit.keywordLocation);
      const allowed = isRecord(owner) && Array.isArray(owner.enum) ? owner.enum : [];
      return `argument '${where}' must be one of ${allowed.map((v) => JSON.stringify(v)).join(", ")}`;
    }
    default:
      return `argument '${where || "(arguments)"}': ${unit.error.replace(/^Instance /, "")}`;
  }
}

/** Checks `args` against the tool's JSON schema. */
export function checkArgs(schema: JsonSchema, args: unknown): ArgsCheck {
  if (!isRecord(args)) return err(`arguments must be a JSON object, got ${typeOf(args)}`);
  const props = isRecord(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  let cleaned = args;
  for (const [key, value] of Object.entries(args)) {
    if (value === null && !required.has(key) && key in props && !allowsNull(props[key])) {
      if (cleaned === args) cleaned = { ...args };
      delete cleaned[key];
    }
  }
  const result = validatorFor(schema).validate(cleaned);
  if (result.valid) return ok(cleaned);
  const problems = [...new Set(result.errors.map((u) => describe(u as OutputUnit, schema, cleaned)).filter((p): p is string => !!p))];
  return err(problems.join("; ") || "arguments do not match the tool's schema");
}
