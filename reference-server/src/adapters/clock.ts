/** Time as the services see it; tests of pure logic pass their own. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Microseconds since the epoch, for join order. */
  nowMicros(): number;
}

const origin = Date.now() * 1000 - Math.round(performance.now() * 1000);

export const systemClock: Clock = {
  now: () => Date.now(),
  nowMicros: () => origin + Math.round(performance.now() * 1000),
};
