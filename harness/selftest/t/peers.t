#!/bin/sh
# harness/peers: finds the peer binaries (--peers, --only, --list), refuses what it cannot
# do with exit 2 and a reason, and on the host runs every binary even after one that gives
# up ("Bail out!" would stop prove), with the TAP of each in RESULTS/RUN-ID/KERNEL/root.
. "$(dirname "$0")/../lib.sh"
plan 11
p=$scratch/kit
mkdir -p "$p/kselftest-bin" "$p/ltp-bin"
printf '#!/bin/sh\necho "1..1"\necho "Bail out! gave up"\nexit 1\n' > "$p/kselftest-bin/a_bails"
printf '#!/bin/sh\necho "1..1"\necho "ok 1 b.after_the_bail"\n' > "$p/kselftest-bin/b_after"
f=$p/kselftest-bin/fscontext_ns_fscontext_ns_test
printf '#!/bin/sh\necho "1..1"\necho "ok 1 taints"\n' > "$f"
printf '#!/bin/sh\necho "1..1"\necho "ok 1 ltp"\n' > "$p/ltp-bin/ltp_containers"
chmod +x "$p"/kselftest-bin/* "$p/ltp-bin/ltp_containers"
peers=$top/harness/peers

"$peers" --peers "$p" --list > "$scratch/list" 2>&1
is "--list names every binary of the kit" "$(grep -c . "$scratch/list")" 4
"$peers" --peers "$p" --only 'b_*' --only ltp_containers --list > "$scratch/list" 2>&1
is "--only keeps the binaries its globs match" "$(sed 's|.*/||' "$scratch/list" | tr '\n' ' ')" \
	"b_after ltp_containers "
"$peers" --peers "$scratch/none" host > "$scratch/out" 2>&1
is "a missing kit: exit 2" $? 2
like "a missing kit: says how to build one" "$scratch/out" "rebuild-all.sh"
"$peers" --peers "$p" > "$scratch/out" 2>&1
is "no host and no kernel: exit 2" $? 2
"$peers" --peers "$p" host 6.12 > "$scratch/out" 2>&1
is "host and a kernel at once: exit 2" $? 2
"$peers" --peers "$p" --only 'zz*' --list > "$scratch/out" 2>&1
is "--only matching nothing: exit 2" $? 2

if [ "$(id -u)" != 0 ] || [ ! -x "$nsrun" ]; then
	for i in 1 2 3 4; do skip "the host run needs root and a built nsrun"; done
	done_testing
fi
"$peers" --peers "$p" --results "$scratch/res" --run-id t host > "$scratch/out" 2>&1
rc=$?
k=$scratch/res/t/$(uname -r)/root
is "the host run fails when a peer test fails" $rc 1
check "the binary after the one that bailed out ran" grep -q '^ok 1 b.after_the_bail' \
	"$k/b_after.tap"
check "the host-unsafe fscontext_ns binary is left out" test ! -e \
	"$k/fscontext_ns_fscontext_ns_test.tap"
like "the host run says what it left out" "$scratch/out" "leaving out fscontext_ns"
done_testing
