// Reads a server-sent event stream (the WHATWG format that OpenAI and Anthropic stream in):
// `event:` and `data:` fields, events separated by a blank line, comments and `id`/`retry` ignored.

export interface SseEvent {
  /** The `event:` field; absent for unnamed events (OpenAI's chunks). */
  event: string | undefined;
  data: string;
}

export async function* readSse(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<SseEvent> {
  const decoder = new TextDecoder();
  let buffer = "";
  let event: string | undefined;
  let data: string[] = [];
  const lines = function* (final: boolean) {
    for (let end = buffer.search(/\r\n|\r|\n/); end >= 0; end = buffer.search(/\r\n|\r|\n/)) {
      // A lone \r at the very end may be the first half of \r\n still in transit.
      if (!final && buffer[end] === "\r" && end === buffer.length - 1) return;
      const line = buffer.slice(0, end);
      buffer = buffer.slice(buffer.startsWith("\r\n", end) ? end + 2 : end + 1);
      yield line;
    }
  };
  const take = (line: string): SseEvent | null => {
    if (line === "") {
      const dispatched = data.length > 0 ? { event, data: data.join("\n") } : null;
      event = undefined;
      data = [];
      return dispatched;
    }
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
    return null;
  };
  for await (const chunk of chunks) {
    buffer += decoder.decode(chunk, { stream: true });
    for (const line of lines(false)) {
      const dispatched = take(line);
      if (dispatched) yield dispatched;
    }
  }
  buffer += decoder.decode();
  for (const line of lines(true)) {
    const dispatched = take(line);
    if (dispatched) yield dispatched;
  }
  // A stream that ends without a final blank line still delivers its last event.
  if (buffer) take(buffer);
  const last = take("");
  if (last) yield last;
}
