const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

/** Decimal units, two decimals, no space: `34.00kB`, as the service formats sizes. */
export function sizeForHuman(bytes: number): string {
  let value = Math.max(0, bytes);
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(2)}${UNITS[unit]}`;
}
