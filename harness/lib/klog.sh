# harness/lib/klog.sh (POSIX sh) - which kernel log lines report a kernel problem that
# ends a guest (source it).  Defines:
#   klog_crash FILE...   the first such report in the logs (a console log
#                        with "[  1.234567] " stamps, or dmesg), from its
#                        match on; nothing when there is none
# A user program's crash is the test's failure, not the kernel's: the lines
# "traps: NAME[PID] general protection fault ... in NAME[...]",
# "NAME[PID]: segfault at ..." and whatever a program writes to /dev/kmsg
# ("NAME[PID]: ...") never count.  harness/nsrun.c (klog_from_user) has the
# same rule for the per-test KERNEL-HEALTH marker.
klog_crash_re='Kernel panic - not syncing.*|kernel BUG at.*|BUG: .*|Oops: .*|general protection '\
'fault.*|INFO: task .* blocked for more than [0-9]+ seconds'
# NAME is a task's comm: 1 to 15 characters, no brackets, spaces allowed.
klog_user_re='^(\[ *[0-9]+\.[0-9]+\] )?(traps: )?[^][]{1,15}\[[0-9]+\][ :]'

klog_crash() {
	cat -- "$@" 2>/dev/null | grep -Ev -- "$klog_user_re" | grep -Eo -m1 -- "$klog_crash_re"
}
