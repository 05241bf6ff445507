# harness/arch.mk - the case binaries for another architecture (included by
# the Makefile when ARCH is set; ARCH=amd64 or x86_64 is the default build).
#
#   make build ARCH=i386    32-bit x86 static binaries in build/compat (the
#                           compat pass of harness/check; make build-compat)
#   make build ARCH=arm64   arm64 static binaries in build/arm64 (the arm64
#                           guests of make matrix ARCH=arm64; make build-arm64)
#
# Compilers: gcc -m32 (gcc-multilib) and aarch64-linux-gnu-gcc
# (gcc-aarch64-linux-gnu).  libcap and libnl come from Debian's packages of
# that architecture unpacked into $(CACHE)/sysroot/ARCH by harness/sysroot:
# nothing of another architecture is installed on the host.

ifeq ($(ARCH),compat)
override ARCH := i386
endif
ifeq ($(ARCH),i386)
BUILD := build/compat
CC := gcc -m32
ARCH_TRIPLET := i386-linux-gnu
# gcc-multilib, which Debian makes conflict with gcc-aarch64-linux-gnu:
# with that one installed, gcc-12-multilib (which stays) is enough.  Not in
# harness/packages for that reason: without it the compat pass SKIPs.
ARCH_NEEDS := gcc-multilib or gcc-12-multilib
else ifeq ($(ARCH),arm64)
BUILD := build/arm64
CC := aarch64-linux-gnu-gcc
AR := aarch64-linux-gnu-ar
ARCH_TRIPLET := aarch64-linux-gnu
ARCH_NEEDS := gcc-aarch64-linux-gnu
else
$(error unknown ARCH=$(ARCH): i386 (or compat) or arm64; leave it unset for amd64)
endif

# Only the cases and nsrun (the Makefile reads ARCH_BUILD).
ARCH_BUILD := $(ARCH)
SYSROOT := $(CACHE)/sysroot/$(ARCH)
CPPFLAGS += -I$(SYSROOT)/usr/include -I$(SYSROOT)/usr/include/$(ARCH_TRIPLET)
LDFLAGS += -L$(SYSROOT)/usr/lib/$(ARCH_TRIPLET)
CPPFLAGS_net := -I$(SYSROOT)/usr/include/libnl3
CPPFLAGS_net_veth := $(CPPFLAGS_net)
CPPFLAGS_net_rules := $(CPPFLAGS_net)
CPPFLAGS_net_phys := $(CPPFLAGS_net)

# The sysroot before the first object; the compiler named when missing.
$(patsubst fixtures/%.c,$(BUILD)/fixtures/%.o,$(wildcard fixtures/*.c)): | $(SYSROOT)/STAMP
$(SYSROOT)/STAMP:
	@echo 'int main(void) { return 0; }' | $(CC) -x c -o /dev/null - 2>/dev/null || { \
		echo "ARCH=$(ARCH): $(CC) cannot build (apt-get install $(ARCH_NEEDS))" >&2; exit 1; }
	harness/sysroot $(ARCH) >/dev/null
