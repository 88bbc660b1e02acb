/** Issue 42's small-window rows in Chromium, against the browser tier's loopback provider server. */
import "./upstream-parity-winter-2026-windows.test.ts";
