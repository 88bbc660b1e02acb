import { test } from "node:test";
import assert from "node:assert/strict";
import { countWords } from "./index.js";

test("counts repeated words", () => {
  assert.deepEqual(
    countWords("a b a"),
    new Map([
      ["a", 2],
      ["b", 1],
    ]),
  );
});

test("ignores punctuation and line breaks", () => {
  assert.deepEqual(countWords("Hello,\nhello!"), new Map([["hello", 2]]));
});
