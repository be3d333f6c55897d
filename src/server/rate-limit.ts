// Each client address gets a bucket of requests that refills at RATE_LIMIT a second and holds
// 15 seconds' worth, enough for the UI to load a long chat's frames at once. A client that empties
// it is answered 429 with Retry-After until it refills; sign-in attempts count too.
import type { MiddlewareHandler } from "hono";
import { getConnInfo } from "@hono/node-server/conninfo";

const BURST_SECONDS = 15;
/** Buckets kept at most; full ones are forgotten first, since they would start full anyway. */
const MAX_CLIENTS = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

export function rateLimit(perSecond: number, now = () => performance.now()): MiddlewareHandler {
  const capacity = perSecond * BURST_SECONDS;
  const buckets = new Map<string, Bucket>();
  const refill = (bucket: Bucket, time: number) => {
    bucket.tokens = Math.min(capacity, bucket.tokens + ((time - bucket.at) / 1000) * perSecond);
    bucket.at = time;
  };
  return async (c, next) => {
    if (perSecond <= 0) return next();
    const client = getConnInfo(c).remote.address ?? "unknown";
    const time = now();
    let bucket = buckets.get(client);
    if (!bucket) {
      if (buckets.size >= MAX_CLIENTS) forgetFull(buckets, (b) => refill(b, time), capacity);
      bucket = { tokens: capacity, at: time };
      buckets.set(client, bucket);
    }
    refill(bucket, time);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return next();
    }
    const wait = Math.ceil((1 - bucket.tokens) / perSecond);
    c.header("retry-after", String(wait));
    return c.json({ error: { code: "RATE_LIMITED", message: `Too many requests from ${client}: at most ${perSecond} a second. Try again in ${wait} s.` } }, 429);
  };
}

function forgetFull(buckets: Map<string, Bucket>, refill: (bucket: Bucket) => void, capacity: number): void {
  for (const [client, bucket] of buckets) {
    refill(bucket);
    if (bucket.tokens >= capacity) buckets.delete(client);
  }
  // Still full of active clients: forget the oldest rather than grow without bound.
  while (buckets.size >= MAX_CLIENTS) buckets.delete(buckets.keys().next().value!);
}
