#!/bin/sh
# Bad input to the kernel fetcher and the QEMU matrix: each is a one-line
# error naming the problem and a non-zero exit, and leaves no partial
# garbage in the kernel cache; an interrupted download is fetched again by
# the next run; a damaged cached kernel is rebuilt.  Uses a scratch kernel
# cache (NSCONFORM_KERNEL_CACHE) and a fake apt that hands out truncated or
# never-finishing downloads; "no space" is a small tmpfs mounted in a mount
# namespace of the test's own (never on the host's mount table).
. "$(dirname "$0")/../lib.sh"
plan 44
kernel=$top/harness/kernel
matrix=$top/harness/matrix
kc=$scratch/kc
export NSCONFORM_KERNEL_CACHE="$kc"
skip() { _n=$((_n + 1)); echo "ok $_n - $1 # SKIP $2"; }
# garbage DIR: files other than the index, the lock, verified packages and
# finished kernel folders (temporary download and build folders).
garbage() { find "$1" -name '.tmp.*' -o -name '.dl.*' -o -name '*.partial' | head -n 3; }
one_line() { [ "$(wc -l < "$1")" = 1 ]; }

# The 5.10 package from the main cache, for the fake apt to cut short.
real=$(NSCONFORM_KERNEL_CACHE= "$kernel" fetch 5.10 2>/dev/null)
abi=${real##*/}
maindeb=$(ls "${real%/*}"/debs/linux-image-"$abi"_*.deb | head -n 1)
cat > "$scratch/fakeapt" <<EOF
#!/bin/sh
# Stands in for harness/apt: 'get download' writes a cut-short package.
case "\$1" in
get) head -c 4000000 "$maindeb" > "./${maindeb##*/}"
     [ "\${FAKE_APT:-}" = slow ] && sleep 300
     exit 0 ;;
*) exec "$top/harness/apt" "\$@" ;;
esac
EOF
chmod +x "$scratch/fakeapt"

# Unknown kernel version.
"$kernel" fetch 9.9 > /dev/null 2> "$scratch/err"
is "unknown version: exit 1" $? 1
like "unknown version: named" "$scratch/err" "^harness/kernel: unknown kernel version '9\.9'"
check "unknown version: one line" one_line "$scratch/err"
is "unknown version: nothing fetched" "$(ls "$kc" | grep -v -e index -e pkginfo | wc -l)" 0

# A file that is not a kernel image, and a truncated one.
"$kernel" fetch /etc/passwd > /dev/null 2> "$scratch/err"
is "not a kernel: exit 1" $? 1
like "not a kernel: named" "$scratch/err" '^harness/kernel: /etc/passwd is not a kernel image'
check "not a kernel: one line" one_line "$scratch/err"
head -c 2000000 "$real/vmlinuz" > "$scratch/bzImage.cut"
"$kernel" fetch "$scratch/bzImage.cut" > /dev/null 2> "$scratch/err"
is "truncated kernel image: exit 1" $? 1
like "truncated kernel image: named" "$scratch/err" \
	'is a truncated kernel image \(2000000 of [0-9]+ bytes\)'
"$matrix" --quiet --results "$scratch/r" --run-id bad --case "$top/build/cases/uts" /etc/passwd \
	> "$scratch/out" 2>&1
is "matrix with a non-kernel: exit 2 (before anything boots)" $? 2
like "matrix with a non-kernel: one error line" "$scratch/out" \
	'^harness/matrix: /etc/passwd is not a kernel image'

# A kernel without initramfs support (a self-built one, K=/path/bzImage).
mkdir -p "$scratch/tree"
cp "$real/vmlinuz" "$scratch/tree/bzImage"
sed 's/^CONFIG_BLK_DEV_INITRD=y/# CONFIG_BLK_DEV_INITRD is not set/' "$real/config" \
	> "$scratch/tree/config"
start=$(date +%s)
"$matrix" --quiet --results "$scratch/r" --run-id noinitrd --case "$top/build/cases/uts" \
	"$scratch/tree/bzImage" > "$scratch/out" 2>&1
is "no initramfs support: exit 1" $? 1
like "no initramfs support: named" "$scratch/out" \
	'ERROR: .*cannot boot the guest initramfs: CONFIG_BLK_DEV_INITRD is not set'
is "no initramfs support: found before booting" "$(( $(date +%s) - start < 20 ))" 1

# QEMU missing.
NSCONFORM_QEMU=qemu-system-nonexistent "$matrix" --case "$top/build/cases/uts" 5.10 \
	> /dev/null 2> "$scratch/err"
is "QEMU missing: exit 2" $? 2
like "QEMU missing: named" "$scratch/err" \
	'^harness/matrix: QEMU is missing: qemu-system-nonexistent not found'
check "QEMU missing: one line" one_line "$scratch/err"

# A download that arrives truncated.
NSCONFORM_APT=$scratch/fakeapt "$kernel" fetch 5.10 > /dev/null 2> "$scratch/err"
is "corrupt download: exit 1" $? 1
like "corrupt download: named" "$scratch/err" \
	'^harness/kernel: downloaded linux-image-.* is truncated or corrupt'
