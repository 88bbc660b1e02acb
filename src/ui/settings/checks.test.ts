/** The settings' field checks and download figures. */
import { describe, expect, it } from "vitest";
import {
  APPROVAL_LABELS,
  checkBaseUrl,
  checkContextWindow,
  checkGgufUrl,
  describeProgress,
  downloadErrorTitle,
  formatDuration,
  parseContextWindow,
} from "./checks.ts";

describe("approval settings", () => {
  it("say that asking before changing files does not cover commands, which can change files too", () => {
    expect(APPROVAL_LABELS.approveWrites).toMatch(/^Ask before changing files/);
    expect(APPROVAL_LABELS.approveWrites).toMatch(/Commands can change files too: only asking before commands covers them/);
  });
});

describe("settings fields", () => {
  it("accepts only http(s) base URLs", () => {
    expect(checkBaseUrl("http://localhost:11434/v1")).toBeNull();
    expect(checkBaseUrl(" https://openrouter.ai/api/v1 ")).toBeNull();
    for (const bad of ["", "localhost:11434", "ftp://x/v1", "javascript:alert(1)", "http//x"]) expect(checkBaseUrl(bad)).toMatch(/URL/);
  });

  it("accepts an empty window (the model's default) or a whole number of at least 512 tokens", () => {
    expect(checkContextWindow("")).toBeNull();
    expect(checkContextWindow("512")).toBeNull();
    expect(checkContextWindow("131072")).toBeNull();
    expect(checkContextWindow("511")).toMatch(/at least 512/);
    expect(checkContextWindow("8k")).toMatch(/whole number/);
    expect(checkContextWindow("1024.5")).toMatch(/whole number/);
    expect(checkContextWindow("-1024")).toMatch(/whole number/);
    expect(parseContextWindow("4096")).toBe(4096);
    expect(parseContextWindow("100")).toBeUndefined();
    expect(parseContextWindow("")).toBeUndefined();
  });

  it("accepts GGUF URLs only", () => {
    expect(checkGgufUrl("https://huggingface.co/a/b/resolve/main/m-Q4_K_M.gguf")).toBeNull();
    expect(checkGgufUrl("https://h.co/m.GGUF?download=true")).toBeNull();
    expect(checkGgufUrl("https://h.co/m.bin")).toMatch(/\.gguf/);
    expect(checkGgufUrl("file:///m.gguf")).toMatch(/https/);
    expect(checkGgufUrl("")).toMatch(/URL/);
  });
});

describe("download figures", () => {
  it("says bytes, speed and time left", () => {
    expect(describeProgress({ loaded: 10 * 1024 * 1024, total: 100 * 1024 * 1024, bytesPerSecond: 2 * 1024 * 1024, etaSeconds: 45 })).toBe(
      "10.0 MB of 100.0 MB · 2.0 MB/s · 45 s left",
    );
    expect(describeProgress({ loaded: 512, total: undefined, bytesPerSecond: 0, etaSeconds: undefined })).toBe("512 B");
    expect(formatDuration(200)).toBe("3 min 20 s");
    expect(formatDuration(3900)).toBe("1 h 5 min");
  });

  it("titles each download failure", () => {
    expect(downloadErrorTitle({ name: "DownloadError", code: "quota", message: "" })).toMatch(/storage/);
    expect(downloadErrorTitle({ name: "DownloadError", code: "network", message: "" })).toMatch(/CORS/);
    expect(downloadErrorTitle({ name: "DownloadError", code: "cancelled", message: "" })).toMatch(/Resume/);
    expect(downloadErrorTitle({ name: "DownloadError", code: "too_large", message: "" })).toMatch(/too large/);
  });
});
