/**
 * The promises of issue 21 in Chromium: the Node tables of approvals
 * (hostile-approvals.test.ts), permissions (hostile-permissions.test.ts) and
 * secrets (hostile-secrets.test.ts, on real IndexedDB) run in the page.
 */
import "./hostile-approvals.test.ts";
import "./hostile-permissions.test.ts";
import "./hostile-secrets.test.ts";
