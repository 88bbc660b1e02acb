/**
 * Test support for the component browser tests (not used by the app):
 * mount a component into a fresh div in document.body, unmount everything
 * mounted so far, and reactive props a test can change after mounting
 * (plain prop objects are not reactive).
 */
import { flushSync, mount, unmount, type Component } from "svelte";

const mounted: (() => void)[] = [];

/** `initial` as deeply reactive state; assign its fields to update a mounted component. */
export function reactiveProps<T extends object>(initial: T): T {
  const props = $state(initial);
  return props;
}

/** Mounts `component` with `props` into a new div in document.body (flushed); returns that div. */
export function render<P extends object, E extends object, B extends keyof P | "">(
  component: Component<P, E, B>,
  props: NoInfer<P>,
): HTMLElement {
  const target = document.createElement("div");
  document.body.append(target);
  const instance = mount(component, { target, props });
  flushSync();
  mounted.push(() => {
    void unmount(instance);
    target.remove();
  });
  return target;
}

/** Unmounts and removes every component {@link render} mounted. */
export function cleanupRendered(): void {
  for (const undo of mounted.splice(0).reverse()) undo();
}
