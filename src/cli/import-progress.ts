import cliProgress from 'cli-progress';

/** Reports a bulk load on stderr: a bar per collection in a terminal, a line a second otherwise, and a summary line each. */
export interface ImportProgress {
  onProgress(collection: string, written: number): void;
  /** Ends the last collection's report (after the commit). */
  finish(): void;
}

/**
 * A progress reporter for collections of known sizes. In a terminal, a cli-progress bar per
 * collection (redrawn from inside the load, which on SQLite runs without yielding to the event
 * loop: stderr on a TTY is written synchronously); elsewhere (CI logs, pipes) a plain line at most
 * once a second. Either way, a summary line per collection: its rows and seconds.
 */
export function importProgress(totals: Map<string, number>, stream: NodeJS.WriteStream = process.stderr): ImportProgress {
  const tty = stream.isTTY === true;
  let current: { name: string; started: number; written: number; bar?: cliProgress.SingleBar } | undefined;
  let lastLine = 0;
  const end = () => {
    if (!current) return;
    current.bar?.stop();
    const seconds = (performance.now() - current.started) / 1000;
    stream.write(`${current.name}: ${current.written} row${current.written === 1 ? '' : 's'} in ${seconds.toFixed(2)} s\n`);
    current = undefined;
  };
  return {
    onProgress(name, written) {
      if (current?.name !== name) {
        end();
        const total = totals.get(name) ?? written;
        current = { name, started: performance.now(), written };
        if (tty && total > 0) {
          current.bar = new cliProgress.SingleBar({ stream, format: `${name} [{bar}] {percentage}% | {value}/{total} rows | {duration}s`, hideCursor: true }, cliProgress.Presets.shades_classic);
          current.bar.start(total, written);
        }
        lastLine = performance.now();
      }
      current.written = written;
      if (current.bar) current.bar.update(written);
      else if (!tty && performance.now() - lastLine >= 1000) {
        lastLine = performance.now();
        stream.write(`${name}: ${written}/${totals.get(name) ?? '?'} rows\n`);
      }
    },
    finish: end,
  };
}
