/** One sample of a scrape: metric name, labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** A parsed scrape: its samples, and each metric family's TYPE and HELP. */
export interface Exposition {
  samples: Sample[];
  types: Map<string, string>;
  help: Map<string, string>;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+(-?\d+))?$/;
const LABEL = /\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*(?:,|$)/y;

/**
 * Parses the Prometheus text exposition format 0.0.4 strictly: every line must be a comment,
 * `# HELP`/`# TYPE`, a well-formed sample, or blank; anything else throws, naming the line.
 */
export function parseExposition(text: string): Exposition {
  const out: Exposition = { samples: [], types: new Map(), help: new Map() };
  for (const [i, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    if (line.startsWith('#')) {
      const m = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*) (.*)$/.exec(line);
      if (m?.[1] === 'TYPE') {
        if (!/^(counter|gauge|histogram|summary|untyped)$/.test(m[3]!)) throw new Error(`line ${i + 1}: unknown TYPE ${m[3]}`);
        out.types.set(m[2]!, m[3]!);
      } else if (m?.[1] === 'HELP') out.help.set(m[2]!, m[3]!);
      continue;
    }
    const m = SAMPLE.exec(line);
    if (!m) throw new Error(`line ${i + 1} is not a sample: ${line}`);
    const labels: Record<string, string> = {};
    if (m[2]) {
      LABEL.lastIndex = 0;
      while (LABEL.lastIndex < m[2].length) {
        const at = LABEL.lastIndex;
        const l = LABEL.exec(m[2]);
        if (!l || LABEL.lastIndex === at) throw new Error(`line ${i + 1}: bad labels {${m[2]}}`);
        labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      }
    }
    // Prometheus reads values with Go's ParseFloat, which takes NaN and Inf in any case (prom-client writes `Nan`).
    const v = m[3]!.toLowerCase();
    const value = v === '+inf' || v === 'inf' ? Infinity : v === '-inf' ? -Infinity : v === 'nan' ? NaN : Number(m[3]);
    if (Number.isNaN(value) && v !== 'nan') throw new Error(`line ${i + 1}: bad value ${m[3]}`);
    out.samples.push({ name: m[1]!, labels, value });
  }
  return out;
}

/** The value of the one sample with this name whose labels include `labels` (0 when none; throws when several). */
export function sampleValue(exposition: Exposition, name: string, labels: Record<string, string> = {}): number {
  const found = exposition.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}
