// JSON-RPC 2.0's shapes as MCP uses them: request ids are strings or integers, never null,
// and an error echoes the id only when the message had one that can be read back.

type Id = string | number;
export type Reply = {
  jsonrpc: "2.0";
  id?: Id;
  result?: unknown;
  error?: { code: number; message: string; data?: unknown };
};

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** A request id as MCP allows one: a string, or an integer (never null). */
export const isId = (id: unknown): id is Id => typeof id === "string" || Number.isSafeInteger(id);

/** The message's id, if it is one that an error can echo. */
export const readableId = (message: unknown): Id | undefined =>
  isObject(message) && isId(message.id) ? message.id : undefined;

/** A JSON-RPC error; without an id when the message had none that can be read back. */
export const rpcError = (id: Id | undefined, code: number, message: string, data?: unknown): Reply => ({
  jsonrpc: "2.0",
  ...(id !== undefined && { id }),
  error: { code, message, ...(data !== undefined && { data }) },
});
