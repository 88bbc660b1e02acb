/**
 * Rendering Svelte components in browser tests (not used by the app): mount a component into a fresh div
 * (flushed, so the DOM is there when `render` returns), unmount everything mounted so far, and reactive props a
 * test can change after mounting (plain prop objects are not reactive). Every component test renders through
 * here: call `cleanupRendered` after each test.
 */
import { flushSync, mount, unmount, type Component } from "svelte";

const mounted: (() => void)[] = [];

/** `initial` as deeply reactive state; assign its fields to update a mounted component. */
export function reactiveProps<T extends object>(initial: T): T {
  const props = $state(initial);
  return props;
}

/** Where {@link render} mounts: a new div appended to `into` (default: document.body). */
export interface RenderOptions {
  into?: HTMLElement;
}

/** Mounts `component` with `props` into a new div (flushed); returns that div. */
export function render<P extends object, E extends object, B extends keyof P | "">(
  component: Component<P, E, B>,
  props: NoInfer<P>,
  { into = document.body }: RenderOptions = {},
): HTMLElement {
  const target = document.createElement("div");
  into.append(target);
  const instance = mount(component, { target, props });
  flushSync();
  mounted.push(() => {
    void unmount(instance);
    target.remove();
  });
  return target;
}

/** Unmounts and removes every component {@link render} mounted, last first. */
export function cleanupRendered(): void {
  for (const undo of mounted.splice(0).reverse()) undo();
}
