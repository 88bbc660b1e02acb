/** Putting files on the loopback agent-link host (agent-link-server.ts), from Node or Chromium. */

/** Puts a file on the link server (from Node or Chromium) and returns its URL. */
export async function putAgentFile(
  serverUrl: string,
  name: string,
  bytes: Uint8Array | string,
  options: { cors?: boolean; length?: boolean } = {},
): Promise<string> {
  const query = `cors=${options.cors === false ? 0 : 1}&length=${options.length === false ? 0 : 1}`;
  const res = await fetch(`${serverUrl}/f/${name}?${query}`, { method: "PUT", body: bytes as BodyInit });
  if (!res.ok) throw new Error(`putting ${name}: HTTP ${res.status}`);
  return `${serverUrl}/f/${name}`;
}
