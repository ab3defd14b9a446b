/**
 * A data file that cannot be imported as it is: every problem found, each naming the collection
 * (and row or field) at fault. Thrown before anything is written.
 */
export class ImportError extends Error {
  constructor(readonly problems: string[], source: string) {
    super(problems.length === 1 ? `cannot import ${source}: ${problems[0]}` : `cannot import ${source}:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ImportError';
  }
}
