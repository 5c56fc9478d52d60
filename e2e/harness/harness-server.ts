// Serves the extraction harness for Playwright tests and the benchmark: bundles
// e2e/harness/extraction-harness.ts and lib/browser-extraction/extract-frames.worker.ts with esbuild into a
// temp dir and serves them with public/ffmpeg/ and a clips folder from node:http on 127.0.0.1:<random>.
// `isolated` adds COOP/COEP headers (cross-origin isolation → the multi-thread ffmpeg core is used).
// Range requests are supported (a <video> element needs them to seek).
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";

const repoRoot = path.resolve(import.meta.dirname, "..", "..");

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".wasm": "application/wasm",
  ".json": "application/json",
  ".map": "application/json",
  ".mp4": "video/mp4",
  ".m4a": "audio/mp4",
  ".webm": "video/webm",
  ".mov": "video/quicktime",
  ".mkv": "video/x-matroska",
  ".txt": "text/plain",
};

export interface Harness {
  url: string;
  /** Paths requested so far (to tell which ffmpeg core was loaded). */
  requests: string[];
  close(): Promise<void>;
}

/**
 * `isolated`: serve the page cross-origin isolated (COOP/COEP). `omitWorkerCoep` (tests of a misconfigured
 * server): leave COEP off every worker script ("all") or off ffmpeg's thread worker script only ("ffmpeg").
 */
export async function startHarness(options: {
  clipsDir: string;
  isolated?: boolean;
  omitWorkerCoep?: "all" | "ffmpeg";
}): Promise<Harness> {
  const ffmpegDir = path.join(repoRoot, "public", "ffmpeg");
  if (!fs.existsSync(path.join(ffmpegDir, "core", "ffmpeg-core.wasm"))) {
    throw new Error("public/ffmpeg is missing: run `node scripts/copy-browser-assets.mjs` (npm install does it).");
  }
  const bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), "framejury-harness-"));
  // The page entry is an ES module; the worker is a classic script, because that is what Next.js 16's
  // Turbopack emits for `new Worker(new URL(...), { type: "module" })` (it drops the type and loads the
  // chunks with importScripts), so the harness runs the worker the way the app does.
  const common = {
    bundle: true,
    platform: "browser",
    target: "es2022",
    sourcemap: "linked",
    logLevel: "error",
  } as const;
  await build({
    ...common,
    entryPoints: { harness: path.join(repoRoot, "e2e", "harness", "extraction-harness.ts") },
    outdir: bundleDir,
    format: "esm",
  });
  await build({
    ...common,
    entryPoints: {
      "extract-frames.worker": path.join(repoRoot, "lib", "browser-extraction", "extract-frames.worker.ts"),
    },
    outdir: bundleDir,
    format: "iife",
  });
  fs.writeFileSync(
    path.join(bundleDir, "index.html"),
    '<!doctype html><html><head><meta charset="utf-8"><title>extraction harness</title></head><body><script type="module" src="/bundle/harness.js"></script></body></html>',
  );
  const mounts: [string, string][] = [
    ["/bundle/", bundleDir],
    ["/ffmpeg/", ffmpegDir],
    ["/clips/", options.clipsDir],
  ];
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const pathname = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname);
    requests.push(pathname);
    let file: string | null = null;
    if (pathname === "/" || pathname === "/index.html") file = path.join(bundleDir, "index.html");
    for (const [prefix, dir] of mounts) {
      if (pathname.startsWith(prefix)) {
        const candidate = path.join(dir, pathname.slice(prefix.length));
        if (candidate.startsWith(dir + path.sep)) file = candidate;
      }
    }
    const headers: Record<string, string> = { "Cache-Control": "no-store" };
    if (options.isolated) {
      // The minimal set for a cross-origin isolated page: COOP+COEP on the page; COEP on every worker
      // script too (Chromium refuses a worker script without it under an isolated page — for the app that
      // is Turbopack's /_next/static/chunks/turbopack-worker-*.js and /ffmpeg/core-mt/ffmpeg-core.worker.js);
      // CORP on everything else.
      headers["Cross-Origin-Resource-Policy"] = "same-origin";
      if (pathname === "/" || pathname === "/index.html") {
        headers["Cross-Origin-Opener-Policy"] = "same-origin";
        headers["Cross-Origin-Embedder-Policy"] = "require-corp";
      }
      const omit =
        options.omitWorkerCoep === "all" || (options.omitWorkerCoep === "ffmpeg" && pathname.startsWith("/ffmpeg/"));
      if (pathname.endsWith(".worker.js") && !omit) headers["Cross-Origin-Embedder-Policy"] = "require-corp";
    }
    if (!file || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404, headers).end("not found");
      return;
    }
    headers["Content-Type"] = TYPES[path.extname(file)] ?? "application/octet-stream";
    headers["Accept-Ranges"] = "bytes";
    const size = fs.statSync(file).size;
    // Range support: <video> needs it to seek (used to check what the element shows at a given time).
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
    let start = 0;
    let end = size - 1;
    let status = 200;
    if (range && size > 0) {
      start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
      end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      if (start > end || start >= size) {
        res.writeHead(416, { ...headers, "Content-Range": `bytes */${size}` }).end();
        return;
      }
      status = 206;
      headers["Content-Range"] = `bytes ${start}-${end}/${size}`;
    }
    headers["Content-Length"] = String(size === 0 ? 0 : end - start + 1);
    res.writeHead(status, headers);
    if (req.method === "HEAD" || size === 0) res.end();
    else fs.createReadStream(file, { start, end }).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      fs.rmSync(bundleDir, { recursive: true, force: true });
    },
  };
}

export { CHROMIUM_ARGS, CHROMIUM_PATH } from "../chromium";
