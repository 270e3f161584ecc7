// A reply as the JSON text that goes on the wire. A tool's result holds its value twice: as
// structuredContent, and as the JSON text of its text rendering (./call.ts). A page of pets is
// most of a reply, so the value is serialized once: its text is written in as
// structuredContent, rather than the value serialized a second time.
import { isObject, type Reply } from "./json-rpc";

/** JSON.stringify(reply); its result's structuredContent, if it has one, written from `text`, which must be that value's JSON text. */
export const replyText = (reply: Reply, text: string | undefined): string => {
  const { result } = reply;
  if (!isObject(result) || result.structuredContent === undefined || text === undefined) return JSON.stringify(reply);
  const { structuredContent: _, ...rest } = result;
  // The result last, so that the text ends with "}}": the result's, then the reply's.
  const head = JSON.stringify({ jsonrpc: reply.jsonrpc, id: reply.id, result: rest }).slice(0, -2);
  return `${head}${head.endsWith("{") ? "" : ","}"structuredContent":${text}}}`;
};
