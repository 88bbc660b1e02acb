/** Replaces this scope's `indexedDB` with a factory whose `open()` throws, as a browser that denies storage does. */
const refusing: Pick<IDBFactory, "open"> = {
  open: () => {
    throw new DOMException("The user denied permission to access the database.", "SecurityError");
  },
};
Object.defineProperty(self, "indexedDB", { value: refusing, configurable: true });
