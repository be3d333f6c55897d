// Where the agent's own browser may connect (issue 12's fence, seed 000 §9): judged on the address
// a host name resolves to, so a name that points at this machine is judged as this machine.
// Link-local and cloud-metadata addresses are never reached, nor EasyAgentCU's own server; local
// and private networks only where the allow-list names the origin; public addresses are, unless
// a domain allow-list is set: then only its domains.
import { BlockList, isIP } from "node:net";

export interface NetworkPolicy {
  /** Local or private origins allowed: `http://127.0.0.1:3000`, `127.0.0.1:3000`, `localhost:*`. */
  allowedOrigins: readonly string[];
  /** Domains never allowed, with their subdomains. */
  blockedDomains: readonly string[];
  /** When any: the only public domains allowed, with their subdomains; local origins still go by `allowedOrigins`. */
  allowedDomains: readonly string[];
  /** The ports EasyAgentCU's server listens on: never reachable on this machine's addresses. */
  serverPorts: ReadonlySet<number>;
  /** This machine's own addresses (its network interfaces), besides loopback. */
  localAddresses: readonly string[];
}

/**
 * `local`: refused only because the origin is local or private and not allowed yet, so the person
 * may allow it; `own`: EasyAgentCU's own server, which nothing allows; `closedBy`: the domain list
 * that keeps it closed.
 */
export type Verdict = { allowed: true } | { allowed: false; why: string; local?: true; own?: true; closedBy?: DomainList };
export type DomainList = "BLOCKED_DOMAINS" | "ALLOWED_DOMAINS";

/** How a closed site is described: `${origin} ${closedPhrase(list)}`. */
export function closedPhrase(list: DomainList): string {
  return list === "BLOCKED_DOMAINS" ? "is on the block-list (BLOCKED_DOMAINS)" : "is not on the allow-list (ALLOWED_DOMAINS)";
}

const NEVER = new BlockList();
NEVER.addSubnet("169.254.0.0", 16, "ipv4"); // link-local, where cloud metadata lives
NEVER.addSubnet("0.0.0.0", 8, "ipv4");
NEVER.addSubnet("224.0.0.0", 4, "ipv4"); // multicast
NEVER.addAddress("100.100.100.200", "ipv4"); // Alibaba Cloud metadata
NEVER.addSubnet("fe80::", 10, "ipv6");
NEVER.addSubnet("ff00::", 8, "ipv6");
NEVER.addAddress("::", "ipv6");
NEVER.addAddress("fd00:ec2::254", "ipv6"); // AWS metadata over IPv6
const NEVER_HOSTS = ["metadata.google.internal", "metadata"];

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

const PRIVATE = new BlockList();
for (const [net, bits] of [["10.0.0.0", 8], ["172.16.0.0", 12], ["192.168.0.0", 16], ["100.64.0.0", 10]] as const) PRIVATE.addSubnet(net, bits, "ipv4");
PRIVATE.addSubnet("fc00::", 7, "ipv6");

/** An IP address on this machine or a private network (loopback, RFC 1918, CGNAT, unique local). */
export function isPrivateAddress(address: string): boolean {
  const ip = unmapped(address);
  const family = isIP(ip) === 6 ? "ipv6" : "ipv4";
  return isIP(ip) !== 0 && (LOOPBACK.check(ip, family) || PRIVATE.check(ip, family));
}

/** Whether a host is one of the domains, or a subdomain of one, written in any case. */
export function inDomains(host: string, domains: readonly string[]): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
  return domains.some((d) => name === d.toLowerCase() || name.endsWith(`.${d.toLowerCase()}`));
}

/** A host of BLOCKED_DOMAINS (or a subdomain of one), judged by its name alone; null for any other. */
export function blockedName(policy: Pick<NetworkPolicy, "blockedDomains">, host: string): Extract<Verdict, { allowed: false }> | null {
  const name = bareName(host);
  return inDomains(name, policy.blockedDomains) ? closed(name, "BLOCKED_DOMAINS") : null;
}

/**
 * With ALLOWED_DOMAINS set, a public host that is not one of its domains (or a subdomain): judged
 * once the host is known to be public, or could not be resolved at all; null for any other.
 */
export function outsideAllowed(policy: Pick<NetworkPolicy, "allowedDomains">, host: string): Extract<Verdict, { allowed: false }> | null {
  const name = bareName(host);
  return policy.allowedDomains.length > 0 && !inDomains(name, policy.allowedDomains) ? closed(name, "ALLOWED_DOMAINS") : null;
}

function closed(name: string, list: DomainList): Extract<Verdict, { allowed: false }> {
  return { allowed: false, why: `${name} ${closedPhrase(list)}`, closedBy: list };
}

function bareName(host: string): string {
  return host.toLowerCase().replace(/^\[|\]$/g, "").replace(/\.$/, "");
}

/** Judges a connection to `host:port` that would go to `address` (what `host` resolves to). */
export function judge(policy: NetworkPolicy, host: string, port: number, address: string): Verdict {
  const name = bareName(host);
  const ip = unmapped(address);
  const family = isIP(ip) === 6 ? "ipv6" : "ipv4";
  const blocked = blockedName(policy, name);
  if (blocked) return blocked;
  if (NEVER_HOSTS.includes(name) || NEVER.check(ip, family)) return { allowed: false, why: `${ip} is a link-local or cloud-metadata address` };
  const local = LOOPBACK.check(ip, family) || policy.localAddresses.includes(ip);
  if (local && policy.serverPorts.has(port)) return { allowed: false, why: "it is EasyAgentCU's own server", own: true };
  if (local || PRIVATE.check(ip, family)) {
    if (allowed(policy.allowedOrigins, name, port)) return { allowed: true };
    return { allowed: false, why: `${name}:${port} is on this machine or a private network; add it to ALLOWED_ORIGINS to let the agent open it`, local: true };
  }
  return outsideAllowed(policy, name) ?? { allowed: true };
}

function allowed(origins: readonly string[], host: string, port: number): boolean {
  return origins.some((origin) => {
    const bare = origin.toLowerCase().replace(/^[a-z][a-z0-9+.-]*:\/\//, "").replace(/\/.*$/, "");
    const match = /^(\[[^\]]+\]|[^:]+)(?::(\d+|\*))?$/.exec(bare);
    if (!match) return false;
    const wantedHost = match[1]!.replace(/^\[|\]$/g, "");
    const wantedPort = match[2] ?? (origin.toLowerCase().startsWith("https:") ? "443" : "80");
    return wantedHost === host && (wantedPort === "*" || Number(wantedPort) === port);
  });
}

/** `::ffff:127.0.0.1` is 127.0.0.1, and so is `::ffff:7f00:1`, as a URL writes it. */
function unmapped(address: string): string {
  const bare = address.replace(/^\[|\]$/g, "");
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (dotted) return dotted[1]!;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(bare);
  if (!hex) return address;
  const [high, low] = [parseInt(hex[1]!, 16), parseInt(hex[2]!, 16)];
  return [high >> 8, high & 255, low >> 8, low & 255].join(".");
}
