// Decodes `data:` URLs, the form in which attachments arrive.

export function decodeDataUrl(url: string): { mimeType: string; data: Buffer } | null {
  const match = /^data:([^,]*?),(.*)$/s.exec(url);
  if (!match) return null;
  const meta = match[1] ?? "";
  const payload = match[2] ?? "";
  const base64 = meta.endsWith(";base64");
  const mimeType = (base64 ? meta.slice(0, -";base64".length) : meta).split(";")[0] || "text/plain";
  try {
    const data = base64 ? Buffer.from(payload, "base64") : Buffer.from(decodeURIComponent(payload), "utf8");
    return { mimeType, data };
  } catch {
    return null;
  }
}
