// A name a received file may be kept and offered under: the last part of whatever it came with,
// without control characters or characters a file system or a Content-Disposition trips on.

const MAX_NAME_CHARS = 200;

/** `../../etc/passwd` → `passwd`; `a\u0000b<c>.pdf` → `a_b_c_.pdf`; nothing usable → `download`. */
export function safeFileName(name: string): string {
  const last = name.split(/[/\\]/).pop() ?? "";
  const cleaned = last
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, "_")
    .replace(/^[.\s]+|[.\s]+$/g, "")
    .slice(-MAX_NAME_CHARS);
  return cleaned || "download";
}
