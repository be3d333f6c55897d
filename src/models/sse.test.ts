import { describe, expect, it } from "vitest";
import { readSse } from "./sse.ts";

async function events(...chunks: string[]) {
  const encoder = new TextEncoder();
  const source = (async function* () {
    for (const chunk of chunks) yield encoder.encode(chunk);
  })();
  const out = [];
  for await (const event of readSse(source)) out.push(event);
  return out;
}

describe("readSse", () => {
  it("reads named and unnamed events split anywhere, with CRLF, comments and multi-line data", async () => {
    expect(
      await events('event: message_start\r\ndata: {"a"', ":1}\r", "\n\r\n: ping\n\ndata: one\ndata: two\n\n", "data: [DONE]\n\n"),
    ).toEqual([
      { event: "message_start", data: '{"a":1}' },
      { event: undefined, data: "one\ntwo" },
      { event: undefined, data: "[DONE]" },
    ]);
  });

  it("keeps a multi-byte character split between chunks and a last event without a blank line", async () => {
    // "data: " is 6 bytes and 你 is 3: the cut at 8 falls inside it.
    const bytes = new TextEncoder().encode("data: 你好\n\ndata: end");
    const source = (async function* () {
      yield bytes.slice(0, 8);
      yield bytes.slice(8);
    })();
    const out = [];
    for await (const event of readSse(source)) out.push(event);
    expect(out).toEqual([
      { event: undefined, data: "你好" },
      { event: undefined, data: "end" },
    ]);
  });
});
