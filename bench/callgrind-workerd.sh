#!/bin/sh
# For `npm run bench`, in place of workerd (MINIFLARE_WORKERD_PATH): the
# Worker's workerd, the one wrangler dev gives an inspector, runs under callgrind, which
# counts the instructions it executes; wrangler dev's proxy runs as it is. Each counted
# process leaves its pid in BENCH_CALLGRIND_DIR (exec keeps the pid).
for arg in "$@"; do
  case "$arg" in
  --inspector-addr*)
    echo "$$" >"$BENCH_CALLGRIND_DIR/workerd.$$"
    # V8 writes the machine code it runs: callgrind must look for code written anywhere. A
    # dump per thread: the bench counts the Worker's own thread (./callgrind.ts says why).
    exec valgrind --tool=callgrind --smc-check=all-non-file --dump-instr=no --collect-jumps=no --separate-threads=yes \
      --callgrind-out-file="$BENCH_CALLGRIND_DIR/callgrind.%p" --log-file="$BENCH_CALLGRIND_DIR/valgrind.%p.log" \
      "$BENCH_WORKERD" "$@"
    ;;
  esac
done
exec "$BENCH_WORKERD" "$@"
