// The scopes a sign-in grants, decided before the page is shown so that the page shows them:
// each scope asked for is one this API has (read, write), or the request is refused
// (invalid_scope) before anything is shown; offline_access, which hosts add to ask for a
// refresh token, asks for nothing here (one is always given). The grant is what was asked,
// narrowed to what the key may do; nothing asked is what the key may do.
import { isScope, SCOPES, type Scope } from "../keys/api-key";

/** What a host may add to its scopes without asking for access: a refresh token, always given here. */
const REFRESH_SCOPE = "offline_access";

/** The longest part of an unknown scope that a refusal repeats. */
const SHOWN_SCOPE_LENGTH = 64;

/** The scopes asked for, in this API's order, or the invalid_scope description of one it does not have. */
export const askedScopes = (requested: readonly string[]): Scope[] | { unknown: string } => {
  const unknown = requested.find((scope) => scope !== REFRESH_SCOPE && !isScope(scope));
  if (unknown !== undefined) {
    return {
      unknown: `Unknown scope '${unknown.slice(0, SHOWN_SCOPE_LENGTH)}': this server grants ${SCOPES.join(" and ")}.`,
    };
  }
  return SCOPES.filter((scope) => requested.includes(scope));
};

/** The scopes granted to a key that may do `own`, for `asked` (none asked: all it may do); empty when it may do none of them. */
export const grantedScopes = (own: readonly Scope[], asked: readonly Scope[]): Scope[] =>
  asked.length === 0 ? [...own] : asked.filter((scope) => own.includes(scope));
