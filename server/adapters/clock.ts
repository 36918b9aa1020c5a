/** Injectable time, so retention, quota and idempotency windows are tested without waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests move by hand. */
export class ManualClock implements Clock {
  private ms: number;
  constructor(start: Date | string = '2025-01-15T12:00:00.000Z') {
    this.ms = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.ms);
  }
  advance(ms: number): void {
    this.ms += ms;
  }
  set(to: Date | string): void {
    this.ms = new Date(to).getTime();
  }
}
