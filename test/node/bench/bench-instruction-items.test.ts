import { describe, expect, it } from "vitest";
import { itemOf, itemsOfDump, OTHER } from "../../../bench/instruction-items";

// A dump as callgrind writes one (--dump-instr=no): each function's own lines, and after
// each calls= line the callee's inclusive cost, which is the callee's, not the caller's.
const DUMP = `# callgrind format
events: Ir
summary: 1111

ob=(1) /usr/lib/x86_64-linux-gnu/libc.so.6
fl=(1) ???
fn=(1) __memcpy_avx_unaligned_erms
0 100
ob=(2) /node_modules/@cloudflare/workerd-linux-64/bin/workerd
fl=(2) ???
fn=(2) kj::HttpHeaders::addPtrPtr(kj::StringPtr, kj::StringPtr)
0 10
+2 20
cob=(1)
cfi=(1)
cfn=(1)
calls=3 0
0 300
fn=(3) Builtins_GetNamedPropertyHandler
0 1
ob=(3) ???
fl=(3) ???
fn=(4) 0x00003a2b00c01234
0 5
fn=(2)
* 75
`;

describe("the bench's instructions item by item", () => {
  it("counts each function's own instructions in its item, not its callees'", () => {
    const items = itemsOfDump(DUMP);
    expect(Object.fromEntries(items)).toEqual({
      "Memory: allocation and copies": 100,
      "HTTP headers": 105,
      "JavaScript, interpreted": 1,
      "JavaScript, compiled at run time": 5,
    });
  });

  it("takes a nameless address for V8's compiled code only outside any file", () => {
    expect(itemOf("0x00003a2b00c01234", "???")).toBe("JavaScript, compiled at run time");
    expect(itemOf("0x000000000001ab70", "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2")).toBe(OTHER);
    expect(itemOf("v8::internal::Scavenger::Process(v8::JobDelegate*)", "workerd")).toBe("Garbage collection");
  });
});
