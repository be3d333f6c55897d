// How an amount of US dollars reads wherever it is shown (the web UI, the CLI): short, with as many
// digits as a small amount needs to be more than zero, and nothing at all for an unknown one.

/** `$0.012`, `$1.24`, `<$0.001`; null (show nothing) when the amount is unknown. */
export function formatUsd(amount: number | null): string | null {
  if (amount === null) return null;
  if (amount === 0) return "$0";
  if (amount < 0.001) return "<$0.001";
  if (amount < 0.01) return `$${amount.toFixed(3)}`;
  if (amount < 1) return `$${trimZeros(amount.toFixed(3))}`;
  return `$${amount.toFixed(2)}`;
}

/** A total of costs: unknown (null) as soon as one part is, so that a sum never hides what it leaves out. */
export function addCosts(a: number | null, b: number | null): number | null {
  return a === null || b === null ? null : a + b;
}

function trimZeros(fixed: string): string {
  return fixed.replace(/(\.\d{2}\d*?)0+$/, "$1");
}
