/**
 * One commit stamp (Engine.commitStamp) per turn of the event loop, shared by the cached reads asked
 * during it. A stamp only vouches for a read that arrived before it was taken. The requests whose
 * bytes the poll phase reads are handled right away, and their reads wait here for the stamp taken
 * once that phase is over (setImmediate): every one of them arrived before it, so none can miss a
 * commit acknowledged before it arrived, on any connection or in any process. Under load one read of
 * the stamp (a syscall) then serves all the requests of a turn instead of each paying its own.
 */
export class TurnStamp {
  private pending?: Promise<number>;

  constructor(private readonly stamp: () => number) {}

  /** The stamp taken after every read asked so far in this turn. */
  next(): Promise<number> {
    this.pending ??= new Promise((resolve, reject) =>
      setImmediate(() => {
        this.pending = undefined;
        try {
          resolve(this.stamp());
        } catch (err) {
          reject(err);
        }
      }),
    );
    return this.pending;
  }
}
