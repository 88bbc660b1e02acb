/**
 * Server probes asked once per server and model per session and remembered
 * in a real IndexedDBStore (fake-indexeddb): the probe is a function these
 * tests answer when they choose, so "answered without waiting" is an order
 * of events, not a timing.
 */
import "fake-indexeddb/auto";
import { describe, expect, it, vi } from "vitest";
import type { ModelChoice, ServerProbe, ServerWindow } from "../../models/providers.ts";
import { IndexedDBStore } from "../../storage/indexeddb-store.ts";
import { WAIT } from "../../testing/wait.ts";
import { createServerProbes, SERVERS_NS } from "./server-probes.ts";

const choice: ModelChoice = { provider: "openai-compatible", baseUrl: "http://127.0.0.1:9/v1", model: "qwen" };
const loaded = (tokens: number): ServerWindow => ({ tokens, source: "loaded" });

/** A probe whose answers the test gives: each call waits for `answer`. */
function heldProbe() {
  const pending: Array<(probe: ServerProbe) => void> = [];
  const probe = vi.fn((_choice: ModelChoice) => new Promise<ServerProbe>((resolve) => pending.push(resolve)));
  return { probe, answer: (found: ServerProbe) => pending.shift()!(found), pending };
}

const newStore = () => new IndexedDBStore({ dbName: `probes-${crypto.randomUUID()}` });

describe("server probes", () => {
  it("asks a server once per session, however many lookups come at once, and remembers its answer", async () => {
    const store = newStore();
    const { probe, answer } = heldProbe();
    const probes = createServerProbes(probe, store);
    const lookups = [probes.window(choice), probes.window(choice), probes.window({ ...choice })];
    await vi.waitFor(() => expect(probe).toHaveBeenCalledTimes(1), WAIT);
    answer({ window: loaded(4_096), answered: true });
    expect(await Promise.all(lookups)).toEqual([loaded(4_096), loaded(4_096), loaded(4_096)]);
    expect(await probes.window(choice)).toEqual(loaded(4_096));
    expect(probe).toHaveBeenCalledTimes(1);
    expect((await store.get(SERVERS_NS, `${choice.baseUrl}|qwen`))?.value).toMatchObject({ window: loaded(4_096) });
    // Another model of the same server is another question.
    void probes.window({ ...choice, model: "llama" });
    await vi.waitFor(() => expect(probe).toHaveBeenCalledTimes(2), WAIT);
  });

  it("a later session answers from memory while its own probe is still out, then uses and remembers the new answer", async () => {
    const store = newStore();
    const first = heldProbe();
    const lookup = createServerProbes(first.probe, store).window(choice);
    await vi.waitFor(() => expect(first.pending).toHaveLength(1), WAIT);
    first.answer({ window: loaded(4_096), answered: true });
    await lookup;

    const second = heldProbe();
    const session = createServerProbes(second.probe, store);
    // The remembered 4,096 comes back although the server has not answered this session's probe.
    expect(await session.window(choice)).toEqual(loaded(4_096));
    expect(second.probe).toHaveBeenCalledTimes(1);
    expect(second.pending).toHaveLength(1);
    // The server now says 2,048: the rest of the session and the next one use it.
    second.answer({ window: loaded(2_048), answered: true });
    await vi.waitFor(async () => expect(await session.window(choice)).toEqual(loaded(2_048)), WAIT);
    expect(second.probe).toHaveBeenCalledTimes(1);
    await vi.waitFor(
      async () => expect((await store.get(SERVERS_NS, `${choice.baseUrl}|qwen`))?.value).toMatchObject({ window: loaded(2_048) }),
      WAIT,
    );
    const third = heldProbe();
    expect(await createServerProbes(third.probe, store).window(choice)).toEqual(loaded(2_048));
  });

  it("remembers a server that answers without telling, keeps the memory when a server is down, and forgets on clear", async () => {
    const store = newStore();
    const silent = vi.fn(async (): Promise<ServerProbe> => ({ window: undefined, answered: true }));
    expect(await createServerProbes(silent, store).window(choice)).toBeUndefined();
    expect((await store.get(SERVERS_NS, `${choice.baseUrl}|qwen`))?.value).toMatchObject({ window: null });

    const told = vi.fn(async (): Promise<ServerProbe> => ({ window: loaded(8_192), answered: true }));
    const session = createServerProbes(told, store);
    // "Does not tell" was remembered: no wait; the background probe then finds 8,192.
    expect(await session.window(choice)).toBeUndefined();
    await vi.waitFor(async () => expect(await session.window(choice)).toEqual(loaded(8_192)), WAIT);

    const down = vi.fn(async (): Promise<ServerProbe> => ({ window: undefined, answered: false }));
    const offline = createServerProbes(down, store);
    expect(await offline.window(choice)).toEqual(loaded(8_192));
    await vi.waitFor(() => expect(down).toHaveBeenCalledTimes(1), WAIT);
    expect(await offline.window(choice)).toEqual(loaded(8_192));
    expect((await store.get(SERVERS_NS, `${choice.baseUrl}|qwen`))?.value).toMatchObject({ window: loaded(8_192) });

    await offline.clear();
    expect(await store.get(SERVERS_NS, `${choice.baseUrl}|qwen`)).toBeNull();
    expect(await offline.window(choice)).toBeUndefined();
    expect(down).toHaveBeenCalledTimes(2);
  });

  it("asks nothing for a provider that is not an OpenAI-compatible server, and works without a store", async () => {
    const probe = vi.fn(async (): Promise<ServerProbe> => ({ window: loaded(4_096), answered: true }));
    const probes = createServerProbes(probe);
    expect(await probes.window({ provider: "openai", model: "gpt-4.1" })).toBeUndefined();
    expect(await probes.window({ provider: "openai-compatible", model: "x" })).toBeUndefined();
    expect(probe).not.toHaveBeenCalled();
    expect(await probes.window(choice)).toEqual(loaded(4_096));
    expect(await probes.window(choice)).toEqual(loaded(4_096));
    expect(probe).toHaveBeenCalledTimes(1);
  });
});
