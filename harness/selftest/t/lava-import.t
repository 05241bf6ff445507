#!/bin/sh
# harness/lava-import on a recorded LAVA job (harness/selftest/fixtures/lava:
# job.log, lines of a lava-run log of lava/job-qemu.yaml on
# 6.12.90+deb13-amd64, root pass, three case binaries; results.yaml, its
# nsconform test cases as a LAVA server lists them): from the log the TAP
# comes back as the guest printed it, from the results each test case is one
# TAP line, and both give the same verdicts; harness/report reads them with
# the expectations.  The LAVA files check against LAVA's own schemas
# (lava-common) when lava-dispatcher is installed.
. "$(dirname "$0")/../lib.sh"
imp=$top/harness/lava-import
fx=$top/harness/selftest/fixtures/lava
plan 18

"$imp" --results "$scratch/r" --run-id log "$fx/job.log" > "$scratch/out" 2>&1
is "log: exit 0" $? 0
k=$scratch/r/log/6.12.90+deb13-amd64
check "log: the kernel folder is named by the guest's release" test -d "$k"
is "log: three case binaries of the root pass" "$(ls "$k/root" | tr '\n' ' ')" \
	"cgroup.tap ipc.tap mnt_fixes.tap "
# The TAP as lava/run-tests printed it between its framing lines.
perl -MJSON::PP -ne 'BEGIN { $j = JSON::PP->new } $m = eval { $j->decode($_) } or next;
	next unless $m->{lvl} eq "target"; $_ = $m->{msg};
	$in = 1, next if /^\@\@nsconform begin root ipc /; $in = 0 if /^\@\@nsconform /;
	print "$_\n" if $in' "$fx/job.log" > "$scratch/ipc.want"
check "log: ipc.tap is the framed TAP, line for line" cmp "$k/root/ipc.tap" "$scratch/ipc.want"
like "log: meta has the kernel" "$k/meta" '^kernel=6\.12\.90\+deb13-amd64$'
like "log: meta has the Debian version (expectations by patch level)" "$k/meta" \
	'^kernel_version=6\.12\.90-1$'
like "log: meta says where" "$k/meta" '^where=lava-qemu$'
is "log: latest points at the run" "$(readlink "$scratch/r/latest")" log

"$top/harness/report" --summary --color never "$k" > "$scratch/sum" 2>&1
# Read with the repository's expectations: since the sweep, their ranges
# cover the recorded job's mnt_fixes and pid_fixes failures too.
like "report: the summary of the imported run, four known deviations" "$scratch/sum" \
	'6\.12\.90\+deb13-amd64 root: 13 passed, 0 failed, 2 skipped, 4 known'

"$imp" --results "$scratch/r" --run-id res "$fx/results.yaml" > "$scratch/out" 2>&1
is "results: no kernel in LAVA's results, none given: exit 2" $? 2
"$imp" --results "$scratch/r" --run-id res --kernel 6.12.90+deb13-amd64 \
	--kernel-version 6.12.90-1 "$fx/results.yaml" > "$scratch/out" 2>&1
is "results: exit 0 with --kernel" $? 0
"$top/harness/verdicts" "$scratch/r/log" > "$scratch/v.log"
"$top/harness/verdicts" "$scratch/r/res" > "$scratch/v.res"
check "results: the same verdicts as from the log" cmp "$scratch/v.log" "$scratch/v.res"
like "results: a fixture's test keeps its name" \
	"$scratch/r/res/6.12.90+deb13-amd64/root/cgroup.tap" \
	'^ok [0-9]+ cg\.other_processes_paths_relative_to_ns_root$'
# lava/run-tests gave the known deviation its reference (lava-test-reference).
like "the recorded known deviation carries its reference" "$fx/results.yaml" \
	'reference: unfixed:7\.1\.13'

printf 'nothing of nsconform here\n' > "$scratch/empty.log"
"$imp" --results "$scratch/r" "$scratch/empty.log" > /dev/null 2> "$scratch/err"
is "a log without nsconform results: exit 1" $? 1

# LAVA's own validation of the job template (filled in) and the test definition.
py=/usr/bin/python3
sed -e 's|@ABI@|6.12.90+deb13-amd64|; s|@KERNEL_URL@|file:///k/vmlinuz|' \
	-e 's|@INITRD_URL@|file:///k/nsconform.cpio|; s|@REPOSITORY@|file:///repo|' \
	-e 's|@REVISION@|0123456789abcdef|; s|@PASSES@|root user|' \
	"$top/lava/job-qemu.yaml" > "$scratch/job.yaml"
if [ -f /usr/share/lava-common/lava-schema.py ] &&
	$py -c 'import voluptuous, lava_common' 2>/dev/null; then
	check "lava-schema: the job template validates" \
		$py /usr/share/lava-common/lava-schema.py job "$scratch/job.yaml"
	check "lava-common: the test definition validates" $py -c 'import sys, yaml
from lava_common.schemas.test.testdef import validate
validate(yaml.safe_load(open(sys.argv[1])))' "$top/lava/nsconform.yaml"
	# The schema check must be able to fail: a job without its actions is refused.
	sed '/^actions:/,$d' "$scratch/job.yaml" > "$scratch/bad.yaml"
	! $py /usr/share/lava-common/lava-schema.py job "$scratch/bad.yaml" >/dev/null 2>&1
	is "lava-schema: a job without actions is refused" $? 0
else
	# harness/packages lists lava-common: make test must not pass without the check.
	for d in "job template" "test definition" "broken job refused"; do
		_result 1 "lava-common (LAVA's schemas) is missing: harness/deps installs it ($d)"
	done
fi
done_testing
