/**
 * Approvals under hostile timing and input in Chromium: the Node table
 * (hostile-approvals.test.ts) runs in the page.
 */
import "./hostile-approvals.test.ts";
