/** A Request to an /api/v1 route handler, authenticated with an API key, as route tests call them. */
export function apiRequest(path: string, key: string, init: RequestInit = {}): Request {
  const headers = new Headers(init.headers);
  headers.set("authorization", `Bearer ${key}`);
  if (init.body) headers.set("content-type", "application/json");
  return new Request(`http://localhost:3000${path}`, { ...init, headers });
}

/** The second argument Next.js passes a route handler. */
export const routeContext = <P>(params: P) => ({ params: Promise.resolve(params) });
