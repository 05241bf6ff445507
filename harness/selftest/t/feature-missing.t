#!/bin/sh
# A feature that regressed on a kernel released after it arrived is a
# failure, "feature missing", not a SKIP (fixtures/core_features.c,
# ns_feature_regressed()).  build/selftest/featgone takes SO_NETNS_COOKIE
# (5.14, CONFIG_NET) away from the running kernel with a seccomp filter:
# getsockopt(SO_NETNS_COOKIE) answers ENOPROTOOPT, as a kernel without it
# does.  With the kernel's config (NSCONFORM_KCONFIG) building CONFIG_NET
# in, the test fails and the run fails; with CONFIG_NET not set, or no
# config known, it SKIPs as before; without the filter it passes.
. "$(dirname "$0")/../lib.sh"
plan 9

test=nsfs_ids/net_ns_id_is_its_socket_cookie
pass=root
[ "$(id -u)" = 0 ] || pass=user
# run NAME KCONFIG [featgone]: harness/check of the one test; its report in $scratch/NAME.json
run() {
	name=$1 kc=$2
	shift 2
	NSCONFORM_KCONFIG=$kc "$@" "$top/harness/check" --results "$scratch/$name" \
		--run-id "$name" --no-hygiene --pass "$pass" --test "$test" \
		"$top/build/cases/nsfs_ids" \
		> "$scratch/$name.out" 2>&1
	rc=$?
	"$top/harness/report" --no-expectations --format json "$scratch/$name/$name" \
		> "$scratch/$name.json" 2>/dev/null
	perl -MJSON::PP -e '
		local $/; my $d = decode_json(<STDIN>);
		for my $c (@{$d->{cases}}) {
			print "$_->{status}: $_->{reason}\n" for values %{$c->{results}};
		}' < "$scratch/$name.json" > "$scratch/$name.res"
	return $rc
}

rel=$(uname -r)
major=${rel%%.*} minor=${rel#*.}
minor=${minor%%[!0-9]*}
if [ "$(uname -m)" != x86_64 ] || [ "$major" -lt 6 ] ||
   { [ "$major" = 6 ] && [ "$minor" -lt 18 ]; }; then
	# The test needs NS_GET_ID (6.18) first; the filter is written for x86_64.
	for i in 1 2 3 4 5 6 7 8 9; do skip "needs an x86_64 kernel 6.18 or later ($rel)"; done
	exit 0
fi
[ -x "$selftest/featgone" ] && [ -x "$top/build/cases/nsfs_ids" ] ||
	{ echo "Bail out! featgone or nsfs_ids not built (make)"; exit 1; }
printf 'CONFIG_NET=y\n' > "$scratch/config-y"
printf '# CONFIG_NET is not set\n' > "$scratch/config-n"
# getsockopt(_, _, SO_NETNS_COOKIE): ENOPROTOOPT
gone="$selftest/featgone 55 92 2 71 --"

run plain "$scratch/config-y"
is "without the filter the test passes" "$(cat "$scratch/plain.res")" "pass: "

run gone "$scratch/config-y" $gone
is "feature gone, CONFIG_NET=y: the run fails" "$rc" 1
like "the test fails with feature missing, its release and commit" "$scratch/gone.res" \
	'^fail: .*feature missing: SO_NETNS_COOKIE \(added in 5\.14, linux:e8b9eab99232\)$'
unlike "no SKIP" "$scratch/gone.res" '^skip'
like "the check names the failure" "$scratch/gone.out" 'FAIL'

run notset "$scratch/config-n" $gone
is "CONFIG_NET not set: the run passes" "$rc" 0
is "a SKIP in the fixed form" "$(cat "$scratch/notset.res")" \
	"skip: SO_NETNS_COOKIE not supported by this kernel (added in 5.14)"

run unknown "$scratch/no-such-config" $gone
is "no config known: the run passes" "$rc" 0
like "a SKIP, no verdict beyond it" "$scratch/unknown.res" '^skip: SO_NETNS_COOKIE not supported'
done_testing
