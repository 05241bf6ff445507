#!/bin/sh
# The host hygiene check: a run that changes the host fails and shows the
# difference.  The leaking case runs in a throwaway sandbox of new UTS, IPC
# and mount namespaces, so the real host is never touched.
. "$(dirname "$0")/../lib.sh"
plan 16

unshare --uts --ipc --mount --fork sh -c '
	"$1/harness/check" --results "$2/r" --run-id leak --pass root --quiet "$3/leaks"
' sh "$top" "$scratch" "$selftest" > "$scratch/out" 2>&1
is "a run that changes the host fails" $? 1
like "the hygiene verdict says FAIL" "$scratch/out" 'host hygiene: FAIL'
like "the diff names the new hostname" "$scratch/out" '^\+nsconform-leaked'
like "the diff shows the leaked segment" "$scratch/out" '^\+/proc/sysvipc/shm '
like "the diff is kept with the results" "$scratch/r/leak/$(uname -r)/host.diff" 'nsconform-leaked'
# Kernel threads live in session 0, which CI agents' runs share; they are
# not the run's leftovers.
harness_kthreads=$("$top/harness/hygiene" --session 0 | grep -c '(kthreadd)')
is "kernel threads are not counted as session processes" "$harness_kthreads" 0
# With a run token, only processes carrying it count: another run in the same
# session is not this run's leftover.
sid=$(sed 's/.*) //' /proc/$$/stat | cut -d' ' -f4)
NSCONFORM_RUN_TOKEN=otherrun sleep 30 &
other=$!
NSCONFORM_RUN_TOKEN=thisrun sleep 30 &
mine=$!
NSCONFORM_RUN_TOKEN=thisrun "$top/harness/hygiene" --session "$sid" > "$scratch/procs"
like "a process carrying the run's token is listed" "$scratch/procs" "^$mine "
unlike "another run's process in the same session is not" "$scratch/procs" "^$other "
kill "$other" "$mine"
wait 2>/dev/null

# What the kernel changes by itself is not a change: in namespaces of our
# own (network, and mount, UTS, IPC so that nothing else running on the
# host shows in the snapshots), a leased address (lifetimes counting down),
# IPv6 addresses leaving duplicate address detection (tentative, then plain
# or dadfailed) and a route that expires.  Snapshots seconds apart compare
# equal; an added address or route and a flag a case set still show.  The
# namespaces are held by a sleeping process and entered with nsenter (ip
# netns add would mount on the host's /run).
if [ "$(id -u)" != 0 ] || ! command -v ip >/dev/null || ! command -v nsenter >/dev/null; then
	for i in 1 2 3 4 5 6 7 8; do skip "needs root, ip (iproute2) and nsenter"; done
	done_testing
fi
unshare --net --mount --uts --ipc --fork sh -c 'echo $$ > "$1"; exec sleep 300' - \
	"$scratch/holder" &
for i in 1 2 3 4 5 6 7 8 9 10; do [ -s "$scratch/holder" ] && break; sleep 0.2; done
holder=$(cat "$scratch/holder")
trap 'kill "$holder" 2>/dev/null; rm -rf "$scratch"' EXIT
in_ns() { nsenter -t "$holder" -n -m -u -i "$@"; }
# The network sections: processes elsewhere on the host may add cgroups
# under ours meanwhile.
snap() { in_ns "$top/harness/hygiene" | sed -n '/^== links/,/^== sysvipc/p' > "$scratch/$1"; }
in_ns ip link add v0 type veth peer name v1
# DAD on v0 takes 12 probes of half a second, so that a snapshot (seconds on
# a busy host) fits in it.
in_ns sysctl -qw net.ipv6.conf.v0.dad_transmits=12 net.ipv6.neigh.v0.retrans_time_ms=500
in_ns ip link set v0 up
in_ns ip link set v1 up
in_ns ip addr add 10.9.9.9/24 dev v0 valid_lft 300 preferred_lft 300
in_ns ip -6 route add 2001:db8:1::/64 dev v0 expires 300
# v0 holds 2001:db8::5 without DAD, so the same address on v1 fails it.
tentative() { in_ns ip -o addr show dev "$1" | grep -q "$2/64 .*tentative"; }
in_ns ip addr add 2001:db8::5/64 dev v0 nodad
in_ns ip addr add 2001:db8::5/64 dev v1
in_ns ip addr add 2001:db8::1/64 dev v0
snap leased-1
in_ns ip -o addr show > "$scratch/ip-addr-1"
like "the first snapshot was taken during duplicate address detection" \
	"$scratch/ip-addr-1" '2001:db8::1/64 .*tentative'
for i in $(seq 60); do tentative v0 2001:db8::1 || break; sleep 0.5; done
sleep 2
snap leased-2
in_ns ip -o addr show > "$scratch/ip-addr"
unlike "then the address passed it" "$scratch/ip-addr" '2001:db8::1/64 .*tentative'
like "an address failed DAD" "$scratch/ip-addr" '2001:db8::5/64 .*dadfailed'
like "the namespace's address lifetimes counted down" "$scratch/ip-addr" \
	'inet 10\.9\.9\.9/24 .*valid_lft (1[0-9][0-9]|2[0-8][0-9]|29[0-8])sec'
diff -u "$scratch/leased-1" "$scratch/leased-2" > "$scratch/leased.diff"
is "lifetimes, DAD state and route expiry are not a change" "$(cat "$scratch/leased.diff")" ""
in_ns ip addr add 10.9.9.10/24 dev v0
in_ns ip link set v1 promisc on
snap changed
diff -u "$scratch/leased-2" "$scratch/changed" > "$scratch/changed.diff"
like "an added address is a change" "$scratch/changed.diff" '^\+.*inet 10\.9\.9\.10/24'
like "a flag set on a link is a change" "$scratch/changed.diff" '^\+.* v1@v0: <[A-Z_,]*PROMISC'
in_ns ip -6 route add 2001:db8:2::/64 dev v0
snap routed
like "an added route is a change" "$scratch/routed" '^2001:db8:2::/64 dev v0'
kill "$holder"
wait
done_testing
