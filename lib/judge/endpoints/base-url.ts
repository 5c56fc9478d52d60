/*
 * The shape check of a judge endpoint's or webhook's base URL, with no Node.js imports: the browser-safe
 * schemas (endpoint-input.validation.ts, webhooks.validation.ts) use it; endpoint-url-policy.ts adds the
 * address checks on the server.
 */

/**
 * What is wrong with a base URL's form, or null. Credentials would be sent to whoever answers;
 * a query or fragment would swallow the path the client appends (".../v1?x=" + "/chat/completions").
 */
export function baseUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "baseUrl must be an http(s) URL.";
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return "baseUrl must be an http(s) URL.";
  if (url.username || url.password) return "baseUrl must not contain a user name or password; put the key in apiKey.";
  if (url.search || value.includes("?")) return "baseUrl must not contain a query string (?…).";
  if (url.hash || value.includes("#")) return "baseUrl must not contain a fragment (#…).";
  if (!url.hostname) return "baseUrl must name a host.";
  return null;
}
