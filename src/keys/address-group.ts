// The unit that the throttle on unknown keys counts (src/http/api-key-auth.ts), and on
// failed sign-ins (src/auth-server/sign-in.ts): one client's addresses as one.

const IPV6_GROUP = /^[0-9a-f]{1,4}$/i;
/**
 * The unit the unknown-key throttle counts: an IPv4 address, or the /64 network of an
 * IPv6 address (a client's usual allocation: it holds 2^64 addresses).
 */
export const addressGroup = (address: string): string => {
  if (!address.includes(":")) return address;
  const mappedIpv4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mappedIpv4) return mappedIpv4;
  const [head = "", tail = ""] = address.split("::");
  const headGroups = head ? head.split(":") : [];
  const tailGroups = tail ? tail.split(":") : [];
  const zeros = address.includes("::") ? Array(Math.max(0, 8 - headGroups.length - tailGroups.length)).fill("0") : [];
  const network = [...headGroups, ...zeros, ...tailGroups].slice(0, 4);
  if (network.length < 4 || !network.every((group) => IPV6_GROUP.test(group))) return address;
  return `${network.map((group) => Number.parseInt(group, 16).toString(16)).join(":")}::/64`;
};

/** The address group of a request's client: Cloudflare sets CF-Connecting-IP on every request, `wrangler dev` to the local client's address. */
export const addressOf = (request: Request) => addressGroup(request.headers.get("CF-Connecting-IP") ?? "unknown");
