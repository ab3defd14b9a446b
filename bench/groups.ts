/** The compared scenarios: rows of one group are put side by side and compared with json-server's row. */
export const GROUPS = {
  getById: { id: 'get-id', label: 'GET /characters/{id} (1k rows)' },
  list: { id: 'list', label: 'GET /characters?limit=20&sort=name (1k rows)' },
  post1k: { id: 'post-1k', label: 'POST /characters, 1k existing rows' },
  post100k: { id: 'post-100k', label: 'POST /characters, 100k existing rows' },
  post1m: { id: 'post-1m', label: 'POST /characters, 1M existing rows' },
  filtered1m: { id: 'filtered-1m', label: 'GET /characters?limit=20&sort=name&name[startsWith]=C (1M rows)' },
  filtered1mUncached: { id: 'filtered-1m-uncached', label: 'GET /characters?limit=20&sort=name&name[startsWith]=C&number[ne]={n} (1M rows, a new URL each request)' },
  webhooks: { id: 'webhooks', label: 'POST /webhooks/{source} (Standard Webhooks, verified)' },
  sseFanout: { id: 'sse-fanout', label: 'GET /events/stream: 1 write to 1,000 SSE clients' },
  memory: { id: 'memory', label: 'Memory: RSS after 10k, then after 1M GET /characters/{id}' },
  outbound: { id: 'outbound', label: 'Outbound webhooks: POST /characters → signed delivery to a local receiver' },
  pgInsert: { id: 'pg-insert', label: 'single-row INSERT commits, 32 clients (pgbench, the database alone)' },
  put: { id: 'put', label: 'PUT /characters/{id} (1k rows, a new name each request)' },
  patch: { id: 'patch', label: 'PATCH /characters/{id} (1k rows, a new number each request)' },
  delete: { id: 'delete', label: 'DELETE /characters/{id} (each request a different seeded record)' },
  cluster: { id: 'cluster', label: 'Cluster soak: 3 nodes on PostgreSQL behind HAProxy, nodes SIGKILLed and restarted' },
  retention: { id: 'retention', label: 'Retention: 1M event writes, keeping the newest 100k (database size)' },
} as const;

/** Server names as the table shows them. */
export const SERVERS = {
  raw: 'node:http (ceiling)',
  jsonServer: 'json-server 0.17.4',
  restwell: 'Restwell (SQLite)',
  postgres: 'Restwell (PostgreSQL)',
  pgbench: 'pgbench (PostgreSQL)',
  workers: 'Restwell --workers 2',
  apiKey: 'Restwell + API key',
  jwt: 'Restwell + JWT',
  pgKey: 'Restwell (PostgreSQL) + API key, no rate limit',
  pgKeyMemoryLimit: 'Restwell (PostgreSQL) + API key, limit in memory',
  pgKeyDatabaseLimit: 'Restwell (PostgreSQL) + API key, limit in PostgreSQL',
  pgKeyRedisLimit: 'Restwell (PostgreSQL) + API key, limit in Redis',
} as const;
