// Runs one task at a time: a request while one runs is remembered (the latest wins) and run once
// it is done, so a burst of restart reasons gives at most one more restart, never a pile of them.
export class SerialRuns<T> {
  private running: Promise<void> | undefined;
  private again: { value: T } | undefined;

  constructor(private readonly task: (value: T) => Promise<void>) {}

  /** Resolves once no run is pending (this one and any asked for meanwhile). */
  run(value: T): Promise<void> {
    if (this.running) {
      this.again = { value };
      return this.running;
    }
    this.running = (async () => {
      let next: { value: T } | undefined = { value };
      while (next) {
        this.again = undefined;
        await this.task(next.value);
        next = this.again;
      }
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }
}
