// Runs before each test file of the worker project (vitest.config.ts). The Worker writes its
// access log with console.log, one JSON line per request (src/http/request-log.ts), and the
// suite makes tens of thousands of requests. Vitest would carry each line out of workerd to
// its own process, only for the run to drop it there: a fifth of the project's CPU time. The
// lines are dropped here instead, inside the runtime; every other line goes on as before. A
// test that reads the log spies on console.log, which sees each line before it is dropped
// (test/worker/http/observability.test.ts).
const ACCESS_LINE = '{"level":"info"';
const DROPPING = Symbol.for("petstore.test.dropsAccessLog");

// The files share one runtime (isolate: false): the first file wraps console.log, once.
if (!(DROPPING in console.log)) {
  const print = console.log;
  console.log = Object.assign(
    (...data: unknown[]) => {
      if (typeof data[0] === "string" && data[0].startsWith(ACCESS_LINE)) return;
      print.apply(console, data);
    },
    { [DROPPING]: true },
  );
}
