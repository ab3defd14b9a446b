import cluster, { type Worker } from 'node:cluster';

/** How the primary of `serve --workers N` reports what it does. */
export interface SupervisorLog {
  info(line: string): void;
  warn(line: string): void;
}

/**
 * The primary process of `restwell serve --workers N`: forks N workers (each runs the same
 * `serve` command and listens on the shared port, node:cluster balancing connections), replaces
 * a worker that dies, and on SIGTERM/SIGINT passes the signal on and exits once all have closed.
 * Workers are stateless; everything shared lives in the database.
 */
export function superviseWorkers(count: number, log: SupervisorLog, onAllListening: (port: number) => void): Promise<void> {
  let stopping = false;
  let announced = false;
  /** Consecutive early deaths: a worker that cannot start is restarted ever more slowly, not in a tight loop. */
  let crashes = 0;
  const startedAt = new Map<Worker, number>();

  const fork = () => startedAt.set(cluster.fork(), Date.now());
  for (let i = 0; i < count; i++) fork();

  // Announced once every worker listens: until then one worker's death would leave the port unserved.
  const listening = new Set<Worker>();
  cluster.on('listening', (worker, address) => {
    listening.add(worker);
    if (announced || listening.size < count) return;
    announced = true;
    onAllListening(address.port);
  });

  return new Promise((resolve) => {
    cluster.on('exit', (worker, code, signal) => {
      const lived = Date.now() - (startedAt.get(worker) ?? 0);
      startedAt.delete(worker);
      listening.delete(worker);
      if (stopping) {
        if (Object.keys(cluster.workers ?? {}).length === 0) resolve();
        return;
      }
      crashes = lived < 10_000 ? crashes + 1 : 0;
      const delay = Math.min(30_000, crashes <= 1 ? 0 : 500 * 2 ** (crashes - 2));
      log.warn(`worker ${worker.process.pid} exited (${signal ?? `code ${code}`}); starting a replacement${delay ? ` in ${delay / 1000}s` : ''}`);
      setTimeout(() => !stopping && fork(), delay);
    });
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      log.info(`${signal}: stopping ${Object.keys(cluster.workers ?? {}).length} workers`);
      const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
      if (!alive.length) resolve();
      for (const w of alive) w.process.kill('SIGTERM');
    };
    process.on('SIGINT', () => stop('SIGINT'));
    process.on('SIGTERM', () => stop('SIGTERM'));
  });
}

/** True in a process forked by `superviseWorkers`. */
export function isWorker(): boolean {
  return cluster.isWorker;
}
