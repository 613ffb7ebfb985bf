/** A clock the test moves by hand: pass `clock.now` wherever code takes an injectable `now`. */
export class ManualClock {
  constructor(public time = 1_000_000) {}

  readonly now = (): number => this.time;

  advance(ms: number): void {
    this.time += ms;
  }
}
