/**
 * The app's filesystem layout against the agent folders' reserved places: every route of the composite that is not
 * the thread's own workspace is a place no starter file may aim at, so a shared route added to the layout without
 * the table fails here.
 */
import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { RESERVED_PLACES, reservedPlace } from "../agent-folders/reserved.ts";
import { CompositeBackend } from "../backends/composite.ts";
import { createBackendRuntime, resolveBackend } from "../backends/runtime.ts";
import { UPLOADS_DIR } from "./threads/files.ts";
import { createLayout, SHARED_ROUTES } from "./layout.ts";

describe("the layout's routes and the reserved places", () => {
  it("every route of the composite outside the thread's workspace is a shared reserved place", () => {
    const layout = createLayout(`layout-routes-${Math.random()}`);
    const fs = resolveBackend(layout.backend(layout.workspace), createBackendRuntime({}, { configurable: { thread_id: "t" } }));
    expect(fs).toBeInstanceOf(CompositeBackend);
    const routes = (fs as CompositeBackend).isolatedRoutes;
    expect([...routes].sort()).toEqual([...SHARED_ROUTES].sort());
    for (const route of routes) expect(reservedPlace(`${route}AGENTS.md`), route).toMatchObject({ prefix: route, shared: true });
    expect(
      RESERVED_PLACES.filter((p) => p.shared)
        .map((p) => p.prefix)
        .sort(),
    ).toEqual([...routes].sort());
  });

  it("the person's uploads folder is reserved too", () => {
    expect(reservedPlace(`${UPLOADS_DIR}/invoice.pdf`)).toMatchObject({ prefix: `${UPLOADS_DIR}/`, shared: false });
  });
});
