// The ceiling: plain node:http answering every request with one fixed JSON body (a request body,
// when there is one, is read to the end first, as any real server must). Usage: node raw-http-server.mjs PORT
import { createServer } from 'node:http';

const body = Buffer.from(
  JSON.stringify({
    id: 1,
    name: 'Homer Simpson',
    number: '+1-555-0100',
    version: 1,
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    _links: { self: { href: '/characters/1' }, collection: { href: '/characters' } },
  }),
);

const server = createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
});
server.listen(Number(process.argv[2]), '127.0.0.1');
process.on('SIGTERM', () => process.exit(0));
