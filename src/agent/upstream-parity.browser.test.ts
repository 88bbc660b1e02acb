/** deepagentsjs file-tool parity in Chromium, on real IndexedDB: the Node table (upstream-parity.test.ts) runs here too. */
import "./upstream-parity.test.ts";
