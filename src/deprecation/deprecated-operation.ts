import { brownoutAt } from "./brownouts";
import { type CountedCall, countDeprecatedCall } from "./usage";

// Deprecated operations, and the life of each as the service runs it: headers on every
// answer (src/http/deprecation-headers.ts), the count of who still calls it (src/deprecation/usage.ts), 410 during the
// brownouts of its setting (src/deprecation/brownouts.ts), and 410 for good from its Sunset
// instant on, with no deploy on the day. The OpenAPI description (src/rest/routes.openapi.ts,
// src/document/headers.openapi.ts) reads its dates and messages from here too.

type Deprecation = {
  /** The operation as a client writes it, in messages. */
  operation: string;
  /** Where its headers go: its route, and any path that tools take for it. */
  paths: readonly string[];
  /** RFC 9745's Deprecation: since when (UTC). */
  deprecatedAt: number;
  /** RFC 8594's Sunset: from when it answers 410 for good (UTC). */
  sunset: number;
  /**
   * The successor, for the Link header: a reference relative to the deprecated operation's
   * URL, so that it resolves behind a gateway's path prefix too; and what a client should do instead.
   */
  successor: { reference: string; advice: string };
  /** The var of wrangler.toml that schedules its brownouts. */
  brownouts: keyof BrownoutSettings;
};

/** wrangler.toml's vars that schedule brownouts, one per deprecated operation. */
type BrownoutSettings = { GET_PET_BROWNOUTS?: string };

/** What a call of a deprecated operation is judged and counted by: its caller, the clock, the settings. */
type DeprecatedCall = CountedCall & { env: BrownoutSettings };

/** Deprecating another operation: one entry here, and `deprecatedOperation("<its id>")` on its route. */
export const DEPRECATIONS = {
  getPet: {
    operation: "GET /v1/pets/{petId}",
    // "/v1/pets/" too: tools that read the document take it for getPet with an empty petId.
    paths: ["/v1/pets/:petId", "/v1/pets/"],
    deprecatedAt: Date.UTC(2026, 10, 21),
    sunset: Date.UTC(2030, 11, 5),
    // From /v1/pets/{petId} (and /v1/pets/), "../pets" is /v1/pets.
    successor: { reference: "../pets", advice: "use GET /v1/pets with the status filter instead" },
    brownouts: "GET_PET_BROWNOUTS",
  },
} as const satisfies Record<string, Deprecation>;

export type DeprecatedOperationId = keyof typeof DEPRECATIONS;

/** The day of the sunset as people write it: "5 December 2030". */
export const sunsetDay = ({ sunset }: Deprecation) =>
  new Date(sunset).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

/** The message of its 410 from the sunset on. */
export const removedMessage = (deprecation: Deprecation) =>
  `${deprecation.operation} was removed on ${sunsetDay(deprecation)}; ${deprecation.successor.advice}.`;

/** The headers on its every answer, errors included: RFC 9745 (as "@" + Unix seconds), RFC 8594, RFC 8288. */
export const deprecationHeaders = ({ deprecatedAt, sunset, successor }: Deprecation) => ({
  Deprecation: `@${deprecatedAt / 1000}`,
  Sunset: new Date(sunset).toUTCString(),
  Link: `<${successor.reference}>; rel="successor-version"`,
});

/**
 * The policy of a deprecated operation, which the operation applies to every call whatever
 * its door: gone from the sunset on, and during a brownout, with the message that says so;
 * every call before the sunset is counted for the usage report. Undefined: the call goes on.
 */
export const goneMessage = (operationId: DeprecatedOperationId, call: DeprecatedCall): string | undefined => {
  const deprecation: Deprecation = DEPRECATIONS[operationId];
  const { now } = call;
  if (now >= deprecation.sunset) return removedMessage(deprecation);
  countDeprecatedCall(call, operationId);
  const brownout = brownoutAt(deprecation.brownouts, call.env[deprecation.brownouts], now);
  if (!brownout) return undefined;
  return `${deprecation.operation} is switched off until ${new Date(brownout.end).toISOString()}, a reminder that it will be removed on ${sunsetDay(deprecation)}; ${deprecation.successor.advice}.`;
};
