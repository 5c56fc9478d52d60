import dns from "node:dns";
import type { LookupFunction } from "node:net";
import { AppError } from "../../errors";
import { baseUrlProblem } from "./base-url";

/**
 * Which judge endpoints the server may call. Any signed-in user can create a project and point an
 * endpoint at any URL, and the worker then posts to it (with the stored API key): without this
 * policy that is a request forgery into the server's own network. By default an endpoint must
 * resolve only to public addresses; a local vLLM or the stub LLM needs ALLOW_PRIVATE_ENDPOINTS=1.
 *
 * The base URL is checked when an endpoint is created or changed, and every address is checked
 * again when the worker connects (guardedLookup), so a name that later resolves elsewhere (DNS
 * rebinding) is still refused.
 */

/** ALLOW_PRIVATE_ENDPOINTS=1 lets endpoints resolve to loopback, private and other non-public addresses. */
export function privateEndpointsAllowed(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.ALLOW_PRIVATE_ENDPOINTS === "1";
}

const ALLOW_HINT = "Judge endpoints on this machine or a private network need ALLOW_PRIVATE_ENDPOINTS=1 on the server.";

/** An endpoint address the policy refuses. Its message never names the resolved address. */
export class EndpointNotAllowedError extends AppError {
  constructor(message: string) {
    super(400, "endpoint_not_allowed", message);
  }
}

type Rule = { prefix: number[]; bits: number; reason: string };

const v4 = (cidr: string, reason: string): Rule => {
  const [address, bits] = cidr.split("/");
  return { prefix: parseIPv4(address!)!, bits: Number(bits), reason };
};
const v6 = (cidr: string, reason: string): Rule => {
  const [address, bits] = cidr.split("/");
  return { prefix: parseIPv6(address!)!, bits: Number(bits), reason };
};

const IPV4_RULES: Rule[] = [
  v4("0.0.0.0/8", 'an unspecified ("this network")'),
  v4("10.0.0.0/8", "a private"),
  v4("100.64.0.0/10", "a carrier-grade NAT (shared)"),
  v4("127.0.0.0/8", "a loopback"),
  v4("169.254.0.0/16", "a link-local"),
  v4("172.16.0.0/12", "a private"),
  v4("192.0.0.0/24", "a reserved (IETF protocol)"),
  v4("192.0.2.0/24", "a documentation"),
  v4("192.88.99.0/24", "a reserved (6to4 relay)"),
  v4("192.168.0.0/16", "a private"),
  v4("198.18.0.0/15", "a benchmarking"),
  v4("198.51.100.0/24", "a documentation"),
  v4("203.0.113.0/24", "a documentation"),
  v4("224.0.0.0/4", "a multicast"),
  v4("240.0.0.0/4", "a reserved (or broadcast)"),
];

const IPV6_RULES: Rule[] = [
  v6("::/128", "an unspecified"),
  v6("::1/128", "a loopback"),
  v6("::/96", "a deprecated IPv4-compatible"),
  v6("64:ff9b:1::/48", "a local-use NAT64"),
  v6("100::/64", "a discard-only"),
  v6("2001:db8::/32", "a documentation"),
  v6("fc00::/7", "a unique-local"),
  v6("fe80::/10", "a link-local"),
  v6("fec0::/10", "a site-local"),
  v6("ff00::/8", "a multicast"),
];

/** IPv6 ranges that carry an IPv4 address: that address is classified as well. */
const EMBEDDED_IPV4: { rule: Rule; offset: number; name: string }[] = [
  { rule: v6("::ffff:0:0/96", ""), offset: 12, name: "IPv4-mapped" },
  { rule: v6("64:ff9b::/96", ""), offset: 12, name: "NAT64" },
  { rule: v6("2002::/16", ""), offset: 2, name: "6to4" },
];

function parseIPv4(text: string): number[] | null {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!match) return null;
  const bytes = match.slice(1).map(Number);
  return bytes.every((b) => b <= 255) ? bytes : null;
}

function parseIPv6(text: string): number[] | null {
  let s = text
    .replace(/^\[|\]$/g, "")
    .replace(/%.*$/, "")
    .toLowerCase();
  // A trailing dotted quad ("::ffff:127.0.0.1") stands for the last two groups.
  const dotted = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(s);
  if (dotted) {
    const four = parseIPv4(dotted[2]!);
    if (!four) return null;
    s = `${dotted[1]}${((four[0]! << 8) | four[1]!).toString(16)}:${((four[2]! << 8) | four[3]!).toString(16)}`;
  }
  const halves = s.split("::");
  if (halves.length > 2) return null;
  const groups = (part: string) => (part === "" ? [] : part.split(":"));
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return null;
  return all.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}

