# harness/lib/vm.sh - QEMU guests for harness/matrix and harness/bench-vm:
# one command builder, the KVM probe, the config check, and the one parser
# of the guest's framing lines.  Source it after harness/lib/nsconform.sh;
# it uses cache, qemu and work (a temporary folder).

# qemu_cmd ACCEL MEMORY KDIR INITRD APPEND SERIAL...: sets qcmd, the QEMU
# command line of a guest: one vCPU, no devices but the serial ports named
# (a file:PATH or none each, ttyS0 first), no reboot (a panic stops it);
# named $qname when that is set.  guest_arch=arm64: the virt machine under
# TCG (NSCONFORM_ARM64_CPU, default cortex-a57: -cpu max authenticates
# pointers in software, much slower), its PL011 (ttyAMA0) the first port,
# the others PCI serial ports (ttyS0...).
qemu_cmd() {
	local accel=$1 memory=$2 kdir=$3 initrd=$4 append=$5 cpu=max s n=0
	shift 5
	[ "$accel" = kvm ] && cpu=host
	qcmd=("$qemu")
	[ -z "${qname:-}" ] || qcmd+=(-name "$qname")
	if [ "${guest_arch:-amd64}" = arm64 ]; then
		qcmd+=(-machine virt -accel tcg -cpu "${NSCONFORM_ARM64_CPU:-cortex-a57}")
		qcmd+=(-smp "${qcpus:-1}" -m "$memory" -nodefaults -nographic -no-reboot)
		qcmd+=(-netdev hubport,id=n0,hubid=0 -device e1000,netdev=n0)
		qcmd+=(-serial "$1")
		shift
		for s; do
			n=$((n + 1))
			case "$s" in
			file:*) qcmd+=(-chardev "file,id=s$n,path=${s#file:}") ;;
			*) qcmd+=(-chardev "null,id=s$n") ;;
			esac
			qcmd+=(-device "pci-serial,chardev=s$n")
		done
		qcmd+=(-kernel "$kdir/vmlinuz" -initrd "$initrd" -append "$append")
		return
	fi
	qcmd+=(-accel "$accel" -cpu "$cpu" -smp "${qcpus:-1}" -m "$memory")
	qcmd+=(-nodefaults -nographic -no-reboot)
	# One PCI network card on a hub of its own (no host side): a physical
	# device nobody uses, for cases/net_phys.c.  No option ROM: nothing
	# boots from it, and the firmware would start iPXE's for nothing.
	qcmd+=(-netdev hubport,id=n0,hubid=0 -device e1000,netdev=n0,romfile=)
	for s; do qcmd+=(-serial "$s"); done
	kernel_image "$kdir"
	qcmd+=(-kernel "$kimage" -initrd "$initrd" -append "$append")
}

# kernel_image KDIR: sets kimage, what QEMU boots: the uncompressed vmlinux
# at its PVH entry (harness/guest/pvh: no real-mode setup, no decompression
# in the guest, 1-2 s less per boot under TCG) when the kernel has one, else
# the bzImage; boot_how says which and why (NSCONFORM_BOOT=bzimage: always
# the bzImage).
kernel_image() {
	local why
	kimage=$1/vmlinuz boot_how=bzimage
	if [ "${NSCONFORM_BOOT:-pvh}" = bzimage ]; then
		boot_how="bzimage (NSCONFORM_BOOT=bzimage)"
	elif why=$("$top/harness/guest/pvh" "$1" 2>&1); then
		kimage=$why boot_how=pvh
	else
		boot_how="bzimage (${why#harness/guest/pvh: })"
	fi
}

# /dev/kvm may exist and open and still hang nested guests: decide by a
# short boot of an empty guest, remembered for this host boot.  Prints
# "kvm|tcg<TAB>why".
probe_kvm() {
	local kdir=$1 bid memo t=${NSCONFORM_KVM_PROBE_TIMEOUT:-8} r rc
	[ -r /dev/kvm ] && [ -w /dev/kvm ] || { printf 'tcg\tno usable /dev/kvm\n'; return; }
	bid=$(cat /proc/sys/kernel/random/boot_id 2>/dev/null)
	memo=$cache/kvm-probe
	if [ -n "$bid" ] && [ -f "$memo" ] && [ "$(cut -f1 "$memo")" = "$bid" ]; then
		cut -f2- "$memo"
		return
	fi
	"$top/harness/guest/mkinitramfs" --bare "$work/probe.cpio" "$kdir" ||
		{ printf 'tcg\tcannot build the probe initramfs\n'; return; }
	qemu_cmd kvm 256 "$kdir" "$work/probe.cpio" "panic=-1 quiet" none
	timeout -k 2 "$t" "${qcmd[@]}" >"$work/probe.out" 2>&1 </dev/null
	rc=$?
	case $rc in
	0) r="kvm	a KVM probe guest booted to poweroff" ;;
	124|137) r="tcg	a KVM probe guest did not finish in ${t}s" ;;
	*) r="tcg	KVM failed: $(grep -m1 -i -e error -e fail "$work/probe.out" |
		sed 's/^[^:]*: //')" ;;
	esac
	[ -n "$bid" ] &&
		{ mkdir -p "$cache" && printf '%s\t%s\n' "$bid" "$r" > "$memo"; } 2>/dev/null
	echo "$r"
}

# config_missing CONFIG: the options of fixtures/data/config that CONFIG (a
# kernel's .config) neither builds in nor as a module, one line.
config_missing() {
	local o missing=
	for o in $(sed -n 's/^\(CONFIG_[A-Z0-9_]*\)=[ym]$/\1/p' "$top/fixtures/data/config"); do
		grep -q "^$o=[ym]" "$1" || missing="$missing${missing:+ }$o"
	done
	echo "$missing"
}

