/** The settings' one table (SETTING_SPECS): every setting's default passes its own check, and the sanitizing derives from it. */
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, sanitizeSettings, SETTING_SPECS } from "./settings.ts";

describe("SETTING_SPECS", () => {
  it("gives every setting a default its own check accepts", () => {
    expect(Object.keys(DEFAULT_SETTINGS)).toEqual(Object.keys(SETTING_SPECS));
    for (const [key, spec] of Object.entries(SETTING_SPECS)) {
      expect(spec.check(spec.default), key).toEqual(spec.default);
      expect(DEFAULT_SETTINGS[key as keyof typeof DEFAULT_SETTINGS], key).toEqual(spec.default);
    }
    expect(sanitizeSettings(DEFAULT_SETTINGS)).toEqual(DEFAULT_SETTINGS);
  });

  it("falls back to the base for every setting given a value of the wrong shape", () => {
    const wrong = Object.fromEntries(Object.keys(SETTING_SPECS).map((key) => [key, { not: "a setting" }]));
    expect(sanitizeSettings(wrong)).toEqual(DEFAULT_SETTINGS);
    expect(sanitizeSettings("not an object")).toEqual(DEFAULT_SETTINGS);
    const base = { ...DEFAULT_SETTINGS, sandbox: "none" as const, approveWrites: true };
    expect(sanitizeSettings({ sandbox: "docker", approveWrites: "yes" }, base)).toEqual(base);
  });
});
