import { createSocket, type Socket } from 'node:dgram';
import { isIPv4, isIPv6 } from 'node:net';
import { ipv6Bytes } from '../webhooks/outbound/address-policy.js';

/** A running test DNS server. */
export interface TestDnsServer {
  port: number;
  /** `127.0.0.1:<port>`, as `webhooks.outbound.dnsServers` takes it. */
  address: string;
  /** Names asked for, in order (lower case, no trailing dot). */
  queries: string[];
  close(): Promise<void>;
}

const TYPE_A = 1;
const TYPE_AAAA = 28;

/** The name and type of the first question, and where the question ends. */
function readQuestion(msg: Buffer): { name: string; type: number; end: number } | undefined {
  const labels: string[] = [];
  let at = 12;
  while (at < msg.length) {
    const len = msg[at]!;
    if (len === 0) break;
    if (len > 63) return undefined; // queries carry no compression pointers
    labels.push(msg.toString('latin1', at + 1, at + 1 + len));
    at += 1 + len;
  }
  if (at + 5 > msg.length) return undefined;
  return { name: labels.join('.').toLowerCase(), type: msg.readUInt16BE(at + 1), end: at + 5 };
}

function answer(query: Buffer, records: Record<string, string[]>): Buffer | undefined {
  if (query.length < 12) return undefined;
  const q = readQuestion(query);
  if (!q) return undefined;
  const known = Object.prototype.hasOwnProperty.call(records, q.name);
  const addresses = (records[q.name] ?? []).filter((a) => (q.type === TYPE_A ? isIPv4(a) : q.type === TYPE_AAAA ? isIPv6(a) : false));
  const header = Buffer.alloc(12);
  query.copy(header, 0, 0, 2); // the id
  // QR=1, opcode 0, AA=1, RD copied; RA=1; rcode 3 (NXDOMAIN) for names not in the map.
  header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | 0x0080 | (known ? 0 : 3), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(addresses.length, 6);
  const rrs = addresses.map((a) => {
    const data = q.type === TYPE_A ? Buffer.from(a.split('.').map(Number)) : ipv6Bytes(a);
    const rr = Buffer.alloc(12);
    rr.writeUInt16BE(0xc00c, 0); // a pointer to the question's name
    rr.writeUInt16BE(q.type, 2);
    rr.writeUInt16BE(1, 4); // class IN
    rr.writeUInt32BE(5, 6); // a short TTL: tests change answers
    rr.writeUInt16BE(data.length, 10);
    return Buffer.concat([rr, data]);
  });
  return Buffer.concat([header, query.subarray(12, q.end), ...rrs]);
}

/**
 * A real DNS server over UDP on 127.0.0.1 for tests: answers A and AAAA questions from `records`
 * (name → addresses, either family), NXDOMAIN for names not there. Listens on a free port.
 */
export async function startDnsServer(records: Record<string, string[]>): Promise<TestDnsServer> {
  const map = Object.fromEntries(Object.entries(records).map(([name, addresses]) => [name.toLowerCase().replace(/\.$/, ''), addresses]));
  const socket: Socket = createSocket('udp4');
  const queries: string[] = [];
  socket.on('message', (msg, rinfo) => {
    const q = readQuestion(msg);
    if (q) queries.push(q.name);
    const reply = answer(msg, map);
    if (reply) socket.send(reply, rinfo.port, rinfo.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const port = socket.address().port;
  return {
    port,
    address: `127.0.0.1:${port}`,
    queries,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
