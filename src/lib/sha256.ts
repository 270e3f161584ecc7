/** SHA-256 of a text, in hex: how API keys are stored, how idempotent requests are compared, the OpenAPI ETag. */
export const sha256Hex = async (text: string): Promise<string> => {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  // A plain loop: on every authenticated request, and Array.from(...).join cost more than the digest.
  let hex = "";
  for (const byte of new Uint8Array(digest)) hex += (byte < 16 ? "0" : "") + byte.toString(16);
  return hex;
};
