// Durations on the scripts' command lines: key expiry and overlap (scripts/keys.ts), a
// rollout's soak time (scripts/deploy.ts).

export const DURATION = /^(\d{1,9})(s|m|h|d)$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** Milliseconds of a duration such as 90s, 15m, 12h or 30d; throws for anything else or zero. */
export const parseDuration = (text: string, option: string): number => {
  const [, amount, unit] = DURATION.exec(text) ?? [];
  const ms = Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
  if (!(ms > 0)) throw new Error(`${option} must be a duration such as 90s, 15m, 12h or 30d, not '${text}'.`);
  return ms;
};
