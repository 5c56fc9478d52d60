/** The URL people use to reach the app (`APP_URL`), by default http://localhost:$PORT. */
export function appUrl(): string {
  return process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
}

/**
 * The origins the app's own pages are served from: APP_URL's, and on loopback its twin, since
 * http://localhost:3000 and http://127.0.0.1:3000 reach the same server.
 */
export function appOrigins(): string[] {
  const url = new URL(appUrl());
  const twin = url.hostname === "localhost" ? "127.0.0.1" : url.hostname === "127.0.0.1" ? "localhost" : null;
  return twin ? [url.origin, `${url.protocol}//${twin}${url.port ? `:${url.port}` : ""}`] : [url.origin];
}
