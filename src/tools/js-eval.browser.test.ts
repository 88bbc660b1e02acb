/** `js_eval` in Chromium: the Node behaviours (js-eval.test.ts) with QuickJS's wasm loaded the way the app loads it. */
import "./js-eval.test.ts";
