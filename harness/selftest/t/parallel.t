#!/bin/sh
# Parallel safety: running the case binaries as many at once as
# harness/check does by default (twice the cores) gives the same verdict for
# every test as running them one after another.
. "$(dirname "$0")/../lib.sh"
plan 2

"$top/harness/check" --quiet --no-hygiene --results "$scratch/r" --run-id serial \
	--jobs 1 > /dev/null 2>&1
"$top/harness/check" --quiet --no-hygiene --results "$scratch/r" --run-id parallel \
	> /dev/null 2>&1
"$top/harness/verdicts" "$scratch/r/serial" > "$scratch/serial"
"$top/harness/verdicts" "$scratch/r/parallel" > "$scratch/parallel"
is "the parallel run reports as many tests" \
	"$(wc -l < "$scratch/parallel")" "$(wc -l < "$scratch/serial")"
diff "$scratch/serial" "$scratch/parallel" > "$scratch/diff"
is "every verdict is the same" $? 0
sed 's/^/# /' "$scratch/diff" >&2
done_testing
