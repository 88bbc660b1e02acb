/**
 * Typed middleware state fields. A middleware declares each field once:
 *
 *   const TODOS = defineStateField<Todo[]>("todos", { default: () => [] });
 *   ... stateSchema: stateSchema(TODOS), ... TODOS.get(state), TODOS.set(todos)
 *
 * so reads are typed where the field is declared and nothing casts
 * `state.todos as Todo[]`.
 */
import type { AgentState, StateField, StateUpdate } from "./types.ts";

/** A declared field: its value type `T`, and `U` for its updates (when a reducer merges them). */
export interface StateKey<T, U = T> {
  readonly key: string;
  readonly field: StateField<T, U>;
  /** The field's value in `state` (its default when the state has none). */
  get(state: Readonly<AgentState>): T;
  /** A state update writing `value` (merged by the field's reducer). */
  set(value: U): StateUpdate;
}

export function defineStateField<T, U = T>(key: string, field: StateField<T, U>): StateKey<T, U> {
  return {
    key,
    field,
    get: (state) => (key in state ? (state[key] as T) : field.default()),
    set: (value) => ({ [key]: value }),
  };
}

/** What a schema holds of a key: the field, its types erased (the key keeps them). */
interface AnyKey {
  readonly key: string;
  readonly field: { reducer?(current: never, update: never): unknown; default(): unknown; private?: boolean };
}

/** A middleware's `stateSchema` from its keys. */
export function stateSchema(...keys: readonly AnyKey[]): Record<string, StateField> {
  const out: Record<string, StateField> = {};
  for (const { key, field } of keys) out[key] = field as StateField;
  return out;
}