# demux STREAM KDIR PASSES: split what the guest sent on ttyS1 (framing
# lines "@@nsconform WHAT ...", harness/guest/init) into KDIR: PASS/CASE.tap,
# PASS/nsrun.err, dmesg, guest.log, .cases ("PASS CASE rc= ms= taint="),
# .unfinished (the case running when the stream stopped) and .frames
# (hello_release=, hello_ms=, ready_ms=, done_ms=, uname=, module lines).
demux() {
	awk -v kd="$2" -v passes="$3" '
	BEGIN { split(passes, P, " "); for (p in P) system("mkdir -p \"" kd "/" P[p] "\"") }
	function frame(k, v) { print k "=" v > (kd "/.frames") }
	function field(name,  i) {
		for (i = 3; i <= NF; i++)
			if (index($i, name "=") == 1) return substr($i, length(name) + 2)
		return ""
	}
	/^@@nsconform begin / { f = kd "/" $3 "/" $4 ".tap"; printf "" > f; cur = $3 " " $4; next }
	/^@@nsconform end / {
		close(f); f = ""
		print cur, $5, $6, $7 > (kd "/.cases"); next }
	/^@@nsconform err / {
		sub(/^@@nsconform err /, "")
		print > (kd "/" substr(cur, 1, index(cur, " ") - 1) "/nsrun.err"); next }
	/^@@nsconform dmesg / { sub(/^@@nsconform dmesg /, ""); print > (kd "/dmesg"); next }
	/^@@nsconform hello / && !hello++ {
		frame("hello_release", field("release")); frame("hello_ms", field("uptime_ms")) }
	/^@@nsconform ready / && !ready++ { frame("ready_ms", field("uptime_ms")) }
	/^@@nsconform done / && !done_++ { frame("done_ms", field("uptime_ms")) }
	/^@@nsconform uname / && !uname++ {
		s = $0; sub(/^@@nsconform uname /, "", s); frame("uname", s) }
	/^@@nsconform / { sub(/^@@nsconform /, ""); print > (kd "/guest.log"); next }
	f != "" { print > f; next }
	{ print > (kd "/guest.log") }
	END { if (f != "") print cur > (kd "/.unfinished"); printf "" >> (kd "/.frames") }
	' "$1"
}

# frame KDIR KEY: a value demux found.
frame() { sed -n "s/^$2=//p" "$1/.frames" | head -n 1; }

# guest_start PIDFILE WATCHDOG OUT: start the guest of qcmd in the
# background under timeout(1), which makes itself a process group of its
# own (so a Ctrl-C or a TERM to our group does not reach QEMU); its pid,
# that group's id, goes to PIDFILE and to guest_pid.
guest_start() {
	timeout -k 5 "$2" "${qcmd[@]}" > "$3" 2>&1 < /dev/null &
	guest_pid=$!
	echo "$guest_pid" > "$1"
}

# guest_running PID: whether that guest's timeout process still runs (a
# zombie has ended: its status waits for wait).  Built-ins only.
guest_running() {
	local _a _b st
	{ read -r _a _b st _ < "/proc/$1/stat"; } 2>/dev/null || return 1
	[ "$st" != Z ]
}

# guest_stop PID [SIGNAL]: stop a guest started by guest_start, QEMU and
# its timeout together (the whole process group).
guest_stop() {
	kill -"${2:-TERM}" -- "-$1" 2>/dev/null || kill -"${2:-TERM}" "$1" 2>/dev/null
}

# guest_stop_all DIR...: stop every guest whose pid is in DIR/*/qemu.pid,
# then make sure they are gone (KILL after 5 s).
guest_stop_all() {
	local p pids= d t
	for d; do
		for p in "$d"/*/qemu.pid; do
			[ -s "$p" ] || continue
			pids="$pids $(cat "$p")"
		done
	done
	[ -n "$pids" ] || return 0
	for p in $pids; do guest_stop "$p"; done
	for t in $(seq 50); do
		for p in $pids; do guest_running "$p" && break; p=; done
		[ -z "$p" ] && return 0
		sleep 0.1
	done
	for p in $pids; do guest_stop "$p" KILL; done
}

# guest_stalled STREAM KLOG: whether a running guest is past saving: its
# kernel logged an oops or BUG (klog_crash) and the runner has made no
# progress for NSCONFORM_STALL_S seconds (default 60) since.  Progress is a
# test result other than a kselftest timeout, or a case's start or end: a
# kernel that died holding a lock (the RTNL) leaves every later test to time
# out, one result line each 30 s, and that is no progress.  Call it about
# every 5 s (STALL_TICK_S); it keeps its state in stall_size, stall_s.  A
# guest whose kernel died but did not panic otherwise waits out the whole
# watchdog (the sweep's 1,800 s) with its cases stuck in the kernel.
stall_size=-1 stall_s=0
guest_stalled() {
	local s t
	s=$(grep -Ec '^(ok |not ok |@@nsconform (begin|end|done) )' "$1" 2>/dev/null) || s=0
	t=$(grep -c 'Test terminated by timeout' "$1" 2>/dev/null) || t=0
	s=$((s - t))
	if [ "$s" != "$stall_size" ]; then
		stall_size=$s stall_s=0
		return 1
	fi
	stall_s=$((stall_s + ${STALL_TICK_S:-5}))
	[ "$stall_s" -ge "${NSCONFORM_STALL_S:-60}" ] && [ -n "$(klog_crash "$2")" ]
}
