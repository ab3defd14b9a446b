import type { FastifyInstance } from 'fastify';
import type { RetentionWorker } from '../store/retention/retention-worker.js';

/**
 * Ties the retention worker to the app, as the other background workers are: its first pass runs
 * once the app is ready (not awaited: a large backlog is pruned while the server already answers),
 * and it stops, after the batch under way, before the store closes.
 */
export function registerRetention(app: FastifyInstance, worker: RetentionWorker): void {
  worker.log = app.log;
  app.addHook('onReady', async () => worker.start());
  app.addHook('onClose', async () => worker.stop());
}
