// A reference point between raw node:http and Restwell: Fastify 5 with one GET route over an
// in-memory Map and one POST route, no hooks, no store. Usage: node bare-fastify.mjs PORT
import Fastify from 'fastify';

const records = new Map();
for (let id = 1; id <= 1000; id++) {
  records.set(String(id), {
    id,
    name: `Character ${id}`,
    number: '+1-555-0100',
    version: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    _links: { self: { href: `/characters/${id}` }, collection: { href: '/characters' } },
  });
}
let next = 1001;
const app = Fastify({ logger: false });
app.get('/characters/:id', async (request, reply) => {
  const record = records.get(request.params.id);
  if (!record) return reply.code(404).send({ title: 'not found' });
  return record;
});
app.post('/characters', async (request, reply) => {
  const id = next++;
  const record = { id, ...request.body, version: 1 };
  return reply.code(201).header('location', `/characters/${id}`).send(record);
});
await app.listen({ port: Number(process.argv[2]), host: '127.0.0.1' });
process.on('SIGTERM', () => process.exit(0));
