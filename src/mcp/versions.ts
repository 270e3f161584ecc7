// The protocol versions this server speaks, and which one a request speaks. A modern request
// (revision 2026-07-28) carries its version and the client's capabilities in params._meta,
// and mirrors its version, method and tool name into the MCP-Protocol-Version, Mcp-Method
// and Mcp-Name headers, which must agree with the body (-32020, HeaderMismatch); a missing
// required _meta field is -32602. A legacy request (2025-11-25, 2025-06-18) belongs to an
// `initialize` handshake, and every one but `initialize` names its version in the header. A
// version this server does not speak is -32022 (UnsupportedProtocolVersion), naming those it does.
import { INVALID_PARAMS, isObject, type Reply, readableId, rpcError } from "./json-rpc";

/** Revisions whose every request says its version in _meta. */
const MODERN_VERSIONS = ["2026-07-28"];
/**
 * Revisions of the initialize handshake. 2025-03-26 is not offered: it requires JSON-RPC
 * batches, which 2025-06-18 removed, and a batch would run many operations on one request's
 * count. 2024-11-05 defined HTTP+SSE, which is not served here.
 */
export const LEGACY_VERSIONS = ["2025-11-25", "2025-06-18"];
/** Every version this server speaks, newest first. */
export const SUPPORTED_VERSIONS = [...MODERN_VERSIONS, ...LEGACY_VERSIONS];

const HEADER_MISMATCH = -32020;
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

const META = "io.modelcontextprotocol";
/** The _meta members a modern request carries, named once (a name made on every read is looked up the slow way). */
const VERSION_MEMBER = `${META}/protocolVersion`;
const CAPABILITIES_MEMBER = `${META}/clientCapabilities`;

export type Era = { modern: true; version: string } | { modern: false };
/** The request's era, or the 400 that refuses it. */
export type EraOrRefusal = Era | { refusal: Reply };

const unsupportedVersion = (message: unknown, requested: string): Reply =>
  rpcError(
    readableId(message),
    UNSUPPORTED_PROTOCOL_VERSION,
    `Unsupported protocol version: this server speaks ${SUPPORTED_VERSIONS.join(", ")}.`,
    { supported: SUPPORTED_VERSIONS, requested: requested.slice(0, 64) },
  );

const mismatch = (message: unknown, text: string) => ({
  refusal: rpcError(readableId(message), HEADER_MISMATCH, `Header mismatch: ${text}`),
});

/** A header value as sent, or, in the Base64 sentinel form (=?base64?...?=), decoded; undefined when it does not decode. */
const decoded = (value: string): string | undefined => {
  const encoded = /^=\?base64\?([A-Za-z0-9+/]*={0,2})\?=$/.exec(value)?.[1];
  if (encoded === undefined) return value;
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(
      Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)),
    );
  } catch {
    return undefined;
  }
};

const missing = (message: unknown, field: string) => ({
  refusal: rpcError(readableId(message), INVALID_PARAMS, `_meta must hold ${META}/${field}.`),
});

/** The request's era, from its _meta and its headers (`header` reads one by name), or the refusal of a request that does not agree with itself. */
export const eraOf = (message: unknown, header: (name: string) => string | undefined): EraOrRefusal => {
  const params = isObject(message) && isObject(message.params) ? message.params : {};
  const meta = isObject(params._meta) ? params._meta : {};
  const version = meta[VERSION_MEMBER];
  const sent = header("MCP-Protocol-Version");
  if (sent === undefined) {
    // Only the handshake's opening may come without it: a request of 2025-06-18 or later
    // repeats its version, and one that does not would be 2025-03-26's, not offered here.
    if (version === undefined && isObject(message) && message.method === "initialize") return { modern: false };
    return mismatch(message, "MCP-Protocol-Version is required on every request but initialize.");
  }
  if (version === undefined) {
    if (LEGACY_VERSIONS.includes(sent)) return { modern: false };
    // A version of this era without its required field in _meta is malformed (-32602).
    if (MODERN_VERSIONS.includes(sent)) return missing(message, "protocolVersion");
    return { refusal: unsupportedVersion(message, sent) };
  }
  if (typeof version !== "string") {
    return {
      refusal: rpcError(readableId(message), INVALID_PARAMS, `_meta's ${META}/protocolVersion must be a string.`),
    };
  }
  if (sent !== version)
    return mismatch(message, `MCP-Protocol-Version must repeat _meta's protocolVersion (${version.slice(0, 64)}).`);
  // A version of the handshake's era named in _meta as well: that era's request, with more metadata.
  if (LEGACY_VERSIONS.includes(version)) return { modern: false };
  if (!MODERN_VERSIONS.includes(version)) return { refusal: unsupportedVersion(message, version) };
  // Requests carry these; a notification has no header requirements in this revision.
  if (readableId(message) !== undefined) {
    const method = isObject(message) ? message.method : undefined;
    if (header("Mcp-Method") !== method) return mismatch(message, "Mcp-Method must repeat the message's method.");
    if (method === "tools/call") {
      const name = header("Mcp-Name");
      if (name === undefined || decoded(name) !== params.name)
        return mismatch(message, "Mcp-Name must repeat the tool's name.");
    }
    if (!isObject(meta[CAPABILITIES_MEMBER])) return missing(message, "clientCapabilities");
  }
  return { modern: true, version };
};
