// The Node.js versions package.json declares must be ones every installed package accepts, and CI's Node must
// be one of them. A package whose own declaration is narrower is allowed only when listed below with the exact
// version checked and the reason it does not bind FrameJury; another version of it fails here until rechecked.
import fs from "node:fs";
import path from "node:path";
import semver from "semver";
import { describe, expect, it } from "vitest";

const root = path.resolve(".");
const declared = (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { engines: { node: string } })
  .engines.node;

const NARROWER_THAN_DECLARED: Record<string, { version: string; why: string; check(): void }> = {
  "pg-boss": {
    version: "12.35.0",
    why: "declares >=22.12 but uses no API Node 20.19 lacks (it is ESM, which Node 20.19 requires natively); the judge queue and worker tests run it on CI's Node 20",
    check() {
      const source = readTree(path.join(root, "node_modules/pg-boss/dist"));
      for (const api of NODE_22_ONLY_APIS) expect(source, `pg-boss uses ${api}`).not.toContain(api);
    },
  },
  "@prisma/streams-local": {
    version: "0.1.11",
    why: "declares >=22 (node:sqlite); only `prisma dev` (the Prisma CLI's local Prisma Postgres) loads it, and FrameJury never runs `prisma dev`",
    check() {
      const ours = ["lib", "app", "scripts", "prisma.config.ts"].map((p) => readTree(path.join(root, p))).join("\n");
      expect(ours).not.toMatch(/@prisma\/(dev|streams-local)|prisma dev\b/);
      const scripts = JSON.stringify(
        (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: unknown }).scripts,
      );
      expect(scripts).not.toMatch(/prisma dev\b/);
    },
  },
  "eslint-visitor-keys": {
    version: "5.0.1",
    why: "declares ^22.13 (its Node floor, not an API need): a table of AST child keys that only `npm run lint` loads through typescript-eslint, never the app, worker or tests; CI lints on Node 20",
    check() {
      const source = readTree(
        path.join(root, "node_modules/@typescript-eslint/visitor-keys/node_modules/eslint-visitor-keys"),
      );
      expect(source.length).toBeGreaterThan(0);
      for (const api of NODE_22_ONLY_APIS) expect(source, `eslint-visitor-keys uses ${api}`).not.toContain(api);
    },
  },
};

/** APIs added after Node 20: a package using one would break on Node 20 whatever it declares. */
const NODE_22_ONLY_APIS = [
  "Promise.withResolvers",
  "Array.fromAsync",
  "getBuiltinModule",
  "node:sqlite",
  "Object.groupBy",
  "Map.groupBy",
  "import.meta.dirname",
  "import.meta.filename",
];

function readTree(target: string): string {
  if (!fs.existsSync(target)) return "";
  const stat = fs.statSync(target);
  if (stat.isFile()) return /\.(m?[jt]s|cjs|tsx)$/.test(target) ? fs.readFileSync(target, "utf8") : "";
  return fs
    .readdirSync(target, { withFileTypes: true })
    .filter((entry) => entry.name !== "node_modules" && entry.name !== "generated" && !entry.name.endsWith(".test.ts"))
    .map((entry) => readTree(path.join(target, entry.name)))
    .join("\n");
}

/** Every installed package (nested ones too) with its version and engines.node, from npm's lockfile view of node_modules. */
function installedPackages(): { name: string; version: string; node: string | undefined }[] {
  const lock = JSON.parse(fs.readFileSync(path.join(root, "node_modules/.package-lock.json"), "utf8")) as {
    packages: Record<
      string,
      { version?: string; engines?: { node?: string } | string[]; dev?: boolean; optional?: boolean }
    >;
  };
  return Object.entries(lock.packages)
    .filter(
      ([location]) => location.startsWith("node_modules/") && fs.existsSync(path.join(root, location, "package.json")),
    )
    .map(([location]) => {
      const manifest = JSON.parse(fs.readFileSync(path.join(root, location, "package.json"), "utf8")) as {
        name?: string;
        version: string;
        engines?: { node?: string };
      };
      const name = manifest.name ?? location.slice(location.lastIndexOf("node_modules/") + "node_modules/".length);
      return {
        name,
        version: manifest.version,
        node:
          typeof manifest.engines === "object" && !Array.isArray(manifest.engines) ? manifest.engines?.node : undefined,
      };
    });
}

describe("Node.js engines", () => {
  it("package.json's range is valid and CI's Node is inside it", () => {
    expect(semver.validRange(declared)).not.toBeNull();
    expect(
      semver.satisfies(process.versions.node, declared),
      `Node ${process.versions.node} is outside ${declared}`,
    ).toBe(true);
  });

  it("every installed package accepts every Node version package.json declares, or is a checked exception", () => {
    const packages = installedPackages();
    expect(packages.length).toBeGreaterThan(100);
    const narrower: string[] = [];
    for (const pkg of packages) {
      if (!pkg.node || semver.validRange(pkg.node, { loose: true }) === null) continue;
      if (semver.subset(declared, pkg.node, { loose: true, includePrerelease: false })) continue;
      const exception = NARROWER_THAN_DECLARED[pkg.name];
      if (exception && exception.version === pkg.version) continue;
      narrower.push(`${pkg.name}@${pkg.version} needs node ${pkg.node}`);
    }
    expect(narrower, `packages that reject part of ${declared}`).toEqual([]);
  });

  it.each(Object.entries(NARROWER_THAN_DECLARED))("the exception for %s still holds", (name, exception) => {
    const installed = installedPackages().filter((pkg) => pkg.name === name);
    expect(installed.map((pkg) => pkg.version)).toContain(exception.version);
    expect(exception.why.length).toBeGreaterThan(20);
    exception.check();
  });
});