function matches(bytes: number[], rule: Rule): boolean {
  for (let bit = 0; bit < rule.bits; bit++) {
    const i = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if ((bytes[i]! & mask) !== (rule.prefix[i]! & mask)) return false;
  }
  return true;
}

/**
 * Why an IP address is not a public one ("a loopback", "an IPv4-mapped private", …), or null for a
 * public address. Anything that is not an IP address is refused too.
 */
export function nonPublicAddressReason(address: string): string | null {
  const four = parseIPv4(address);
  if (four) return IPV4_RULES.find((rule) => matches(four, rule))?.reason ?? null;
  const six = parseIPv6(address);
  if (!six) return "an unparseable";
  for (const embedded of EMBEDDED_IPV4) {
    if (!matches(six, embedded.rule)) continue;
    const inner = nonPublicAddressReason(six.slice(embedded.offset, embedded.offset + 4).join("."));
    if (inner) return `an ${embedded.name} ${inner.replace(/^an? /, "")}`;
  }
  return IPV6_RULES.find((rule) => matches(six, rule))?.reason ?? null;
}

function refusal(host: string, reason: string): EndpointNotAllowedError {
  return new EndpointNotAllowedError(
    `The endpoint host ${host} resolves to ${reason} address, which is not allowed. ${ALLOW_HINT}`,
  );
}

/** The URL's host without IPv6 brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, "");

/**
 * Checks a base URL when an endpoint is created or changed: its form, and (unless private
 * endpoints are allowed) every address its host resolves to. Throws EndpointNotAllowedError.
 */
export async function assertEndpointUrlAllowed(
  baseUrl: string,
  options: { allowPrivate?: boolean; lookupAll?: (host: string) => Promise<{ address: string }[]> } = {},
): Promise<void> {
  const problem = baseUrlProblem(baseUrl);
  if (problem) throw new EndpointNotAllowedError(problem);
  if (options.allowPrivate ?? privateEndpointsAllowed()) return;
  const host = hostOf(new URL(baseUrl));
  const lookupAll = options.lookupAll ?? ((name: string) => dns.promises.lookup(name, { all: true, verbatim: true }));
  let addresses: { address: string }[];
  try {
    addresses = await lookupAll(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "lookup failed";
    throw new EndpointNotAllowedError(`The endpoint host ${host} could not be resolved (${code}).`);
  }
  if (addresses.length === 0) throw new EndpointNotAllowedError(`The endpoint host ${host} could not be resolved.`);
  for (const { address } of addresses) {
    const reason = nonPublicAddressReason(address);
    if (reason) throw refusal(host, reason);
  }
}

/**
 * A `lookup` for sockets to judge endpoints: resolves every address of the host and refuses the
 * connection when any of them is not public (unless private endpoints are allowed). Because the
 * socket connects to what this returns, the address actually connected to is the one checked.
 */
export function guardedLookup(options: { allowPrivate?: () => boolean } = {}): LookupFunction {
  const allowPrivate = options.allowPrivate ?? (() => privateEndpointsAllowed());
  return (hostname, lookupOptions, callback) => {
    const family = typeof lookupOptions === "number" ? lookupOptions : (lookupOptions?.family ?? 0);
    const wantsAll = typeof lookupOptions === "object" && lookupOptions !== null && lookupOptions.all === true;
    dns.lookup(
      hostname,
      {
        family: family as 0 | 4 | 6,
        all: true,
        hints: typeof lookupOptions === "object" ? lookupOptions?.hints : undefined,
      },
      (error, addresses) => {
        if (error) return callback(error, "", 0);
        if (!allowPrivate()) {
          for (const { address } of addresses) {
            const reason = nonPublicAddressReason(address);
            if (reason) return callback(refusal(hostname, reason) as unknown as NodeJS.ErrnoException, "", 0);
          }
        }
        if (wantsAll) return callback(null, addresses);
        const first = addresses[0];
        if (!first)
          return callback(Object.assign(new Error(`No address for ${hostname}.`), { code: "ENOTFOUND" }), "", 0);
        callback(null, first.address, first.family);
      },
    );
  };
}

/**
 * For a host written as an IP address no lookup happens when connecting, so it is checked here
 * before the request is made.
 */
export function assertLiteralHostAllowed(url: URL, allowPrivate: boolean): void {
  if (allowPrivate) return;
  const host = hostOf(url);
  if (!parseIPv4(host) && !parseIPv6(host)) return;
  const reason = nonPublicAddressReason(host);
  if (reason) throw refusal(host, reason);
}
