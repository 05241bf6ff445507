#!/bin/sh
# Errors of the QEMU matrix are loud, early and said once, with a fake QEMU
# (harness/selftest/fake-qemu: no guest boots): an unknown kernel or one
# named twice stops the run before anything boots (exit 2); make matrix
# with an empty KERNELS names the variable; a kernel that could not be
# fetched, whose initramfs could not be built (busybox missing) or that did
# not boot is status=error with error_stage= and a one-line error= saying
# what happened, printed once; a kernel tree's bzImage symlink works.
. "$(dirname "$0")/../lib.sh"
plan 30
matrix=$top/harness/matrix
kernel=$top/harness/kernel
export NSCONFORM_QEMU="$top/harness/selftest/fake-qemu" FAKE_QEMU_LOG="$scratch/qemu.log"
export NSCONFORM_KERNEL_CACHE="$scratch/kc" TMPDIR="$scratch/tmp"
mkdir -p "$TMPDIR" "$scratch/kc"
# once FILE TEXT: the matrix says TEXT once (harness/report's summary aside)
once() { [ "$(grep -v "^nsconform report" "$1" | grep -cF -- "$2")" = 1 ]; }

# A real kernel (from the shared cache) as a self-built kernel tree, whose
# arch/x86_64/boot/bzImage is a symlink as in every tree.
real=$(NSCONFORM_KERNEL_CACHE= "$kernel" fetch 5.10 2>/dev/null)
abi=${real##*/}
cp "${real%/*}/index" "${real%/*}/pkginfo" "$scratch/kc/"
tree=$scratch/tree
mkdir -p "$tree/arch/x86/boot" "$tree/arch/x86_64/boot"
cp "$real/vmlinuz" "$tree/arch/x86/boot/bzImage"
ln -s ../../x86/boot/bzImage "$tree/arch/x86_64/boot/bzImage"
cp "$real/config" "$tree/.config"
img=$tree/arch/x86_64/boot/bzImage
m() { "$matrix" --accel tcg --results "$scratch/r" --case "$top/build/cases/uts" "$@"; }

"$kernel" fetch "$img" > "$scratch/out" 2> "$scratch/err"
is "a bzImage through a symlink is fetched" $? 0
unlike "and is not called truncated" "$scratch/err" 'truncated'
like "its folder holds the image itself" "$(cat "$scratch/out")/SOURCE" \
	"^image=$tree/arch/x86/boot/bzImage\$"

# Every kernel is resolved before the first boot.
m --run-id v "$img" bogus > "$scratch/out" 2> "$scratch/err"
is "an unknown kernel after a good one: exit 2" $? 2
like "it is named" "$scratch/err" "^harness/matrix: unknown kernel version 'bogus'"
check "said once" once "$scratch/err" "'bogus'"
is "nothing was booted" "$(cat "$scratch/qemu.log" 2>/dev/null)" ""
check "no run folder was made" test ! -e "$scratch/r/v"
m --run-id d 5.10 "$abi" > "$scratch/out" 2> "$scratch/err"
is "a kernel named twice: exit 2" $? 2
like "it is named" "$scratch/err" "^harness/matrix: $abi and 5\.10 are one kernel"
make -C "$top" --no-print-directory matrix KERNELS= > "$scratch/out" 2>&1
is "make matrix KERNELS=: exit 2" $? 2
like "it names the KERNELS variable" "$scratch/out" 'KERNELS is empty: name the kernels'

# Could not be fetched (a self-built kernel's CONFIG= is missing).
CONFIG=$scratch/nonexistent m --run-id f "$img" > "$scratch/out" 2>&1
is "a kernel that could not be fetched: exit 1" $? 1
meta=$scratch/r/f/bzImage/meta
like "status=error" "$meta" '^status=error$'
like "error_stage=fetch" "$meta" '^error_stage=fetch$'
like "error= says it could not be fetched and why" "$meta" \
	'^error=could not be fetched: CONFIG=.*nonexistent: no such file$'
check "the reason is printed once" once "$scratch/out" "nonexistent: no such file"
unlike "a run without a guest is not labelled qemu-tcg" "$scratch/out" 'qemu-tcg|forced'
like "it says there is no guest to boot" "$scratch/out" 'no guest to boot'

# The initramfs could not be built: busybox missing.
NSCONFORM_BUSYBOX=$scratch/nobusybox m --run-id bb "$img" > "$scratch/out" 2>&1
is "no busybox: exit 1" $? 1
meta=$(ls "$scratch"/r/bb/*/meta)
like "status=error" "$meta" '^status=error$'
like "error_stage=initramfs" "$meta" '^error_stage=initramfs$'
like "error= names the initramfs and busybox" "$meta" \
	'^error=the guest initramfs could not be built: .*nobusybox not found'
check "the reason is printed once" once "$scratch/out" "nobusybox not found"
is "nothing was booted" "$(cat "$scratch/qemu.log" 2>/dev/null)" ""

# A kernel that did not boot (it panics before the guest's runner starts).
FAKE_QEMU_NOBOOT=1 m --run-id nb "$img" > "$scratch/out" 2>&1
is "a kernel that did not boot: exit 1" $? 1
meta=$(ls "$scratch"/r/nb/*/meta)
like "error_stage=boot" "$meta" '^error_stage=boot$'
like "error= says it did not boot, and the panic" "$meta" '^error=did not boot: Kernel panic'
unlike "not a crash" "$meta" '^(status=crashed|crash=)'
check "the reason is printed once" once "$scratch/out" "Unable to mount root fs"
done_testing
