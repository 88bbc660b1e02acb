/**
 * An agent never carries a key: whoever opens it enters their own, and a folder shared by link must not hand
 * anyone a secret (nor ask deeptab to send one anywhere). agent.yaml and frontmatter are searched for fields named
 * like secrets (`api_key`, `token`, `password`, `headers: { Authorization: … }` values) and for values shaped like
 * keys of the common providers, and each is refused where it is.
 */

/** Field names (letters and digits only, lower case) that hold secrets. */
const SECRET_NAMES = new Set([
  "key",
  "apikey",
  "secret",
  "token",
  "password",
  "passwd",
  "authorization",
  "bearer",
  "credential",
  "credentials",
]);
/** Endings of field names that hold secrets (`openai_api_key`, `client_secret`, `auth_token`). */
const SECRET_ENDINGS = ["apikey", "secret", "token", "password", "privatekey", "credentials", "accesskey"];

/** Shapes of keys and tokens (OpenAI and Anthropic, Bearer headers, GitHub, AWS, Google, Slack, Hugging Face). */
const KEY_SHAPES: ReadonlyArray<[RegExp, string]> = [
  [/\bsk-[A-Za-z0-9_-]{16,}/, "an API key (sk-…)"],
  [/\bBearer\s+[A-Za-z0-9._~+/=-]{12,}/i, "a Bearer token"],
  [/\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})/, "a GitHub token"],
  [/\bAKIA[0-9A-Z]{16}\b/, "an AWS access key"],
  [/\bAIza[0-9A-Za-z_-]{35}\b/, "a Google API key"],
  [/\bxox[abprs]-[A-Za-z0-9-]{10,}/, "a Slack token"],
  [/\bhf_[A-Za-z0-9]{30,}/, "a Hugging Face token"],
];

/** Why a key is refused, for messages. */
export const NO_KEYS = "an agent never carries a key (each person enters their own in Settings)";

/** Is a field of this name meant for a secret? */
function isSecretName(name: string): boolean {
  const folded = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  return SECRET_NAMES.has(folded) || SECRET_ENDINGS.some((end) => folded.endsWith(end));
}

/** What kind of key a text holds, or undefined. */
export function keyShape(text: string): string | undefined {
  return KEY_SHAPES.find(([shape]) => shape.test(text))?.[1];
}

/** A secret found in parsed YAML: where (the path of keys) and what. */
export interface FoundSecret {
  path: Array<string | number>;
  what: string;
}

/** Every field named like a secret and every key-shaped string in a parsed YAML value. */
export function findSecrets(value: unknown, path: Array<string | number> = []): FoundSecret[] {
  if (typeof value === "string") {
    const shape = keyShape(value);
    return shape ? [{ path, what: `${shape}; ${NO_KEYS}` }] : [];
  }
  if (Array.isArray(value)) return value.flatMap((item, i) => findSecrets(item, [...path, i]));
  if (typeof value !== "object" || value === null) return [];
  const found: FoundSecret[] = [];
  for (const [key, item] of Object.entries(value)) {
    if (isSecretName(key) && item !== null && item !== "" && typeof item !== "boolean") {
      found.push({
        path: [...path, key],
        what: `'${key}' looks like a key; ${NO_KEYS}`,
      });
    } else found.push(...findSecrets(item, [...path, key]));
  }
  return found;
}
