/** Storage faults in Chromium on real IndexedDB: the Node cases (storage-faults.test.ts) run here too. */
import "./storage-faults.test.ts";
