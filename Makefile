# nsconform - conformance tests for Linux namespaces.
# `make help` lists the targets.

SHELL := /bin/bash
TOP := $(abspath $(dir $(lastword $(MAKEFILE_LIST))))
BUILD := build
CACHE ?= $(TOP)/cache
export NSCONFORM_CACHE := $(CACHE)

# The kselftest harness headers: from Debian's linux-source-6.12 unless
# KSELFTEST_DIR names a kernel tree's tools/testing/selftests.
KSELFTEST_DIR ?= $(CACHE)/kselftest
KSELFTEST_HEADERS := $(KSELFTEST_DIR)/kselftest_harness.h $(KSELFTEST_DIR)/kselftest.h

CC ?= cc
CFLAGS ?= -O2
CFLAGS += -Wall -Wextra -Werror -std=gnu11
CPPFLAGS += -I$(TOP)/fixtures -idirafter $(KSELFTEST_DIR)
LDFLAGS += -static
LDLIBS += -lcap -lz

# Per-case extra libraries (e.g. LDLIBS_net := -lnl-route-3 -lnl-3).
LDLIBS_net := -lnl-route-3 -lnl-3 -lpthread -lm
CPPFLAGS_net := -I/usr/include/libnl3
LDLIBS_net_veth := $(LDLIBS_net)
CPPFLAGS_net_veth := $(CPPFLAGS_net)
LDLIBS_net_rules := $(LDLIBS_net)
CPPFLAGS_net_rules := $(CPPFLAGS_net)
LDLIBS_net_phys := $(LDLIBS_net)
CPPFLAGS_net_phys := $(CPPFLAGS_net)

# ARCH=i386 (build/compat) or ARCH=arm64 (build/arm64): harness/arch.mk.
ifneq ($(filter-out amd64 x86_64,$(ARCH)),)
include harness/arch.mk
endif

