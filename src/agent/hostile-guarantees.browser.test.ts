/**
 * The promises of issue 21 in Chromium: the Node tables of approvals
 * (hostile-approvals.test.ts) and permissions (hostile-permissions.test.ts)
 * run in the page.
 */
import "./hostile-approvals.test.ts";
import "./hostile-permissions.test.ts";
