/**
 * YAML for agent folders (agent.yaml, the frontmatter of subagents and skills), parsed with the `yaml` package's
 * core schema, as deepagents reads SKILL.md. Beyond the plain parse, it keeps where every value is, so a problem with
 * a field can name its line in the file; and it treats the parser's warnings (an unknown `!!tag`) as errors, since
 * a tag deeptab cannot read would otherwise turn silently into a string.
 */
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from "yaml";
import { err, ok, type Result } from "../core/result.ts";

/** A parsed YAML text and where its values are. */
export interface LocatedYaml {
  data: unknown;
  /** The 1-based file line of the value (or, for a mapping key, the key) at `path`; the nearest found ancestor's otherwise. */
  lineOf(path: ReadonlyArray<PropertyKey>): number | undefined;
}

/** Why YAML did not parse: the parser's first line of text and the file line. */
export interface YamlProblem {
  message: string;
  line?: number;
}

/** Parses `text`, which starts at line `firstLine` of its file (2 for frontmatter after the opening `---`). */
export function parseLocatedYaml(text: string, firstLine = 1): Result<LocatedYaml, YamlProblem> {
  const counter = new LineCounter();
  const doc = parseDocument(text, { lineCounter: counter, prettyErrors: true, uniqueKeys: true });
  const fileLine = (offset: number) => counter.linePos(offset).line + firstLine - 1;
  const first = doc.errors[0] ?? doc.warnings[0];
  if (first) {
    const message = first.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
    return err({ message, line: fileLine(first.pos[0]) });
  }
  let data: unknown;
  try {
    data = doc.toJS({ maxAliasCount: 100 });
  } catch (cause) {
    return err({ message: cause instanceof Error ? cause.message : String(cause) });
  }
  return ok({
    data,
    lineOf(path) {
      let node: unknown = doc.contents;
      let line = node && (node as Node).range ? fileLine((node as Node).range![0]) : undefined;
      for (const key of path) {
        if (isMap(node)) {
          const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === key);
          if (!pair) break;
          const keyNode = pair.key as Node | null;
          if (keyNode?.range) line = fileLine(keyNode.range[0]);
          node = pair.value;
        } else if (isSeq(node) && typeof key === "number") {
          node = node.items[key];
          if ((node as Node | undefined)?.range) line = fileLine((node as Node).range![0]);
        } else break;
      }
      return line;
    },
  });
}