CASE_SRCS := $(sort $(wildcard cases/*.c))
CASES := $(patsubst cases/%.c,$(BUILD)/cases/%,$(CASE_SRCS))
FIXTURE_SRCS := $(sort $(wildcard fixtures/*.c))
FIXTURE_OBJS := $(patsubst fixtures/%.c,$(BUILD)/fixtures/%.o,$(FIXTURE_SRCS))
FIXTURE_LIB := $(BUILD)/fixtures/libnsconform.a
HARNESS_SRCS := $(sort $(wildcard harness/*.c))
HARNESS_BINS := $(patsubst harness/%.c,$(BUILD)/harness/%,$(HARNESS_SRCS))
SELFTEST_SRCS := $(sort $(wildcard harness/selftest/*.c))
SELFTEST_BINS := $(patsubst harness/selftest/%.c,$(BUILD)/selftest/%,$(SELFTEST_SRCS))
# Another architecture's build: the cases and the runner the guests need.
ifneq ($(ARCH_BUILD),)
HARNESS_BINS := $(BUILD)/harness/nsrun
SELFTEST_BINS :=
endif

# Arguments passed through to the runners.
RUN_ARGS ?=

# Quiet build: one line per file made ("  CC      build/cases/uts"); V=1
# shows the commands.
ifeq ($(V),1)
say :=
else
say = @printf '  %-7s %s\n' '$(1)' '$(2)';
endif
# glibc's static libc.a warns at link time about its NSS lookups
# (getaddrinfo, getprotobyname, getprotobynumber: they need glibc's shared
# libraries at run time).  libnl-3.a's addr.o and utils.o call them in
# functions no case uses (nl_addr_info, nl_ip_proto2str, nl_str2ip_proto),
# so their three warnings, each with its "in function" line, are dropped
# from a case's link; every other warning and error shows, and -Werror
# stays.
LIBNL_NSS_FILTER := awk ' \
	/libnl-3\.a\(libnl_3_la-(addr|utils)\.o\): in function / { held = $$0; next } \
	held != "" && /warning: Using .(getaddrinfo|getprotobyname|getprotobynumber). in statically linked/ \
		{ held = ""; next } \
	held != "" { print held; held = "" } { print } END { if (held != "") print held }'

.PHONY: all build deps headers check test quick selftest clean distclean help \
	kernel kernels matrix bisect report findings findings-check sweep bench-sweep mutate soak \
	bench-vm kselftest-export build-compat build-arm64 bench-mutate bench-check

all: build

build: $(CASES) $(HARNESS_BINS) $(SELFTEST_BINS)

help:
	@echo "nsconform targets:"
	@echo "  make              build the case binaries (build/cases/*; V=1 shows the commands)"
	@echo "  make deps         install missing Debian packages (root) or print the apt-get line"
	@echo "  make check        run every case on the running kernel (root pass, then user pass;"
	@echo "                    not root: the user pass only)"
	@echo "    some cases:     make check RUN_ARGS=build/cases/uts, or harness/check build/cases/pid*"
	@echo "    some tests:     harness/check --list; harness/check --test CASE/TEST"
	@echo "                    (make check RUN_ARGS='--test uts/...'); harness/check --help"
	@echo "  make quick        the fast tier (minutes, no QEMU): self-tests that boot no guest,"
	@echo "                    then make check; what a contributor runs before a commit"
	@echo "  make test         everything: all self-tests of the harness (QEMU guests too), then"
	@echo "                    make check, then make matrix KERNELS=all (TEST_KERNELS= skips it)"
	@echo "  make kernels      list the Debian kernels that can be fetched, with the index's date"
	@echo "                    (harness/apt update [SUITE...] refreshes the apt lists it comes from)"
	@echo "  make kernel K=6.12             fetch one kernel into the cache"
	@echo "  make matrix KERNELS=\"5.10 6.1\"  run the suite in one QEMU guest per kernel"
	@echo "  make matrix KERNELS=all        the newest release of every series (7.2:all: every 7.2 release)"
	@echo "  make matrix RESUME=RUN-ID      finish an interrupted matrix run (the kernels it completed are kept)"
	@echo "  make matrix ARCH=arm64 KERNELS=\"6.1 6.12\"  Debian's arm64 kernels in qemu-system-aarch64"
	@echo "  make matrix COMPAT=1 KERNELS=7.3  also the compat passes (32-bit x86 cases) in the guests"
	@echo "  make build-compat  the cases as 32-bit x86 binaries (build/compat: the compat pass)"
	@echo "  make bisect CASE=bin/test SERIES=7.2   last bad and first good release of a series"
	@echo "               (or FROM=7.2.6 TO=7.2.13; in a kernel tree: git bisect run .../harness/bisect CASE)"
	@echo "  make report       kernel x case matrix of results/latest"
	@echo "  make sweep        both passes on every Debian release the archive offers (cached;"
	@echo "                    resumes; SWEEP_ARGS=... passed on, e.g. --jobs 1 or 7.2:all)"
	@echo "  make findings     REWRITES the KERNELS of fixtures/data/expectations and README.md's findings"
	@echo "                    list from the sweep (fixtures/data/sweep-summary, from results/sweep)"
	@echo "  make findings-check  fail when fixtures/data/expectations and the sweep disagree"
	@echo "  make bench-sweep  cold sweep time, and the warm time after one binary changed"
	@echo "  make mutate       run the cases against 'lying kernel' mutants"
	@echo "  make bench-mutate make mutate's time against the host passes (RUN_ARGS=... passed on)"
	@echo "  make bench-check  both host passes' time against LTP's containers (LTP=BINARY)"
	@echo "  make soak N=50    run the host suite N times and list verdicts that changed"
	@echo "  make kselftest-export DEST=<linux>/tools/testing/selftests/nsconform"
	@echo "                    write the suite as a kernel selftests target (TARGETS=nsconform)"
	@echo "Variables: KSELFTEST_DIR=path (kselftest headers), RUN_ARGS=... (passed to the runner),"
	@echo "  V=1 (show build commands).  Every harness/* command answers --help."

deps:
	@harness/deps

headers: $(KSELFTEST_HEADERS)

$(KSELFTEST_HEADERS):
	@if [ "$(KSELFTEST_DIR)" != "$(CACHE)/kselftest" ]; then \
		echo "error: KSELFTEST_DIR=$(KSELFTEST_DIR) has no $(@F)" >&2; exit 1; fi
	harness/fetch-kselftest $(KSELFTEST_DIR)

$(BUILD)/fixtures/%.o: fixtures/%.c $(wildcard fixtures/*.h)
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

$(FIXTURE_LIB): $(FIXTURE_OBJS)
	@rm -f $@
	$(call say,AR,$@)$(AR) rcs $@ $^

$(BUILD)/cases/%: cases/%.c $(FIXTURE_LIB) $(KSELFTEST_HEADERS) $(wildcard fixtures/*.h)
	@mkdir -p $(@D)
	$(call say,CC,$@)set -o pipefail; \
	$(CC) $(CPPFLAGS) $(CPPFLAGS_$*) $(CFLAGS) $(LDFLAGS) -o $@ $< $(FIXTURE_LIB) \
		$(LDLIBS_$*) $(LDLIBS) 2>&1 | $(LIBNL_NSS_FILTER) >&2

$(BUILD)/harness/%: harness/%.c $(FIXTURE_LIB)
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(FIXTURE_LIB) $(LDLIBS)

$(BUILD)/selftest/%: harness/selftest/%.c $(FIXTURE_LIB) $(KSELFTEST_HEADERS)
	@mkdir -p $(@D)
	$(call say,CC,$@)$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(FIXTURE_LIB) $(LDLIBS)

# The compat pass (harness/check) needs the 32-bit build; without it
# (no gcc-multilib, no i386 packages) harness/check says SKIP and why.
check: deps
	@$(MAKE) --no-print-directory build
	@$(MAKE) --no-print-directory build-compat || \
		echo "nsconform: the 32-bit build failed: the compat pass will SKIP" >&2
	harness/check $(RUN_ARGS)

selftest: deps
	@$(MAKE) --no-print-directory build
	harness/selftest/run

# After the host passes, the newest release of every series Debian ships in a
# guest (TEST_KERNELS=all), so nothing lands that fails there without an
# expectations entry; TEST_KERNELS= (empty) leaves the guests out.
TEST_KERNELS ?= all
test: deps
	@$(MAKE) --no-print-directory build
	harness/selftest/run
	harness/findings --check --build $(BUILD)/cases
	harness/check $(RUN_ARGS)
	$(if $(strip $(TEST_KERNELS)),harness/matrix --quiet $(if $(JOBS),--jobs $(JOBS)) \
		$(TEST_KERNELS))

# The fast tier: the self-tests that boot no QEMU guest and fetch no kernel
# (harness/selftest/run --quick), then make check's run.
quick: deps
	@$(MAKE) --no-print-directory build
	harness/selftest/run --quick
	harness/check $(RUN_ARGS)

# Kernel matrix in QEMU (harness/kernel, harness/matrix, harness/bench-vm).
# K / KERNELS: a series (5.10, 6.12, 7), latest, a Debian package or ABI, or
# /path/to/bzImage (with MODULES=/path/to/lib/modules/VER, CONFIG=.config);
# KERNELS=all: the newest release of every series; SERIES:all (7.2:all):
# every release of that series.
# JOBS: guests at once (default: the number of cores).
K ?= latest
KERNELS ?= 5.10 6.1 6.12 7.2
MODULES ?=
CONFIG ?=
JOBS ?=
kernels:
	harness/kernel list

kernel:
	MODULES="$(MODULES)" CONFIG="$(CONFIG)" harness/kernel fetch $(K)

# RESUME=RUN-ID: finish an interrupted matrix run (harness/matrix --resume).
RESUME ?=
ifneq ($(filter matrix,$(MAKECMDGOALS)),)
ifeq ($(strip $(KERNELS)$(RESUME)),)
$(error KERNELS is empty: name the kernels to boot, e.g. make matrix KERNELS="6.1 6.12" (make kernels lists them))
endif
endif
matrix: deps
	@$(MAKE) --no-print-directory build $(if $(filter 1,$(COMPAT)),build-compat)
	@MODULES="$(MODULES)" CONFIG="$(CONFIG)" harness/matrix $(if $(JOBS),--jobs $(JOBS)) \
		$(if $(filter arm64,$(ARCH)),--arch arm64) $(if $(filter 1,$(COMPAT)),--compat) \
		$(if $(RESUME),--resume $(RESUME)) $(RUN_ARGS) $(if $(RESUME),,$(KERNELS))

# Bisect across Debian releases: CASE=binary/test and SERIES=7.2 (every
# release of it) or FROM=... TO=... (two releases of one series).
CASE ?=
SERIES ?=
FROM ?=
TO ?=
bisect: deps
	@$(MAKE) --no-print-directory build
	harness/bisect $(if $(SERIES),--series $(SERIES)) $(if $(FROM),--from $(FROM)) $(if $(TO),--to $(TO)) $(RUN_ARGS) $(CASE)

bench-vm: deps
	@$(MAKE) --no-print-directory build
	harness/bench-vm $(if $(JOBS),--jobs $(JOBS)) $(KERNELS)

report:
	harness/report $(RUN_ARGS) results/latest

# The sweep: every release of every series the archive offers (sid and
# experimental too with NSCONFORM_APT_ALLOW_EXPIRED=1), both passes, results
# cached per release and case binary in $(CACHE)/sweep, assembled in
# results/sweep with its compact summary results/sweep/SUMMARY.
SWEEP_ARGS ?=
sweep: deps
	@$(MAKE) --no-print-directory build
	harness/sweep $(if $(JOBS),--jobs $(JOBS)) $(SWEEP_ARGS)

# The findings from the sweep: results/sweep/SUMMARY (when there is one) becomes
# fixtures/data/sweep-summary; the KERNELS of fixtures/data/expectations and README.md's
# findings list are written from it.  findings-check: harness/findings --check.
SWEEP_SUMMARY ?= results/sweep/SUMMARY
findings:
	@if [ -f $(SWEEP_SUMMARY) ]; then cp $(SWEEP_SUMMARY) fixtures/data/sweep-summary && \
		echo "fixtures/data/sweep-summary: from $(SWEEP_SUMMARY)"; fi
	harness/findings --write
	harness/findings --readme README.md
	harness/findings --check

findings-check:
	harness/findings --check

bench-sweep: deps
	@$(MAKE) --no-print-directory build
	harness/bench-sweep $(SWEEP_ARGS)

mutate: deps
	@$(MAKE) --no-print-directory build
	harness/mutate $(RUN_ARGS)

bench-mutate: deps
	@$(MAKE) --no-print-directory build
	harness/bench-mutate $(RUN_ARGS)

bench-check: deps
	@$(MAKE) --no-print-directory build
	harness/bench-check $(if $(LTP),--ltp $(LTP))

N ?= 50
soak: deps
	@$(MAKE) --no-print-directory build
	harness/soak $(N)

# The suite as a kernel selftests target: plain copies of the cases and
# fixtures, a Makefile on lib.mk, the config fragment (harness/kselftest-export).
DEST ?=
kselftest-export:
	@[ -n "$(DEST)" ] || { echo "usage: make kselftest-export" \
		"DEST=<kernel-tree>/tools/testing/selftests/nsconform" >&2; exit 2; }
	harness/kselftest-export $(DEST)

# The case binaries as 32-bit x86 (the compat pass) and as arm64
# (harness/arch.mk; make matrix ARCH=arm64).
build-compat:
	@$(MAKE) --no-print-directory build ARCH=i386
build-arm64:
	@$(MAKE) --no-print-directory build ARCH=arm64

clean:
	rm -rf $(BUILD)

# The cache of this checkout only: a CACHE shared with other checkouts
# (CACHE=... or NSCONFORM_CACHE in the environment) is never removed here.
distclean: clean
	rm -rf $(TOP)/cache results/[0-9]* results/latest
