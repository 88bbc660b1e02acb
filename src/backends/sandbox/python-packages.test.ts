/** Python packages, the caller's side: the lock read, the plan (dependencies first), the wheels fetched once and checked. */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startPackageSource, type PackageSourceServer } from "../../testing/python-package-source.ts";
import { parseLock, planPackages, PYODIDE_CDN, PYODIDE_VERSION, PythonPackages } from "./python-packages.ts";

const LOCK = JSON.stringify({
  info: { abi_version: "2026_0" },
  packages: {
    pandas: {
      name: "pandas",
      version: "3",
      file_name: "pandas.whl",
      sha256: "AB",
      imports: ["pandas"],
      depends: ["numpy", "python-dateutil"],
    },
    numpy: { name: "numpy", version: "2", file_name: "numpy.whl", sha256: "cd", imports: ["numpy"], depends: [] },
    "python-dateutil": {
      name: "python-dateutil",
      version: "1",
      file_name: "du.whl",
      sha256: "ef",
      imports: ["dateutil"],
      depends: ["six"],
    },
    six: { name: "six", version: "1", file_name: "six.whl", sha256: "01", imports: ["six"], depends: [] },
    evil: { name: "evil", version: "1", file_name: "../../etc/passwd", sha256: "02", imports: ["evil"], depends: [] },
    far: { name: "far", version: "1", file_name: "https://elsewhere.example/far.whl", sha256: "03", imports: ["far"], depends: [] },
  },
});

describe("Python packages: the plan from a Pyodide lock file", () => {
  it("installs dependencies before dependents, skips what is installed, and names imports no package provides", () => {
    const lock = parseLock(LOCK, "lock");
    expect(lock.abi).toBe("2026_0");
    const plan = planPackages(lock, { imports: ["pandas", "nothere"], loaded: [] });
    expect(plan.order.map((p) => p.name)).toEqual(["numpy", "six", "python-dateutil", "pandas"]);
    expect(plan.missing).toEqual(["nothere"]);
    expect(plan.order[3]?.sha256).toBe("ab");
    const warm = planPackages(lock, { imports: ["pandas", "dateutil"], loaded: ["numpy", "six", "python_dateutil"] });
    expect(warm.order.map((p) => p.name)).toEqual(["pandas"]);
  });

  it("never takes a wheel from outside the source's folder (a path or another host in file_name)", () => {
    const plan = planPackages(parseLock(LOCK, "lock"), { imports: ["evil", "far"], loaded: [] });
    expect(plan.order).toEqual([]);
    expect(plan.missing).toEqual(["evil", "far"]);
  });

  it("refuses what is not a Pyodide lock file, naming it", () => {
    expect(() => parseLock("<html>", "https://x/pyodide-lock.json")).toThrow("https://x/pyodide-lock.json is not JSON");
    expect(() => parseLock("{}", "u")).toThrow("u is not a Pyodide lock file (no info.abi_version or packages)");
  });

  it("offers Pyodide's CDN folder for the very release the site serves", () => {
    const version = (JSON.parse(readFileSync("node_modules/pyodide/package.json", "utf8")) as { version: string }).version;
    expect(PYODIDE_VERSION).toBe(version);
    expect(PYODIDE_CDN).toBe(`https://cdn.jsdelivr.net/pyodide/v${version}/full/`);
    expect(() => new PythonPackages("file:///etc/")).toThrow("not an http(s) URL");
    expect(new PythonPackages("https://mirror.example/pyodide").url).toBe("https://mirror.example/pyodide/");
  });
});

describe("Python packages: a source over HTTP (loopback)", () => {
  let source: PackageSourceServer;
  beforeAll(async () => {
    source = await startPackageSource();
  });
  afterAll(() => source.close());
  const requests = async () => (await (await fetch(`${source.url}requests`)).json()) as Record<string, number>;

  it("delivers the checked wheels, dependencies first, each fetched once per session, without credentials", async () => {
    const seen: RequestInit[] = [];
    const packages = new PythonPackages(source.url, (input, init) => {
      seen.push(init ?? {});
      return fetch(input, init);
    });
    const first = await packages.deliver({ imports: ["deeptab_probe", "nothere"], loaded: [] });
    expect(first.host).toBe(new URL(source.url).host);
    expect(first.wheels.map((w) => `${w.name} ${w.version}`)).toEqual(["deeptab_base 2.0", "deeptab_probe 1.0"]);
    expect(first.wheels[0]?.bytes.byteLength).toBeGreaterThan(100);
    expect(first.missing).toEqual(["nothere"]);
    await packages.deliver({ imports: ["deeptab_probe"], loaded: [] });
    const counts = await requests();
    expect(counts["/pyodide-lock.json"]).toBe(1);
    expect(counts["/deeptab_probe-1.0-py3-none-any.whl"]).toBe(1);
    expect(seen.every((init) => init.credentials === "omit")).toBe(true);
  });

  it("refuses a wheel whose bytes do not match the lock, and a source that is not there (tried again next time)", async () => {
    const packages = new PythonPackages(source.url);
    await expect(packages.deliver({ imports: ["deeptab_tampered"], loaded: [] })).rejects.toThrow(
      "deeptab_tampered-1.0-py3-none-any.whl does not match its SHA-256 in pyodide-lock.json: not installed",
    );
    const missing = new PythonPackages(`${source.url}nowhere/`);
    await expect(missing.deliver({ imports: ["x"], loaded: [] })).rejects.toThrow(`${source.url}nowhere/pyodide-lock.json: HTTP 404`);
    await expect(missing.deliver({ imports: ["x"], loaded: [] })).rejects.toThrow("HTTP 404");
    expect((await requests())["/nowhere/pyodide-lock.json"]).toBe(2);
    const dead = new PythonPackages("http://127.0.0.1:9/");
    await expect(dead.deliver({ imports: ["x"], loaded: [] })).rejects.toThrow(
      /^http:\/\/127\.0\.0\.1:9\/pyodide-lock\.json could not be fetched \(.+\); the host may be offline or not allow this page's origin/,
    );
  });
});
