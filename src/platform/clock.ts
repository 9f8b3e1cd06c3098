/** Where "now" comes from; tests inject their own to cross time limits without waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
