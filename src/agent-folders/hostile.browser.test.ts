/** The hostile agent folders property test (hostile.test.ts) in Chromium: the same loader on its JavaScript engine. */
import "./hostile.test.ts";
