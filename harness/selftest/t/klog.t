#!/bin/sh
# Which guest kernel log lines mean the kernel crashed (harness/lib/klog.sh,
# used by harness/matrix): a panic, BUG, Oops or the kernel's own general
# protection fault do; a user program's crash (traps: NAME[PID] ...,
# NAME[PID]: segfault at ...) and what a program writes to /dev/kmsg do not.
# After such a crash, a guest whose tests only time out has stalled
# (harness/lib/vm.sh, guest_stalled).
. "$(dirname "$0")/../lib.sh"
plan 11
. "$top/harness/lib/klog.sh"

# A guest console log where a test program crashed in three ways.
# (Lines longer than 100 columns are put together from two.)
gpf='traps: mnt_ns[4242] general protection fault ip:401a2b sp:7ffd1c0 error:0'
segv='a test prog[4243]: segfault at 0 ip 0000000000401a2b sp 00007ffd1c0 error 4'
cat > "$scratch/user" <<LOG
[    0.000000] Linux version 6.1.0-57-amd64 (debian-kernel@lists.debian.org)
[   12.345678] $gpf in mnt_ns[401000+9a000]
[   12.445678] $segv in a test prog[401000+9a000] likely on CPU 0 (core 0, socket 0)
[   12.445679] Code: 48 89 e5 c7 04 25 00 00 00 00 2a 00 00 00 <0f> 0b
[   12.545678] traps: uts[4244] trap invalid opcode ip:401a2b sp:7ffd1c0 error:0 in uts[401000]
[   12.645678] nsrun[4245]: BUG: a program may write anything to /dev/kmsg
LOG
# dmesg has the same lines without the console's stamps.
sed 's/^\[[ 0-9.]*\] //' "$scratch/user" > "$scratch/user-dmesg"
is "a user program's crash is not a kernel crash (console log)" "$(klog_crash "$scratch/user")" ""
is "nor in dmesg" "$(klog_crash "$scratch/user-dmesg")" ""
is "a missing log is no crash" "$(klog_crash "$scratch/none")" ""

kernel() {	# kernel LINE: the user log, then LINE, as the console shows it
	{ cat "$scratch/user"; echo "[   13.000000] $1"; } > "$scratch/k"
	klog_crash "$scratch/k" "$scratch/none"
}
kgpf='general protection fault, probably for non-canonical address 0xdead: 0000 [#1] SMP'
is "the kernel's general protection fault is a crash" "$(kernel "$kgpf")" "$kgpf"
is "a panic is a crash" "$(kernel 'Kernel panic - not syncing: sysrq triggered crash')" \
	"Kernel panic - not syncing: sysrq triggered crash"
is "a BUG is a crash" "$(kernel 'BUG: kernel NULL pointer dereference, address: 0000000008')" \
	"BUG: kernel NULL pointer dereference, address: 0000000008"
is "an Oops is a crash" "$(kernel 'Oops: 0002 [#1] PREEMPT SMP NOPTI')" \
	"Oops: 0002 [#1] PREEMPT SMP NOPTI"
is "a soft lockup naming a task is a crash" \
	"$(kernel 'watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [mnt_ns:4242]')" \
	"BUG: soft lockup - CPU#0 stuck for 22s! [mnt_ns:4242]"
is "a hung task is a crash" \
	"$(kernel 'INFO: task mnt_ns:4242 blocked for more than 120 seconds.')" \
	"INFO: task mnt_ns:4242 blocked for more than 120 seconds"
# guest_stalled: a guest after an oops whose tests time out one by one (the
# kernel died holding a lock) makes no progress; a real result is progress.
printf '[   13.2] BUG: kernel NULL pointer dereference, address: 0000000000000188\n' \
	> "$scratch/oops.klog"
printf '@@nsconform begin root net_fixes_vti6\nok 1 global.a\n' > "$scratch/stream"
stalled() {
	bash -c '. "$1/harness/lib/klog.sh"; . "$1/harness/lib/vm.sh"
		STALL_TICK_S=30 NSCONFORM_STALL_S=60
		timed_out() {
			printf "# %s: Test terminated by timeout\nnot ok %s global.%s\n" \
				"$1" "$2" "$1" >> "$3"
		}
		guest_stalled "$2" "$3"; echo -n "$?"
		timed_out b 2 "$2"
		guest_stalled "$2" "$3"; echo -n "$?"
		timed_out c 3 "$2"
		guest_stalled "$2" "$3"; echo -n "$?"
		printf "ok 4 global.d\n" >> "$2"
		guest_stalled "$2" "$3"; echo "$?"' - "$top" "$scratch/stream" "$scratch/oops.klog"
}
got=$(stalled)
is "after an oops, 60 s of only timeouts is a stalled guest" "${got%?}" 110
is "a result that is no timeout is progress" "${got#???}" 1
done_testing
