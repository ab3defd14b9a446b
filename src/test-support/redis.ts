import { connect } from 'node:net';

/** The Redis every machine of this kind runs; tests over Redis skip when it does not answer. */
export const REDIS_URL = 'redis://127.0.0.1:6379';

/** Whether a Redis server answers PING at REDIS_URL (within two seconds). */
export function redisAnswers(): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(6379, '127.0.0.1');
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => done(d.toString().startsWith('+PONG')));
  });
}
