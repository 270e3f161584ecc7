// createPet: stores a new pet; with an idempotency key, at most once per caller and key.
import { callerId } from "../keys/api-key";
import type { NewPet, Pet } from "../schemas";
import { cachePet } from "./cache";
import { inOpenSegment, recentlyClosed } from "./open-segment";
import { operation } from "./operation";
import { IDEMPOTENCY_WINDOW_MS, type IdempotentOutcome, insertPet, insertPetOnce, recordedOutcome } from "./queries";
import { Refusal } from "./refusal";

export type CreatePetInput = { pet: NewPet; idempotencyKey?: string | undefined };
/** The pet, and whether it is the one an earlier call with the same key created. */
export type CreatedPet = { pet: Pet; replayed: boolean };

export const createPet = operation(
  "write",
  async ({ db, caller, now }, { pet: newPet, idempotencyKey }: CreatePetInput): Promise<CreatedPet> => {
    if (idempotencyKey === undefined) {
      // Not retried: the insert may have committed before its error reached us.
      const pet = await inOpenSegment(db, now, (position) =>
        db.segment(position).once((session) => insertPet(session, newPet)),
      );
      cachePet(pet);
      return { pet, replayed: false };
    }
    const request = { apiKeyHash: callerId(caller, caller.hash), idempotencyKey, now };
    const { pet, replayed, sameRequest } = await inOpenSegment(
      db,
      now,
      async (position): Promise<IdempotentOutcome> => {
        // A key recorded in a segment closed within the window is answered from there.
        for (const closed of await recentlyClosed(db, position, { now, windowMs: IDEMPOTENCY_WINDOW_MS })) {
          const recorded = await recordedOutcome(db.segment(closed), newPet, request);
          if (recorded) return recorded;
        }
        return insertPetOnce(db.segment(position), newPet, request);
      },
    );
    if (!sameRequest) {
      throw new Refusal(
        "idempotency_key_reused",
        "This Idempotency-Key was already used with a different request body; use a new key for a new pet.",
      );
    }
    cachePet(pet);
    return { pet, replayed };
  },
  // A plain create is never retried, as it may have committed: its caller is told so.
  ({ idempotencyKey }) =>
    idempotencyKey === undefined
      ? {
          advice:
            " The pet may have been created: retry with an Idempotency-Key, so that the retry cannot create it twice.",
          outcome: "503, not retried: may have committed",
        }
      : { advice: "", outcome: "503" },
);
