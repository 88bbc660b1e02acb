/**
 * The client's plain calls are complete by construction: PLAIN_CALLS is typed against the worker API, so a call
 * added to the API and not to the table (or a table entry that is no plain call) fails to compile (`tsc`, in
 * `npm run check`, checks the `@ts-expect-error` lines below); and the client forwards every one of them.
 */
import { expose } from "comlink";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { connectAgent, PLAIN_CALLS, type AgentClient, type PlainCalls } from "./client.ts";

describe("the client's plain calls", () => {
  it("are the worker calls that take no callback, by construction", () => {
    expectTypeOf<keyof typeof PLAIN_CALLS>().toEqualTypeOf<keyof PlainCalls>();

    // The API grows a call: the table, as it is, no longer compiles against it.
    type Grown = PlainCalls & { archiveThread(threadId: string): Promise<void> };
    // @ts-expect-error: archiveThread is missing from PLAIN_CALLS
    expectTypeOf(PLAIN_CALLS).toExtend<Record<keyof Grown, true>>();
    const table = <T extends Record<keyof PlainCalls, true>>(t: T) => t;
    const { ping: _ping, ...withoutPing } = PLAIN_CALLS;
    // @ts-expect-error: a table without ping does not compile
    table(withoutPing);
    // A callback call (it needs its callback proxied) is no plain call.
    // @ts-expect-error: startRun is not a plain call
    expectTypeOf<"startRun">().toExtend<keyof typeof PLAIN_CALLS>();
  });

  let close = () => {};
  afterEach(() => close());

  it("are each forwarded to the worker by the client", async () => {
    const { port1, port2 } = new MessageChannel();
    const api = Object.fromEntries(Object.keys(PLAIN_CALLS).map((name) => [name, async (...args: unknown[]) => [name, ...args]]));
    expose(api, port2);
    const client: AgentClient = connectAgent(Object.assign(port1, { terminate: () => port1.close() }) as unknown as Worker);
    close = () => (client.close(), port2.close());
    for (const name of Object.keys(PLAIN_CALLS) as (keyof PlainCalls)[]) {
      const call = client[name] as (...args: unknown[]) => Promise<unknown>;
      await expect(call("t1"), name).resolves.toEqual([name, "t1"]);
    }
  });
});
