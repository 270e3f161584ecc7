// Durations on the scripts' command lines: key expiry and overlap (scripts/keys.ts), a
// rollout's soak time (scripts/deploy.ts). Each has a stated maximum, so that none can
// overflow a date or a timer.

export const DURATION = /^(\d{1,9})(s|m|h|d)$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** The longest of each duration: `key:roll --overlap`, `--expires` (a key's life), `ROLLOUT_SOAK`. */
export const MAX_DURATION = { overlap: "30d", expires: "3650d", soak: "24h" } as const;

/**
 * Milliseconds of a duration such as 90s, 15m, 12h or 30d, at most `max` (one of
 * MAX_DURATION); throws for anything else, zero, or more.
 */
export const parseDuration = (text: string, option: string, max: string): number => {
  const milliseconds = (duration: string) => {
    const [, amount, unit] = DURATION.exec(duration) ?? [];
    return Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
  };
  const ms = milliseconds(text);
  if (!(ms > 0)) throw new Error(`${option} must be a duration such as 90s, 15m, 12h or 30d, not '${text}'.`);
  if (ms > milliseconds(max)) throw new Error(`${option} must be at most ${max}, not '${text}'.`);
  return ms;
};
