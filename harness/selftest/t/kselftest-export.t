#!/bin/sh
# harness/kselftest-export: the selftests target it writes lists every case
# and carries every fixture, the config fragment and a settings file; it
# refuses to overwrite a foreign folder; and its Makefile, on a stub lib.mk
# with lib.mk's rules, builds a case that prints TAP.  (The real check, in a
# kernel tree, is in the README: make -C tools/testing/selftests
# TARGETS=nsconform run_tests.)  The net cases find libnl-route-3 through
# pkg-config, no hard-coded path: they build with it, and without pkg-config
# or libnl's .pc they stop with an error naming which is missing while the
# other cases still build.
. "$(dirname "$0")/../lib.sh"
export="$top/harness/kselftest-export"
plan 19

st=$scratch/selftests
mkdir -p "$st"
# The rules of tools/testing/selftests/lib.mk that the export relies on.
cat > "$st/lib.mk" <<'MK'
selfdir = $(realpath $(dir $(filter %/lib.mk,$(MAKEFILE_LIST))))
OUTPUT ?= $(CURDIR)
TEST_GEN_PROGS := $(patsubst %,$(OUTPUT)/%,$(TEST_GEN_PROGS))
all: $(TEST_GEN_PROGS)
LINK.c = $(CC) $(CFLAGS) $(CPPFLAGS) $(LDFLAGS) $(TARGET_ARCH)
LOCAL_HDRS += $(selfdir)/kselftest_harness.h $(selfdir)/kselftest.h
$(OUTPUT)/%:%.c $(LOCAL_HDRS)
	$(LINK.c) $(filter-out $(LOCAL_HDRS),$^) $(LDLIBS) -o $@
MK
ksft=${NSCONFORM_CACHE:-$top/cache}/kselftest
cp "$ksft/kselftest_harness.h" "$ksft/kselftest.h" "$st/" 2>/dev/null

"$export" "$st/nsconform" > "$scratch/out" 2>&1
is "export into a selftests folder succeeds" $? 0
xd=$st/nsconform
ls "$top"/cases/*.c | sed 's|.*/||; s|\.c$||' | sort > "$scratch/want"
sed -n '/^TEST_GEN_PROGS/,/[^\\]$/p' "$xd/Makefile" | sed 's/TEST_GEN_PROGS :=//; s/\\//' |
	tr ' \t' '\n\n' | grep . | sort > "$scratch/got"
check "TEST_GEN_PROGS lists exactly the cases" cmp -s "$scratch/want" "$scratch/got"
missing=0
for f in "$top"/cases/*.c "$top"/fixtures/*.c "$top"/fixtures/*.h; do
	case $f in
	*/cases/*) cmp -s "$f" "$xd/${f##*/}" || missing=$((missing + 1)) ;;
	*) cmp -s "$f" "$xd/fixtures/${f##*/}" || missing=$((missing + 1)) ;;
	esac
done
is "every case and fixture is a plain copy" "$missing" 0
like "settings gives the kselftest runner a timeout" "$xd/settings" '^timeout=[0-9]+$'
if [ -f "$top/fixtures/data/config" ]; then
	check "the config fragment is exported" cmp -s "$top/fixtures/data/config" "$xd/config"
else
	check "no config fragment to export: none written" test ! -e "$xd/config"
fi
like "the Makefile includes lib.mk" "$xd/Makefile" '^include \.\./lib\.mk$'
like "the export reports its counts" "$scratch/out" ': [0-9]+ cases, [0-9]+ fixture files'
unlike "no hard-coded libnl include path" "$xd/Makefile" '/usr/include|-I/'
like "libnl's flags come from pkg-config" "$xd/Makefile" \
	'^NL_CFLAGS := \$\(shell \$\(PKG_CONFIG\) --cflags libnl-route-3\.0\)$'

echo stale > "$xd/stale"
"$export" "$xd" > /dev/null 2>&1
is "an earlier export is replaced" "$?:$(test -e "$xd/stale" && echo kept || echo gone)" "0:gone"
mkdir -p "$scratch/foreign" && echo mine > "$scratch/foreign/file"
"$export" "$scratch/foreign" > "$scratch/out2" 2>&1
is "a foreign folder is refused" "$?:$(cat "$scratch/foreign/file")" "1:mine"
like "the refusal says why" "$scratch/out2" 'not empty and not an earlier export'
(cd "$top" && make --no-print-directory kselftest-export) > /dev/null 2>&1
is "make kselftest-export without DEST is a usage error" $? 2

if [ -s "$st/kselftest_harness.h" ]; then
	make -s -C "$xd" -j2 "$xd/uts" > "$scratch/build" 2>&1
	is "the exported Makefile builds a case on lib.mk's rules" $? 0
	"$xd/uts" > "$scratch/uts.tap" 2>&1
	like "the exported case prints TAP" "$scratch/uts.tap" '^1\.\.[0-9]+$'
	if pkg-config --exists libnl-route-3.0 2>/dev/null; then
		make -s -C "$xd" "$xd/net_phys" > "$scratch/nl" 2>&1
		is "a net case builds with pkg-config's libnl flags" \
			"$?:$(test -x "$xd/net_phys" && echo built)" 0:built
	else
		skip "pkg-config finds no libnl-route-3.0 here (harness/deps)"
	fi
	rm -f "$xd/net_phys" "$xd/uts"
	make -s -C "$xd" "$xd/net_phys" PKG_CONFIG="$scratch/no/pkg-config" > "$scratch/nl1" 2>&1
	rc=$?
	is "without pkg-config, a net case stops saying so" \
		"$rc:$(grep -c "cannot run '$scratch/no/pkg-config': install pkg-config" \
			"$scratch/nl1")" 2:1
	mkdir "$scratch/nopc"
	PKG_CONFIG_LIBDIR=$scratch/nopc PKG_CONFIG_PATH= \
		make -s -C "$xd" "$xd/net_phys" > "$scratch/nl2" 2>&1
	rc=$?
	is "without libnl's .pc, a net case stops saying so" \
		"$rc:$(grep -c 'no libnl-route-3.0.pc (install libnl-route-3-dev' \
			"$scratch/nl2")" 2:1
	PKG_CONFIG_LIBDIR=$scratch/nopc PKG_CONFIG_PATH= \
		make -s -C "$xd" "$xd/uts" > "$scratch/nl3" 2>&1
	is "without libnl's .pc, the other cases still build" $? 0
else
	for i in 1 2 3 4 5 6; do skip "no kselftest headers in $ksft (make headers)"; done
fi
done_testing
