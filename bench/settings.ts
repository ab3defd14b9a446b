/**
 * Durations and sizes of one bench run. Full run: every row gets a 5 s warm-up that is thrown away and
 * a 10 s measured window at 32 connections (the connection count the filtered-page target names), each
 * a wrk run; with seeding, the memory row, the 1M-row search rows (PostgreSQL seeded too), the 'logging off' twins and the
 * profiles of missed targets a full run takes about 30 minutes
 * (bench/README.md has the breakdown). POST rows warm up for only 2 s because every
 * warm-up write grows the collection the row is about. `BENCH_QUICK=1` is a smoke run: 1 s + 2 s.
 */
export interface BenchSettings {
  quick: boolean;
  connections: number;
  /** Warm-up seconds for read rows (results discarded). */
  warmup: number;
  /** Warm-up seconds for write rows. */
  writeWarmup: number;
  /** Measured seconds per row. */
  duration: number;
  /** Measured seconds for json-server at 100k rows (no warm-up), which rewrites ~10 MB per POST. */
  slowDuration: number;
  /**
   * wrk threads (`-t`) for every row: 1 (wrk then uses about one core and the server the other), unless
   * `BENCH_WRK_THREADS` says otherwise; the ceiling section probes -t1 against -t2 on raw node:http and
   * switches the run to 2 when that reaches a clearly higher ceiling (5% or more).
   */
  wrkThreads: number;
  /** Whether `BENCH_WRK_THREADS` fixed the thread count (the ceiling section then does not choose). */
  wrkThreadsFixed: boolean;
  /**
   * Rows a ratio target judges are measured in this many rounds, each a raw node:http window and the
   * row's window back to back (the order alternating between rounds), so the ratio compares two servers
   * under the same machine conditions; the row's req/s and latencies are the medians of its windows.
   */
  pairedRounds: number;
  /** Seconds of each window of a paired round. */
  pairedSeconds: number;
  /**
   * Whether a row that misses its target is measured once more under `node --cpu-prof` (its own window,
   * after the judged ones) to print where the time goes. `BENCH_PROFILE=0` turns it off.
   */
  profileMisses: boolean;
  /** Seconds of load the profile of a missed target covers (after a warm-up as long as the row's). */
  profileSeconds: number;
  /** Existing-row counts for the POST scaling rows. */
  sizes: { small: number; medium: number; large: number };
}

/** Settings from the environment: `BENCH_QUICK=1` for a smoke run; `BENCH_CONNECTIONS`, `BENCH_PROFILE=0` to override. */
export function benchSettings(env: NodeJS.ProcessEnv = process.env): BenchSettings {
  const quick = env.BENCH_QUICK === '1';
  const connections = Number(env.BENCH_CONNECTIONS ?? 32);
  return {
    quick,
    connections,
    warmup: quick ? 1 : 5,
    writeWarmup: quick ? 1 : 2,
    duration: quick ? 2 : 10,
    slowDuration: quick ? 3 : 5,
    wrkThreads: Number(env.BENCH_WRK_THREADS ?? 1) || 1,
    wrkThreadsFixed: env.BENCH_WRK_THREADS !== undefined,
    pairedRounds: quick ? 1 : 3,
    pairedSeconds: quick ? 2 : 5,
    profileMisses: env.BENCH_PROFILE !== '0',
    profileSeconds: quick ? 2 : 6,
    sizes: { small: 1_000, medium: 100_000, large: 1_000_000 },
  };
}

/** What every row gets: the settings, a scratch directory and a progress line printer. */
export interface BenchContext {
  settings: BenchSettings;
  work: string;
  progress(line: string): void;
}
