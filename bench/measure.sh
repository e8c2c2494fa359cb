# Sourced by the benchmarks: measure CMD… runs CMD under /usr/bin/time -v with its standard
# output in $WORK/out.txt and its standard error in $WORK/err.txt, and prints "seconds
# kilobytes" (wall clock and peak RSS). A failing command stops the benchmark with its output
# shown.
measure() {
  if ! /usr/bin/time -v -o "$WORK/time.txt" "$@" >"$WORK/out.txt" 2>"$WORK/err.txt"; then
    echo "error: $* failed:" >&2
    tail -n 5 "$WORK/out.txt" "$WORK/err.txt" >&2
    exit 1
  fi
  awk -F': ' '
    /Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i] }
    /Maximum resident set size/ { kb = $2 }
    END { printf "%.2f %d\n", s, kb }' "$WORK/time.txt"
}
