import js from "@eslint/js";
import svelte from "eslint-plugin-svelte";
import globals from "globals";
import ts from "typescript-eslint";

export default ts.config(
  { ignores: ["dist/", "dist-*/", "screenshots/", "node_modules/", "public/", "test-results/", "playwright-report/", ".scratch/"] },
  js.configs.recommended,
  ...ts.configs.recommended,
  ...svelte.configs["flat/recommended"],
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
      // Prettier wraps code at 140 columns but leaves long literals and markup text alone: no line may run longer
      // (split long strings into pieces joined with +); only a line with a URL may, as a URL cannot be split.
      "max-len": ["error", { code: 140, ignoreUrls: true }],
      "no-restricted-imports": [
        "error",
        {
          paths: [
            { name: "@langchain/langgraph", message: "Import @langchain/langgraph/web (browser-safe)." },
            { name: "@langchain/core/context", message: "Pulls node:async_hooks; pass config explicitly." },
            { name: "@langchain/core/callbacks/dispatch", message: "Pulls node:async_hooks." },
          ],
        },
      ],
    },
  },
  {
    files: ["**/*.svelte", "**/*.svelte.ts"],
    languageOptions: { parserOptions: { parser: ts.parser, extraFileExtensions: [".svelte"] } },
  },
);
