/**
 * The `q` quantile (0..1) of observations counted per bucket (`counts[i]` between `bounds[i-1]` and
 * `bounds[i]`, the last one above every bound), estimated as Prometheus's histogram_quantile does:
 * linearly within the bucket it falls in. Undefined when nothing was counted; a quantile in the
 * open-ended last bucket is the highest bound (the histogram cannot tell more).
 */
export function histogramQuantile(q: number, bounds: readonly number[], counts: readonly number[]): number | undefined {
  let total = 0;
  for (const c of counts) total += c;
  if (total <= 0) return undefined;
  const rank = q * total;
  let below = 0;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i]!;
    if (c > 0 && below + c >= rank) {
      if (i >= bounds.length) return bounds[bounds.length - 1];
      const lower = i === 0 ? 0 : bounds[i - 1]!;
      return lower + (bounds[i]! - lower) * ((rank - below) / c);
    }
    below += c;
  }
  return bounds[bounds.length - 1];
}
