// Every test the docs cite, by page (one file each): ./citation.ts says what an entry holds.

import { API_CALLERS } from "./api-callers";
import { API_DOCUMENT } from "./api-document";
import { ARCHITECTURE } from "./architecture";
import { ARCHITECTURE_FAULTS } from "./architecture-faults";
import { BENCH_README } from "./bench-readme";
import { DEVELOPMENT } from "./development";
import { KEYS } from "./keys";
import { MCP } from "./mcp";
import { MCP_SIGN_IN } from "./mcp-sign-in";
import { MCP_STEP_UP } from "./mcp-step-up";
import { MCP_TOKENS } from "./mcp-tokens";
import { OPERATIONS } from "./operations";

export type { Citation, Edit } from "./citation";

export const CITATIONS = [
  ...BENCH_README,
  ...API_DOCUMENT,
  ...API_CALLERS,
  ...ARCHITECTURE,
  ...ARCHITECTURE_FAULTS,
  ...DEVELOPMENT,
  ...KEYS,
  ...MCP,
  ...MCP_SIGN_IN,
  ...MCP_STEP_UP,
  ...MCP_TOKENS,
  ...OPERATIONS,
];
