// The app's security headers, built in one place: next.config.ts sends them with API responses and
// static files, proxy.ts sends the page policy (with a fresh nonce per request) with every page.
// Plain TypeScript so next.config.ts, proxy.ts and the tests share it.

/** Directives every response shares. */
const COMMON_DIRECTIVES: Record<string, string[]> = {
  "default-src": ["'self'"],
  // Frames and thumbnails are drawn to canvases and shown as blob:/data: URLs.
  "img-src": ["'self'", "blob:", "data:"],
  "media-src": ["'self'", "blob:"],
  "font-src": ["'self'"],
  // The frame-extraction worker may read the picked file through a blob: URL.
  "connect-src": ["'self'", "blob:"],
  // The extraction worker (a bundled chunk) and ffmpeg.wasm's thread workers; Emscripten may start
  // threads from blob: URLs.
  "worker-src": ["'self'", "blob:"],
  "object-src": ["'none'"],
  "base-uri": ["'self'"],
  "form-action": ["'self'"],
  "frame-ancestors": ["'none'"],
};

function serialise(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join("; ");
}

/**
 * The policy of an HTML page. Scripts run only with this request's nonce (Next.js puts it on its own
 * scripts) or when a nonced script loaded them ('strict-dynamic'); 'wasm-unsafe-eval' lets ffmpeg.wasm
 * and hash-wasm compile WebAssembly, nothing else is evaluated. Styles keep 'unsafe-inline': React
 * renders style attributes (charts, progress bars), which a nonce cannot cover.
 */
export function pageContentSecurityPolicy(nonce: string, options: { development?: boolean } = {}): string {
  return serialise({
    ...COMMON_DIRECTIVES,
    // React's development build evaluates code to rebuild server stacks; production never does.
    "script-src": [
      "'self'",
      `'nonce-${nonce}'`,
      "'strict-dynamic'",
      "'wasm-unsafe-eval'",
      ...(options.development ? ["'unsafe-eval'"] : []),
    ],
    "style-src": ["'self'", "'unsafe-inline'"],
  });
}

/**
 * The policy of everything that is not a page: API answers, static chunks and public/ffmpeg files.
 * A worker runs under the policy of its own script's response, so this is what the extraction worker
 * and ffmpeg's thread workers get: same-origin scripts and WebAssembly, no inline code.
 */
export const ASSET_CONTENT_SECURITY_POLICY = serialise({
  ...COMMON_DIRECTIVES,
  "script-src": ["'self'", "'wasm-unsafe-eval'"],
  "style-src": ["'self'"],
});

/** Sent with every response (next.config.ts). */
export const SECURITY_HEADERS = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
] as const;

/** A fresh, unguessable nonce: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}
