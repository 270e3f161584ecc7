// The V8 flags of every workerd the bench runs: `npm run bench` (./run.ts) and `npm run
// bench:tiering` (./tiering.ts), so that the second sees the code the first counts.
// Both workerds run V8 on the Worker's thread alone: its compilers and its collector work
// where the requests make them work, counted with them, rather than on helper threads that
// finish when the machine lets them (bench/README.md). The full collection before each load
// (./collect.ts) reduces memory: without the two flush flags, it would throw away the compiled
// code of every function, to be compiled again in the load. The two seeds are V8's, fixed
// rather than drawn per process: its hash tables then fill alike in every run.
export const BENCH_V8_FLAGS = [
  "--single-threaded",
  "--no-flush-bytecode",
  "--no-flush-baseline-code",
  "--hash-seed=1",
  "--random-seed=1",
].join(" ");
