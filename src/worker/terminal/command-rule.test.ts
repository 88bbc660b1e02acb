import { describe, expect, it } from "vitest";
import { commandRule, settingAsksForCommands } from "./command-rule.ts";

describe("the rule that asks before a command", () => {
  it("is the Settings switch where there is a sandbox", () => {
    expect(settingAsksForCommands(true, "shell")).toBe(true);
    expect(settingAsksForCommands(true, "none")).toBe(false);
    expect(settingAsksForCommands(false, "webcontainer")).toBe(false);
    expect(commandRule(true, "shell")).toBe('"Ask before running commands" (Settings)');
    expect(commandRule(false, "shell")).toBeUndefined();
  });

  it("follows an agent's path rules and its interrupt_on for execute", () => {
    const none = { interruptOn: {}, permissions: [] };
    expect(commandRule(false, "shell", none)).toBeUndefined();
    expect(commandRule(false, "shell", { ...none, permissions: [{ operations: ["write"], paths: ["/**"], mode: "deny" }] })).toMatch(
      /path rules/,
    );
    expect(commandRule(false, "shell", { ...none, interruptOn: { execute: true } })).toMatch(/interrupt_on/);
    expect(commandRule(false, "shell", { ...none, interruptOn: { execute: { allowedDecisions: ["approve"] } } })).toMatch(/interrupt_on/);
    expect(commandRule(false, "shell", { ...none, interruptOn: { execute: false, write_file: true } })).toBeUndefined();
    expect(commandRule(false, "none", { ...none, interruptOn: { execute: true } })).toBeUndefined();
  });
});
