/**
 * Where the tests find Chromium. No browser is downloaded: tests use the system
 * Chromium (Debian's `chromium` package) or the one named by DEEPTAB_CHROMIUM.
 */
export const chromiumPath = process.env.DEEPTAB_CHROMIUM ?? "/usr/bin/chromium";

/** Flags that keep a headless Chromium quiet on a machine with no network. */
export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];