is "corrupt download: one error line (after the progress note)" \
	"$(grep -vc '^harness/kernel: downloading ' "$scratch/err")" 1
is "corrupt download: no package left in the cache" "$(find "$kc/debs" -type f | wc -l)" 0
is "corrupt download: no temporary folder left" "$(garbage "$kc")" ""

# A download interrupted half way (the fetcher killed outright), then the
# next run fetches it again.
FAKE_APT=slow NSCONFORM_APT=$scratch/fakeapt setsid sh -c \
	'echo $$ > "$1"; exec "$2" fetch 5.10' - "$scratch/pgid" "$kernel" > /dev/null 2>&1 &
for i in $(seq 100); do
	[ -s "$scratch/pgid" ] &&
		[ -n "$(find "$kc/debs" -name '*.deb' -size +1M 2>/dev/null)" ] && break
	sleep 0.1
done
kill -KILL "-$(cat "$scratch/pgid")" 2>/dev/null
wait
check "interrupted download: the killed fetch holds no lock" flock -n "$kc/.lock" true
is "interrupted download: nothing in the cache looks complete" \
	"$(find "$kc/debs" -maxdepth 1 -name '*.deb' | wc -l)" 0
"$kernel" fetch 5.10 > "$scratch/dir" 2> "$scratch/err"
is "interrupted download: the next run succeeds" $? 0
like "interrupted download: it downloaded again" "$scratch/err" \
	'^harness/kernel: downloading linux-image-'
check "interrupted download: the cached kernel verifies" "$kernel" verify "$(cat "$scratch/dir")"
is "interrupted download: the leftovers are gone" "$(garbage "$kc")" ""

# A cached package cut short (copied in, or from an older harness).
rm -rf "$kc/$abi"
deb=$(ls "$kc"/debs/*.deb)
head -c 3000000 "$maindeb" > "$deb"
"$kernel" fetch 5.10 > "$scratch/dir" 2> "$scratch/err"
is "truncated cached package: fetched again" $? 0
like "truncated cached package: named" "$scratch/err" \
	'cached linux-image-.* is truncated or corrupt'
check "truncated cached package: the kernel verifies" "$kernel" verify "$kc/$abi"

# A damaged cached kernel is rebuilt, not booted.
printf 'garbage' | dd of="$kc/$abi/vmlinuz" bs=1 seek=100000 conv=notrunc 2>/dev/null
"$kernel" verify "$kc/$abi" > /dev/null 2>&1
is "damaged cached kernel: verify fails" $? 1
"$kernel" fetch 5.10 > /dev/null 2> "$scratch/err"
is "damaged cached kernel: fetch rebuilds it" $? 0
like "damaged cached kernel: says so" "$scratch/err" 'fails its checksums.*rebuilding it'
check "damaged cached kernel: verifies again" "$kernel" verify "$kc/$abi"

# A cached kernel whose modules were collected for another module list is rebuilt.
echo nosuchmodule > "$kc/$abi/modules/wanted"
"$kernel" fetch 5.10 > /dev/null 2> "$scratch/err"
like "other module list: fetch says it rebuilds" "$scratch/err" 'lacks a module of.*rebuilding it'
today=$(sed 's/#.*//' "$top/harness/guest/modules" | awk 'NF && !seen[$1]++ { print $1 }')
is "other module list: rebuilt for today's list" "$(cat "$kc/$abi/modules/wanted")" "$today"

# No space for the cache: a 16 MB tmpfs (too small for the package) and
# a 90 MB one (room for the package, not for unpacking it).
if [ "$(id -u)" = 0 ] && unshare -m --propagation private true 2>/dev/null; then
	for size in 16m 90m; do
		mkdir -p "$scratch/small-$size"
		unshare -m --propagation private sh -c '
			mount -t tmpfs -o size=$1 nsconform-test "$2" || exit 99
			mkdir "$2/kc" && cp "$3/index" "$3/pkginfo" "$2/kc/"
			NSCONFORM_KERNEL_CACHE="$2/kc" "$4" fetch 5.10 > /dev/null 2> "$5/err-$1"
			echo $? > "$5/rc-$1"
			garbage() { find "$1" -name ".tmp.*" -o -name ".dl.*"; }
			garbage "$2/kc" > "$5/garbage-$1"
			ls "$2/kc" > "$5/ls-$1"' - \
			"$size" "$scratch/small-$size" "$kc" "$kernel" "$scratch"
		is "no space ($size): exit 1" "$(cat "$scratch/rc-$size")" 1
		like "no space ($size): named" "$scratch/err-$size" \
			'^harness/kernel: no space for the cache'
		is "no space ($size): no partial garbage" "$(cat "$scratch/garbage-$size")" ""
	done
	unlike "no space: no kernel folder was left" "$scratch/ls-90m" "^$abi\$"
else
	for i in $(seq 7); do
		skip "no space for the cache" \
			"needs root to mount a tmpfs in its own mount namespace"
	done
fi
done_testing
