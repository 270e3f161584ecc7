// Every test the docs cite, by page (one file each): ./citation.ts says what an entry holds.

import { API_CALLERS } from "./api-callers";
import { API_DOCUMENT } from "./api-document";
import { ARCHITECTURE } from "./architecture";
import { BENCH_README } from "./bench-readme";
import { DEVELOPMENT } from "./development";
import { KEYS } from "./keys";
import { MCP } from "./mcp";
import { OPERATIONS } from "./operations";

export type { Citation, Edit } from "./citation";

export const CITATIONS = [
  ...BENCH_README,
  ...API_DOCUMENT,
  ...API_CALLERS,
  ...ARCHITECTURE,
  ...DEVELOPMENT,
  ...KEYS,
  ...MCP,
  ...OPERATIONS,
];
