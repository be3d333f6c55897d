// Where a long text is cut to fit: at its last line break within the limit, unless that would keep
// less than half of it, then at the limit itself.
export function keptWithin(text: string, max: number): string {
  if (text.length <= max) return text;
  const line = text.lastIndexOf("\n", max);
  return text.slice(0, line > max / 2 ? line : max);
}

/** The text cut to `max` characters as `keptWithin` cuts it, saying how much was cut. */
export function cutNoted(text: string, max: number): string {
  const kept = keptWithin(text, max);
  return kept === text ? text : `${kept}… [${text.length - kept.length} more characters cut]`;
}
