// src/cursor.ts, which scripts/bench.ts uses to sign a cursor, names the Web Crypto
// type CryptoKey: a global in workerd, but only node:crypto's webcrypto.CryptoKey in
// @types/node 20.
type CryptoKey = import("node:crypto").webcrypto.CryptoKey;
