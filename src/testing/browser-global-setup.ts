/**
 * Vitest global setup of the browser project (runs in Node): the loopback
 * servers browser tests talk to, their URLs handed over with `provide`.
 */
import type { TestProject } from "vitest/node";
import { makeTinyGguf } from "./gguf.ts";
import { startModelServer, type ModelServer } from "./model-server.ts";

declare module "vitest" {
  export interface ProvidedContext {
    modelServer: string;
  }
}

let server: ModelServer | undefined;

export async function setup(project: TestProject): Promise<void> {
  server = await startModelServer({
    "tiny.gguf": makeTinyGguf({ eagerToolCalls: true }),
    "plain.gguf": makeTinyGguf(),
    // A whole agent turn: a tool call for the user's message, then "Done." after the tool result.
    "agent.gguf": makeTinyGguf({ eagerToolCalls: true, answerAfterToolResult: "Done.", contextLength: 16_384 }),
  });
  project.provide("modelServer", server.url);
}

export async function teardown(): Promise<void> {
  await server?.close();
}
