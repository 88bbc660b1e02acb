/**
 * The promises of issue 21 in Chromium: the Node tables of approvals
 * (hostile-approvals.test.ts), permissions (hostile-permissions.test.ts),
 * secrets (hostile-secrets.test.ts, on real IndexedDB) and offloading under
 * hostile call ids (hostile-ids.test.ts) run in the page.
 */
import "./hostile-approvals.test.ts";
import "./hostile-ids.test.ts";
import "./hostile-permissions.test.ts";
import "./hostile-secrets.test.ts";
