// Medians, percentiles and number formatting for the report.

export function median(values) {
  const s = Float64Array.from(values).sort();
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The value below which a fraction `p` of `values` lie (nearest rank). */
export function percentile(values, p) {
  const s = Float64Array.from(values).sort();
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
}

export function max(values) {
  let m = -Infinity;
  for (const v of values) if (v > m) m = v;
  return m;
}

/** Four significant digits, as a number (for JSON). */
export const sig = (x) => (x == null || !Number.isFinite(x) ? x : +x.toPrecision(4));

/** A ratio for the table: 1.23× (two decimals below 10, one below 100). */
export function times(x) {
  if (x == null || !Number.isFinite(x)) return '–';
  return `${x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0)}×`;
}

/** Milliseconds for the table. */
export function ms(x) {
  if (x == null || !Number.isFinite(x)) return '–';
  return x < 1 ? `${x.toFixed(3)} ms` : x < 100 ? `${x.toFixed(1)} ms` : `${x.toFixed(0)} ms`;
}

/** MB/s (MB = 10^6 bytes). */
export const mbps = (bytes, millis) => bytes / 1e6 / (millis / 1e3);
