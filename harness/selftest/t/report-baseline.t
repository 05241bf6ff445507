#!/bin/sh
# harness/report --baseline across a kernel update (F35): the host column
# of two runs pairs whatever its release (where=host in meta), so a CI
# runner's image bump is a comparison, not a column of "REGRESSION absent
# -> absent"; a kernel the new run lacks is worded "not run in the new run".
. "$(dirname "$0")/../lib.sh"
report=$top/harness/report
plan 10

run() {	# run DIR KERNEL WHERE [STATUS-OF-uts/two]
	for p in root user; do
		mkdir -p "$1/$2/$p"
		printf 'TAP version 13\n1..2\nok 1 global.one\n%s 2 global.two\n' "${4:-ok}" \
			> "$1/$2/$p/uts.tap"
	done
	printf 'kernel=%s\nwhere=%s\npasses=root user\n' "$2" "$3" > "$1/$2/meta"
}
run "$scratch/old" 6.18.44-fc-v1272 host
run "$scratch/old" 6.1.0-47-amd64 qemu-tcg
run "$scratch/new" 6.8.0-1017-azure host
run "$scratch/new" 6.1.0-47-amd64 qemu-tcg

"$report" --no-expectations --width 0 --baseline "$scratch/old" "$scratch/new" \
	> "$scratch/cmp" 2>&1
is "a host kernel update: exit 0" $? 0
unlike "no REGRESSION for the host column" "$scratch/cmp" '^REGRESSION'
like "the host columns are compared across releases" "$scratch/cmp" \
	'compared old/6\.18\.44-fc-v1272/root -> new/6\.8\.0-1017-azure/root'
like "the guest kernel pairs by its release" "$scratch/cmp" \
	'compared old/6\.1\.0-47-amd64/root -> new/6\.1\.0-47-amd64/root'
unlike "nothing only in one run" "$scratch/cmp" 'only in the (old|new) run'

run "$scratch/new2" 6.8.0-1017-azure host 'not ok'
run "$scratch/new2" 6.1.0-47-amd64 qemu-tcg
"$report" --no-expectations --width 0 --baseline "$scratch/old" "$scratch/new2" \
	> "$scratch/cmp2" 2>&1
is "a real regression on the new host kernel: exit 1" $? 1
like "it names the case and both releases" "$scratch/cmp2" \
	'^REGRESSION 6\.18\.44-fc-v1272 -> 6\.8\.0-1017-azure/root uts/two: pass -> fail'

run "$scratch/new3" 6.8.0-1017-azure host
"$report" --no-expectations --width 0 --baseline "$scratch/old" "$scratch/new3" \
	> "$scratch/cmp3" 2>&1
is "a guest kernel the new run lacks: exit 1" $? 1
like "worded: not run in the new run" "$scratch/cmp3" \
	'^REGRESSION 6\.1\.0-47-amd64/root \(all cases\): not run in the new run$'
unlike "no absent -> absent" "$scratch/cmp3" 'absent -> absent'
done_testing
