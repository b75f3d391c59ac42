import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

/**
 * Where the notifier may send (issue 42: it POSTs, signed, to whatever URL a browser gave, so an
 * endpoint is checked as a server-side request forgery would be aimed). An endpoint is a push
 * service's: https, port 443, a host on the operator's list (PUSH_ALLOWED_HOSTS; by default the
 * browsers' own push services), and every address the host resolves to public. The check runs
 * when a browser subscribes and again at every send, the second time inside the connection's own
 * DNS lookup, so a name that resolves elsewhere later (DNS rebinding) is refused where it
 * connects. On the local chain, and only there, our own test push service on a loopback address
 * is allowed too (http or https, any port).
 */

/** The browsers' push services: Chrome (FCM), Firefox (Mozilla), Safari (Apple), Edge (WNS). */
export const DEFAULT_PUSH_HOSTS = [
  "fcm.googleapis.com",
  "android.googleapis.com",
  "updates.push.services.mozilla.com",
  "*.push.services.mozilla.com",
  "web.push.apple.com",
  "*.push.apple.com",
  "*.notify.windows.com",
] as const;

export interface EndpointPolicy {
  /** Host names, exact, or `*.example.com` for any name under it. */
  hosts: readonly string[];
  /** The local chain: our test push service on loopback is allowed. */
  local: boolean;
  /** The resolver (tests name their own). */
  lookup?: (host: string) => Promise<string[]>;
}

export class EndpointRefused extends Error {}

/** The operator's list (comma-separated), or the default. */
export function pushHostsOf(env: Record<string, string | undefined>): string[] {
  const raw = env.PUSH_ALLOWED_HOSTS?.trim();
  if (!raw) return [...DEFAULT_PUSH_HOSTS];
  return raw
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
}

/**
 * Addresses no push service has: unspecified, loopback, private, shared (CGNAT), link-local,
 * documentation, benchmarking, multicast, reserved and broadcast (IANA's special-purpose
 * registries), for IPv4 and IPv6; an IPv6 address that carries an IPv4 one is judged by it.
 */
const notPublic = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  notPublic.addSubnet(net, bits, "ipv4");
}
for (const [net, bits] of [
  ["::", 128],
  ["::1", 128],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["3fff::", 20],
  ["5f00::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  notPublic.addSubnet(net, bits, "ipv6");
}
const loopback = new BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/** An IPv6 address that embeds an IPv4 one (::ffff:a.b.c.d, ::a.b.c.d), as that IPv4 address. */
function embeddedV4(address: string): string | null {
  const m = /^::(?:ffff:(?:0:)?)?(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (m) return m[1];
  const hex = /^::(?:ffff:(?:0:)?)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const [hi, lo] = [parseInt(hex[1], 16), parseInt(hex[2], 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Whether the notifier may connect to this IP address under the policy. */
export function addressAllowed(address: string, policy: Pick<EndpointPolicy, "local">): boolean {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  const family = isIP(bare);
  if (family === 0) return false;
  const v4 = family === 6 ? embeddedV4(bare) : bare;
  if (v4) {
    if (policy.local && loopback.check(v4, "ipv4")) return true;
    return !notPublic.check(v4, "ipv4");
  }
  if (policy.local && loopback.check(bare, "ipv6")) return true;
  // Only global unicast (2000::/3) is routable on the internet.
  const first = parseInt(bare.split(":")[0] || "0", 16);
  if ((first & 0xe000) !== 0x2000) return false;
  return !notPublic.check(bare, "ipv6");
}

function hostListed(host: string, hosts: readonly string[]): boolean {
  return hosts.some((h) =>
    h.startsWith("*.") ? host.endsWith(h.slice(1)) && host.length > h.length - 1 : host === h,
  );
}

const isLoopbackName = (host: string) => host === "localhost" || host.endsWith(".localhost");

const resolveAll = (host: string): Promise<string[]> =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses.map((a) => a.address)),
    ),
  );

/**
 * Checks an endpoint's URL without a connection: its scheme, port, host and the host's listing.
 * Returns the URL, or throws EndpointRefused with the reason in words.
 */
export function checkEndpointUrl(endpoint: string, policy: EndpointPolicy): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new EndpointRefused("the endpoint is not a URL");
  }
  if (url.username || url.password) throw new EndpointRefused("the endpoint carries credentials");
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const ip = isIP(host) !== 0;
  const localService =
    policy.local &&
    (ip ? addressAllowed(host, { local: true }) && !addressAllowed(host, { local: false }) : false);
  if (localService) {
    if (url.protocol !== "https:" && url.protocol !== "http:") {
      throw new EndpointRefused("the endpoint must be https");
    }
    return url;
  }
  if (url.protocol !== "https:") throw new EndpointRefused("the endpoint must be https");
  if (url.port !== "" && url.port !== "443") {
    throw new EndpointRefused("a push service answers on port 443");
  }
  if (ip) {
    if (!addressAllowed(host, { local: false })) {
      throw new EndpointRefused(`the endpoint's address ${host} is not a public one`);
    }
  } else if (isLoopbackName(host)) {
    throw new EndpointRefused("the endpoint's host is this machine");
  }
  if (!hostListed(host, policy.hosts)) {
    throw new EndpointRefused(
      `the endpoint's host ${host} is not a push service this index sends to`,
    );
  }
  return url;
}

/** The URL's checks, then every address its host resolves to (at subscribe time). */
export async function checkEndpoint(endpoint: string, policy: EndpointPolicy): Promise<URL> {
  const url = checkEndpointUrl(endpoint, policy);
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (isIP(host) !== 0) return url;
  let addresses: string[];
  try {
    addresses = await (policy.lookup ?? resolveAll)(host);
  } catch {
    throw new EndpointRefused(`the endpoint's host ${host} does not resolve`);
  }
  if (addresses.length === 0)
    throw new EndpointRefused(`the endpoint's host ${host} has no address`);
  for (const address of addresses) {
    if (!addressAllowed(address, policy)) {
      throw new EndpointRefused(
        `the endpoint's host ${host} resolves to ${address}, not a public address`,
      );
    }
  }
  return url;
}

/**
 * A DNS lookup for the notifier's connections that refuses a name resolving to an address that is
 * not public: the check at send, made by the very lookup the socket connects with.
 */
export function guardedLookup(policy: Pick<EndpointPolicy, "local" | "lookup">): LookupFunction {
  const resolve = policy.lookup ?? resolveAll;
  return ((
    hostname: string,
    options: { all?: boolean },
    callback: (...args: unknown[]) => void,
  ) => {
    resolve(hostname).then(
      (addresses) => {
        const bad = addresses.find((a) => !addressAllowed(a, policy));
        if (bad !== undefined || addresses.length === 0) {
          const what = bad ?? "nothing";
          callback(new EndpointRefused(`${hostname} resolves to ${what}, not a public address`));
          return;
        }
        const list: LookupAddress[] = addresses.map((address) => ({
          address,
          family: isIP(address),
        }));
        if (options.all) callback(null, list);
        else callback(null, list[0].address, list[0].family);
      },
      (error: unknown) => callback(error),
    );
  }) as unknown as LookupFunction;
}
