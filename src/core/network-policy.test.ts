import { describe, expect, it } from "vitest";
import { blockedName, judge, outsideAllowed, type NetworkPolicy } from "./network-policy.ts";

const policy: NetworkPolicy = {
  allowedOrigins: ["http://127.0.0.1:3000", "localhost:*"],
  blockedDomains: ["evil.example"],
  allowedDomains: [],
  serverPorts: new Set([8000]),
  localAddresses: ["10.1.2.3"],
};

describe("the network policy", () => {
  it("never reaches link-local or cloud-metadata addresses", () => {
    expect(judge(policy, "169.254.169.254", 80, "169.254.169.254")).toMatchObject({ allowed: false });
    expect(judge(policy, "metadata.google.internal", 80, "8.8.8.8")).toMatchObject({ allowed: false });
    expect(judge(policy, "fe80::1", 80, "fe80::1")).toMatchObject({ allowed: false });
  });

  it("never reaches EasyAgentCU's own server, by any name or local address", () => {
    for (const [host, address] of [["127.0.0.1", "127.0.0.1"], ["localhost", "::1"], ["rebound.example", "127.0.0.1"], ["10.1.2.3", "10.1.2.3"], ["x", "::ffff:127.0.0.1"], ["[::ffff:a01:203]", "::ffff:a01:203"]]) {
      expect(judge(policy, host!, 8000, address!)).toMatchObject({ allowed: false, why: expect.stringContaining("own server") });
    }
  });

  it("opens local and private origins only where the allow-list names them", () => {
    expect(judge(policy, "127.0.0.1", 3000, "127.0.0.1")).toEqual({ allowed: true });
    expect(judge(policy, "localhost", 5173, "127.0.0.1")).toEqual({ allowed: true });
    expect(judge(policy, "127.0.0.1", 3001, "127.0.0.1")).toMatchObject({ allowed: false, why: expect.stringContaining("ALLOWED_ORIGINS") });
    expect(judge(policy, "router.lan", 80, "192.168.1.1")).toMatchObject({ allowed: false });
    expect(judge(policy, "public.example", 80, "93.184.216.34")).toEqual({ allowed: true });
  });

  it("refuses a blocked domain and its subdomains", () => {
    expect(judge(policy, "www.evil.example", 443, "93.184.216.34")).toMatchObject({ allowed: false, why: expect.stringContaining("block-list"), closedBy: "BLOCKED_DOMAINS" });
    expect(blockedName(policy, "EVIL.example.")).toMatchObject({ allowed: false, closedBy: "BLOCKED_DOMAINS" });
    expect(blockedName(policy, "notevil.example")).toBeNull();
  });

  it("opens only the domains of an allow-list once one is set, and local origins as ALLOWED_ORIGINS says", () => {
    const only = { ...policy, allowedDomains: ["docs.example", "evil.example"] };
    expect(judge(only, "docs.example", 443, "93.184.216.34")).toEqual({ allowed: true });
    expect(judge(only, "API.docs.example.", 443, "93.184.216.34")).toEqual({ allowed: true });
    expect(judge(only, "elsewhere.example", 443, "93.184.216.34")).toEqual({ allowed: false, why: "elsewhere.example is not on the allow-list (ALLOWED_DOMAINS)", closedBy: "ALLOWED_DOMAINS" });
    expect(outsideAllowed(only, "elsewhere.example")).toMatchObject({ closedBy: "ALLOWED_DOMAINS" });
    expect(outsideAllowed(only, "docs.example.")).toBeNull();
    // A public address written as such is judged as a name would be.
    expect(judge(only, "93.184.216.34", 80, "93.184.216.34")).toMatchObject({ allowed: false, closedBy: "ALLOWED_DOMAINS" });
    // The block-list still wins.
    expect(judge(only, "www.evil.example", 443, "93.184.216.34")).toMatchObject({ allowed: false, closedBy: "BLOCKED_DOMAINS" });
    // This machine and private networks go by ALLOWED_ORIGINS, by address or by the names it lists.
    expect(judge(only, "127.0.0.1", 3000, "127.0.0.1")).toEqual({ allowed: true });
    expect(judge(only, "localhost", 5173, "127.0.0.1")).toEqual({ allowed: true });
    expect(judge(only, "127.0.0.1", 3001, "127.0.0.1")).toMatchObject({ allowed: false, local: true });
    // EasyAgentCU's own server stays its own, by any name.
    expect(judge(only, "mybox", 8000, "10.1.2.3")).toMatchObject({ allowed: false, own: true });
  });
});
