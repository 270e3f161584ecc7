// What makes a text show as something other than it holds, or as nothing: the rules that a
// pet's name (src/schemas.ts), a key's label (scripts/lib/key-arguments.ts) and the name an
// app registers at the sign-in (src/auth-server/client-metadata.ts) share, and how a text
// written by a stranger is shown in a bounded space.

// Refused, a character makes a text display as something other than what is stored
// ("abc\u202Egpj.exe"): control characters, bidirectional controls, line and paragraph separators.
const MISLEADING_CHARACTER = /[\p{Cc}\u202A-\u202E\u2066-\u2069\u2028\u2029]/u;
// "Visible" keeps out texts that show as nothing: blank, filler, a lone combining mark.
const VISIBLE_CHARACTER = /[^\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cc}\p{M}\u2800]/u;

/** Whether the text holds a control character, a bidirectional control, or a line or paragraph separator. */
export const hasMisleadingCharacter = (text: string) => MISLEADING_CHARACTER.test(text);

/** Whether the text shows as something: it has a character that is not blank, filler or a lone mark. */
export const hasVisibleCharacter = (text: string) => VISIBLE_CHARACTER.test(text);

/**
 * At most `maxCharacters` of a text that came from a stranger, marked where it was cut, so
 * that an error message, or a name on a page, stays short whatever the request held.
 */
export const excerpt = (text: string, maxCharacters = 40): string => {
  const characters = Array.from(text);
  return characters.length <= maxCharacters ? text : `${characters.slice(0, maxCharacters).join("")}…`;
};
