/** A start-up failure with a message that says everything: printed as one line, without a stack, exit code 1. */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}

/**
 * What a failed `listen` means for the user, as a StartupError, or the error itself when it is
 * not one of the usual reasons (then it is a bug, and main prints its stack).
 */
export function listenFailure(err: unknown, port: number, host: string): unknown {
  const code = (err as { code?: string }).code;
  const where = `port ${port} on ${host}`;
  if (code === 'EADDRINUSE') return new StartupError(`${where} is already in use; stop the other server or choose another with --port or PORT`);
  if (code === 'EACCES') {
    return new StartupError(`${where} needs privileges this process lacks (ports below 1024 do); choose a port from 1024 up with --port or PORT, or put a reverse proxy in front`);
  }
  if (code === 'EADDRNOTAVAIL') return new StartupError(`${host} is not an address of this machine; choose another with --host or HOST (0.0.0.0 for every interface)`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new StartupError(`the host name ${host} does not resolve; choose another with --host or HOST`);
  return err;
}
