/**
 * An agent's path rules (agent.yaml `permissions`) beside a sandbox that runs commands. deepagents refuses path rules
 * on a backend that executes, since a command can reach any path. deeptab keeps them for an agent folder, because
 * every command of such an agent waits for the person's approval (buildAgent forces `execute` approval on, whatever
 * the settings or the agent say): the file tools obey the rules, and a command that could bypass them is seen and
 * approved (or not) first. This wrapper tells the permission check so, and nothing else changes.
 */
import { resolveBackend, type BackendFactory, type BackendOption } from "../backends/runtime.ts";

/** `factory`'s backends, declaring every path reachable only through approved commands. */
export function approvedCommands(factory: BackendOption): BackendFactory {
  return (rt) => {
    const inner = resolveBackend(factory, rt);
    return new Proxy(inner, {
      get(target, key) {
        if (key === "isolatedRoutes") return ["/"];
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
}
