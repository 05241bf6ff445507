#!/bin/sh
# Parallel safety: running the case binaries two at a time gives the same
# verdict for every test as running them one after another.
. "$(dirname "$0")/../lib.sh"
plan 2

for j in 1 2; do
	"$top/harness/check" --quiet --no-hygiene --results "$scratch/r" --run-id "jobs$j" \
		--jobs $j > /dev/null 2>&1
done
mv "$scratch/r/jobs1" "$scratch/r/serial"
mv "$scratch/r/jobs2" "$scratch/r/parallel"
"$top/harness/verdicts" "$scratch/r/serial" > "$scratch/serial"
"$top/harness/verdicts" "$scratch/r/parallel" > "$scratch/parallel"
is "the parallel run reports as many tests" \
	"$(wc -l < "$scratch/parallel")" "$(wc -l < "$scratch/serial")"
diff "$scratch/serial" "$scratch/parallel" > "$scratch/diff"
is "every verdict is the same" $? 0
sed 's/^/# /' "$scratch/diff" >&2
done_testing
