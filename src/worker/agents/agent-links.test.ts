/**
 * Fetching an agent link against a real loopback host (Node's fetch: no CORS here; the browser test checks that):
 * the bytes, HTTP errors named by status, the size cap by Content-Length and while streaming, a refused connection,
 * and what the bytes are sniffed as.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { putAgentFile } from "../../testing/agent-link-files.ts";
import { startAgentLinkServer, type AgentLinkServer } from "../../testing/agent-link-server.ts";
import { fetchAgentLink, linkName, sniffAgent } from "./agent-links.ts";
import { siteBaseUrl } from "./site-base.ts";

let server: AgentLinkServer;
beforeAll(async () => {
  server = await startAgentLinkServer();
});
afterAll(() => server.close());

const scope = () => crypto.randomUUID();
const fetchImpl: typeof fetch = (input, init) => fetch(input, init);

describe("agent links", () => {
  it("downloads the bytes at a link", async () => {
    const url = await putAgentFile(server.url, `${scope()}/a.json`, '{"format":"deeptab-agent"}');
    const got = await fetchAgentLink(url, fetchImpl, "http://page.test");
    expect(got.ok && new TextDecoder().decode(got.value)).toBe('{"format":"deeptab-agent"}');
  });

  it("names the HTTP status of a failed answer", async () => {
    const got = await fetchAgentLink(`${server.url}/status/404`, fetchImpl, "http://page.test");
    expect(!got.ok && got.error.code).toBe("fetch_failed");
    expect(!got.ok && got.error.message).toContain("answered HTTP 404");
  });

  it("stops at the cap: by the declared length, and while streaming one that declares none", async () => {
    const bytes = new Uint8Array(300_000).fill(0x41);
    const declared = await putAgentFile(server.url, `${scope()}/big.zip`, bytes);
    const streamed = await putAgentFile(server.url, `${scope()}/big.zip`, bytes, { length: false });
    for (const url of [declared, streamed]) {
      const got = await fetchAgentLink(url, fetchImpl, "http://page.test", 100_000);
      expect(!got.ok && got.error.code).toBe("too_large");
    }
    const fits = await fetchAgentLink(streamed, fetchImpl, "http://page.test", 300_000);
    expect(fits.ok && fits.value.length).toBe(300_000);
  });

  it("says a refused fetch may be CORS, naming the page's origin, and refuses links that are not http(s)", async () => {
    const closed = await startAgentLinkServer();
    await closed.close();
    const got = await fetchAgentLink(`${closed.url}/f/x.zip`, fetchImpl, "http://page.test");
    expect(!got.ok && got.error.code).toBe("fetch_failed");
    expect(!got.ok && got.error.message).toMatch(/did not allow this page \(http:\/\/page\.test\) to read it.*Access-Control-Allow-Origin/);
    const file = await fetchAgentLink("file:///etc/passwd", fetchImpl, "http://page.test");
    expect(!file.ok && file.error.message).toContain("http(s)");
  });

  it("sniffs a zip or a JSON bundle, and names an agent by its file", () => {
    expect(sniffAgent(new Uint8Array([0x50, 0x4b, 3, 4, 0]))).toHaveProperty("zip");
    expect(sniffAgent(new TextEncoder().encode('\uFEFF \n {"format":1}'))).toHaveProperty("bundle");
    expect(sniffAgent(new TextEncoder().encode("<html>"))).toBeUndefined();
    expect(linkName("https://example.org/a/my%20agent.zip?x=1")).toBe("my agent");
    expect(linkName("https://example.org/")).toBe("example.org");
  });

  it("names an agent by its link without invisible or direction-changing characters", () => {
    expect(linkName("https://example.org/a/txt.%E2%80%AEexe.zip")).toBe("txt.exe");
    expect(linkName("https://example.org/%E2%80%8B%E2%81%A6.zip")).toBe("example.org");
  });

  it("names an agent by a link whose file name has a malformed percent-escape, without throwing", () => {
    expect(linkName("https://example.com/agents/tide%E2.zip")).toBe("tide%E2");
    expect(linkName("https://example.com/agents/my%20tide%E2%80.json")).toBe("my tide%E2%80");
    expect(linkName("https://example.com/a/txt.%E2%80%AEexe%ZZ%E2.zip")).toBe("txt.exe%ZZ%E2");
    expect(linkName("https://example.com/%E2")).toBe("%E2");
  });

  it("finds the site's base from a page or a built worker, for base './' and '/deeptab/'", () => {
    expect(siteBaseUrl("./", "https://u.github.io/repo/assets/agent.worker-x.js", true)).toBe("https://u.github.io/repo/");
    expect(siteBaseUrl("./", "https://u.github.io/repo/index.html", false)).toBe("https://u.github.io/repo/");
    expect(siteBaseUrl("/deeptab/", "https://u.github.io/deeptab/assets/agent.worker-x.js", true)).toBe("https://u.github.io/deeptab/");
    expect(siteBaseUrl("/", "http://localhost:5173/src/worker/agent.worker.ts?worker_file", true)).toBe("http://localhost:5173/");
  });
});
