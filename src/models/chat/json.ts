// Streamed chunks and tool arguments are JSON text that a model server wrote: parsed without throwing.

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
