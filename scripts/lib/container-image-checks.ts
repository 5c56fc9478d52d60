// The image checks of `npm run test:container`: it runs as a non-root user and holds no test tools, no local data,
// no registry settings and no secrets. Reads `docker image inspect`, `docker history` and the exported file list.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { check, docker, DOCKER, log, run } from "./container-test";

/** Paths no image may hold: test tools, local state, registry settings, build secrets. */
const FORBIDDEN_PATHS: [RegExp, string][] = [
  [
    /(^|\/)node_modules\/(vitest|@vitest|playwright|playwright-core|@playwright|happy-dom|@testing-library)\//,
    "a test tool",
  ],
  [/chromium|ms-playwright|headless_shell/i, "a browser for tests"],
  [/(^|\/)\.data\//, "local data (.data)"],
  [/(^|\/)\.?npmrc$/, "npm registry settings"],
  [/^run\/secrets\//, "a build secret"],
  [/(^|\/)\.env(\.|$)/, "an .env file"],
  [/(^|\/)\.git\//, "a git repository"],
  [/^app\/(e2e|test-results|playwright-report)\//, "test artefacts"],
  [/(^|\/)node_modules\/@next\/swc-/, "Next.js's SWC compiler (the build's, not the server's)"],
  [/^app\/next\.config\.ts$/, "next.config.ts (the server would compile it with SWC: next.config.mjs stands in)"],
];

/** Words that, in the image's history or settings, would mean a registry setting or a secret went in. */
const FORBIDDEN_WORDS = [/npm_config_/i, /NODE_EXTRA_CA_CERTS/, /npm_ca/, /APP_SECRET=/, /PASSWORD=/, /_authToken/];

function sha256(file: string): string {
  return createHash("sha256").update(fs.readFileSync(file)).digest("hex");
}

/** Checks the image; returns its size. */
export function inspectImage(image: string, work: string): { sizeBytes: number } {
  const [info] = JSON.parse(docker(["image", "inspect", image])) as {
    Size: number;
    Config: { User?: string; Env?: string[]; Healthcheck?: { Test?: string[] } };
  }[];
  check(info, `no image ${image}`);
  const user = info.Config.User ?? "";
  check(user !== "" && user !== "root" && user !== "0", `the image runs as "${user || "root"}"`);
  const uid = docker(["run", "--rm", "--network", "none", "--entrypoint", "id", image, "-u"]).trim();
  check(uid !== "0", `the image's processes run with uid ${uid}`);
  check(info.Config.Healthcheck?.Test?.join(" ").includes("healthcheck.mjs"), "the image has no HEALTHCHECK");
  const env = (info.Config.Env ?? []).join("\n");
  check(env.includes("NODE_ENV=production"), "NODE_ENV=production is not set in the image");

  const history = docker(["history", "--no-trunc", "--format", "{{.CreatedBy}}", image]);
  const settings = `${history}\n${env}`;
  for (const word of FORBIDDEN_WORDS) check(!word.test(settings), `the image's history or settings mention ${word}`);

  const files = listFiles(image, work);
  for (const [pattern, what] of FORBIDDEN_PATHS) {
    const hit = files.find((file) => pattern.test(file));
    check(!hit, `the image holds ${what}: /${hit}`);
  }
  const dataLink = docker(["run", "--rm", "--network", "none", "--entrypoint", "readlink", image, "/app/.data"]).trim();
  check(dataLink === "/data", `/app/.data is not the link to the data volume /data (${dataLink})`);
  check(files.includes("usr/bin/ffmpeg"), "the image has no ffmpeg");
  check(files.includes("app/.next/BUILD_ID"), "the image has no Next.js build");
  check(files.includes("app/next.config.mjs"), "the image has no next.config.mjs");
  checkWasmCore(image);

  // No CA bundle given to the build as a secret ended up in it (a bundle from Debian's ca-certificates may).
  const cafile = run("npm", ["config", "get", "cafile"]).trim();
  const given = [cafile, process.env.NODE_EXTRA_CA_CERTS ?? ""]
    .filter((file) => file && fs.existsSync(file))
    .map(sha256);
  const bundles = docker([
    "run",
    "--rm",
    "--network",
    "none",
    "--entrypoint",
    "sh",
    image,
    "-c",
    "find / -xdev -type f \\( -name '*.pem' -o -name '*.crt' \\) -exec sha256sum {} + 2>/dev/null || true",
  ]);
  for (const line of bundles.split("\n").filter(Boolean)) {
    const [hash, file] = line.split(/\s+/);
    check(!given.includes(hash!), `the image holds the build's CA file as ${file}`);
  }
  log(
    `image checks passed: user ${user} (uid ${uid}), ${files.length} files, no test tools, .data, registry settings or secrets`,
  );
  return { sizeBytes: info.Size };
}

/**
 * The headless importer's ffmpeg.wasm core (its fallback without native ffmpeg) runs in the image: its own loader
 * (`wasmTools`, lib/bulk-import/ffmpeg-tools.ts) asks the core for its version, reading the .wasm through the link
 * the Dockerfile makes to the browser's copy.
 */
function checkWasmCore(image: string): void {
  const script = `import("./lib/bulk-import/ffmpeg-tools.ts").then(async (tools) => {
    console.log(JSON.stringify({ version: await tools.wasmTools.version() }));
    process.exit(0);
  })`;
  const out = docker([
    "run",
    "--rm",
    "--network",
    "none",
    "--entrypoint",
    "node",
    image,
    "--import",
    "tsx",
    "-e",
    script,
  ]);
  const { version } = JSON.parse(out.trim().split("\n").at(-1)!) as { version: string };
  check(/^ffmpeg \d/.test(version), `the importer's ffmpeg.wasm core does not run in the image: ${out}`);
  log(`the importer's ffmpeg.wasm core runs in the image (${version})`);
}

/** Every path in the image's file system (docker export of a created, never started container). */
function listFiles(image: string, work: string): string[] {
  const container = docker(["create", image]).trim();
  try {
    const tarball = path.join(work, "image.tar");
    run(DOCKER, ["export", "--output", tarball, container]);
    const list = run("tar", ["-tf", tarball]);
    fs.rmSync(tarball, { force: true });
    return list
      .split("\n")
      .map((line) => line.replace(/^\.\//, ""))
      .filter(Boolean);
  } finally {
    docker(["rm", "--force", "--volumes", container]);
  }
}
