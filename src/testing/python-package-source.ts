/**
 * A loopback Python package source (a folder of a Pyodide distribution, as
 * Pyodide's CDN is one): a `pyodide-lock.json` for the site's Pyodide and
 * real wheels the test builds, in Node (tests in Node and Chromium use it
 * alike, over HTTP, with CORS for any origin).
 *
 *   deeptab_probe 1.0   imports as `deeptab_probe`, depends on deeptab_base; hello() says where it came from
 *   deeptab_base 2.0    imports as `deeptab_base`
 *   deeptab_tampered 1.0  its bytes do not match the lock's SHA-256
 *   deeptab_other_abi   served from /other-abi/, whose lock is for another Pyodide
 *
 * GET /requests tells how many times each path was asked for (JSON).
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { strToU8, zipSync } from "fflate";

export interface PackageSourceServer {
  /** `http://127.0.0.1:<port>/` (the folder). */
  url: string;
  close(): Promise<void>;
}

/** A pure-Python wheel, as a build tool writes one (the package, its dist-info). */
function makeWheel(name: string, version: string, module: string): Uint8Array {
  const info = `${name}-${version}.dist-info`;
  return zipSync({
    [`${name}/__init__.py`]: strToU8(module),
    [`${info}/METADATA`]: strToU8(`Metadata-Version: 2.1\nName: ${name}\nVersion: ${version}\n`),
    [`${info}/WHEEL`]: strToU8("Wheel-Version: 1.0\nGenerator: deeptab-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"),
    [`${info}/RECORD`]: strToU8(""),
  });
}

const siteAbi = (): string => {
  const dir = dirname(createRequire(import.meta.url).resolve("pyodide/package.json"));
  return (JSON.parse(readFileSync(join(dir, "pyodide-lock.json"), "utf8")) as { info: { abi_version: string } }).info.abi_version;
};

interface Entry {
  name: string;
  version: string;
  bytes: Uint8Array;
  depends?: string[];
  /** The lock's hash is of other bytes. */
  tampered?: boolean;
}

function folder(abi: string, entries: Entry[]): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  const packages: Record<string, unknown> = {};
  for (const e of entries) {
    const fileName = `${e.name}-${e.version}-py3-none-any.whl`;
    files.set(fileName, Buffer.from(e.bytes));
    const sha256 = createHash("sha256")
      .update(e.tampered ? Buffer.from("other bytes") : e.bytes)
      .digest("hex");
    packages[e.name] = {
      name: e.name,
      version: e.version,
      file_name: fileName,
      install_dir: "site",
      package_type: "package",
      sha256,
      imports: [e.name],
      depends: e.depends ?? [],
    };
  }
  files.set("pyodide-lock.json", Buffer.from(JSON.stringify({ info: { abi_version: abi, arch: "wasm32", python: "3" }, packages })));
  return files;
}

export async function startPackageSource(): Promise<PackageSourceServer> {
  const abi = siteAbi();
  const main = folder(abi, [
    { name: "deeptab_base", version: "2.0", bytes: makeWheel("deeptab_base", "2.0", "VERSION = '2.0'\n") },
    {
      name: "deeptab_probe",
      version: "1.0",
      depends: ["deeptab_base"],
      bytes: makeWheel(
        "deeptab_probe",
        "1.0",
        "import deeptab_base\ndef hello():\n    return f'hello from a package (base {deeptab_base.VERSION})'\n",
      ),
    },
    { name: "deeptab_tampered", version: "1.0", tampered: true, bytes: makeWheel("deeptab_tampered", "1.0", "X = 1\n") },
  ]);
  const other = folder("1999_0", [{ name: "deeptab_other_abi", version: "1.0", bytes: makeWheel("deeptab_other_abi", "1.0", "X = 1\n") }]);
  const requests: Record<string, number> = {};
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0] ?? "/";
    const headers = { "Access-Control-Allow-Origin": "*", "Cross-Origin-Resource-Policy": "cross-origin" };
    if (path === "/requests") {
      res.writeHead(200, { ...headers, "Content-Type": "application/json" }).end(JSON.stringify(requests));
      return;
    }
    requests[path] = (requests[path] ?? 0) + 1;
    const [, dir, name] = /^\/(other-abi\/)?([^/]+)$/.exec(path) ?? [];
    const body = name ? (dir ? other : main).get(name) : undefined;
    if (!body) {
      res.writeHead(404, headers).end();
      return;
    }
    res.writeHead(200, { ...headers, "Content-Type": name?.endsWith(".json") ? "application/json" : "application/octet-stream" }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
