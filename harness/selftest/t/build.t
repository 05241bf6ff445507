#!/bin/sh
# The build is quiet: one short line per file made, not the compiler's
# command line, and not glibc's three static-link warnings about libnl's NSS
# lookups (F9); V=1 shows the commands; a real error still shows and fails
# the build.  One libnl case (net_veth) is built into a scratch BUILD, on
# copies of the fixture objects already built.
. "$(dirname "$0")/../lib.sh"
plan 7
ks=${KSELFTEST_DIR:-${NSCONFORM_CACHE:-$top/cache}/kselftest}
if [ ! -r "$ks/kselftest_harness.h" ] || [ ! -r "$top/build/fixtures/libnsconform.a" ]; then
	for i in 1 2 3 4 5 6 7; do skip "needs a build (make) and the kselftest headers"; done
	done_testing
fi
b=$scratch/b
mkdir -p "$b"
cp -pr "$top/build/fixtures" "$b/"
mk() { make -C "$top" --no-print-directory BUILD="$b" KSELFTEST_DIR="$ks" "$@"; }
mk "$b/cases/net_veth" > "$scratch/out" 2>&1
is "a libnl case builds" $? 0
is "one line for it" "$(cat "$scratch/out")" "  CC      $b/cases/net_veth"
rm -f "$b/cases/net_veth"
mk V=1 "$b/cases/net_veth" > "$scratch/out" 2>&1
is "V=1: builds" $? 0
like "V=1: shows the command" "$scratch/out" '-static -o .*/cases/net_veth cases/net_veth\.c'
unlike "V=1: still without the libnl NSS warnings" "$scratch/out" 'statically linked applications'
rm -f "$b/cases/net_veth"
mk LDLIBS_net_veth=-lnsconform-nonexistent "$b/cases/net_veth" > "$scratch/out" 2>&1
is "a link error fails the build" "$(test $? -ne 0 && test ! -e "$b/cases/net_veth"; echo $?)" 0
like "and shows" "$scratch/out" 'cannot find -lnsconform-nonexistent'
done_testing
