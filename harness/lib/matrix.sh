# harness/lib/matrix.sh - the run folder and the guests of harness/matrix:
# --resume (the arguments a run saved), which kernels of a run are
# complete, the heartbeat of a running guest, why a guest died.  Sourced
# by harness/matrix after its settings; uses its variables.

# --resume RUN: the options and kernels saved in RUN/.matrix-args when the
# run started, then --jobs/--quiet/--results given now.
resume_args() {
	local -a a=() now=() kernels=() saved=()
	local k rd=$results i
	while [ $# -gt 0 ]; do
		case "$1" in
		--resume) [ $# -ge 2 ] || die "--resume needs a run (a results/ run name or path)"
			resume=$2; shift 2 ;;
		--jobs|-j|--results) [ $# -ge 2 ] || die "$1 needs a value"
			[ "$1" = --results ] && rd=$2
			now+=("$1" "$2"); shift 2 ;;
		--quiet) now+=("$1"); shift ;;
		-h|--help) usage; exit 0 ;;
		-*) die "with --resume only --jobs, --quiet and --results may be given:" \
			"the run keeps the options it was started with" ;;
		*) kernels+=("$1"); shift ;;
		esac
	done
	case "$resume" in
	*/*|.|..) resume_dir=$resume ;;
	*) resume_dir=$rd/$resume; [ -d "$resume_dir" ] || resume_dir=$resume ;;
	esac
	[ -d "$resume_dir" ] || die "--resume $resume: no such run folder (under $rd)"
	resume_dir=$(cd "$resume_dir" && pwd)
	[ -f "$resume_dir/.matrix-args" ] ||
		die "--resume $resume: $resume_dir is not a harness/matrix run (no .matrix-args)"
	mapfile -d '' saved < "$resume_dir/.matrix-args"
	for i in "${!saved[@]}"; do [ "${saved[$i]}" = -- ] && break; done
	# Kernels named again (make matrix passes KERNELS) must be the run's.
	if [ ${#kernels[@]} -gt 0 ] &&
		[ "${kernels[*]}" != "${saved[*]:$((i + 1))}" ]; then
		die "--resume $resume: the run was started with kernels ${saved[*]:$((i + 1))}," \
			"not ${kernels[*]} (name none, or the same)"
	fi
	# Environment the kernels were fetched with (CONFIG=, MODULES=).
	for k in "${saved[@]:0:$i}"; do
		case "$k" in @*=*) k=${k#@}; export "${k%%=*}=${k#*=}" ;; *) a+=("$k") ;; esac
	done 2>/dev/null
	resume_set=(${a[@]+"${a[@]}"} ${now[@]+"${now[@]}"}
		--run-id "${resume_dir##*/}" --results "${resume_dir%/*}"
		-- "${saved[@]:$((i + 1))}")
}

# complete SPEC: the folder of the run holding SPEC's complete results
# (its .status says passed, failed or crashed), or nothing.
complete() {
	local d
	for d in "$rundir"/*/; do
		d=${d%/}
		[ -f "$d/.status" ] && [ ! -L "$d" ] || continue
		grep -qxF "asked=$1" "$d/meta" 2>/dev/null || continue
		case "$(cut -f1 "$d/.status")" in passed|failed|crashed) echo "$d"; return ;; esac
	done
}

# heartbeat: one line on a running guest, from its stream.
heartbeat() {
	local el=$(( ($(now_ms) - t0) / 1000 )) n all=$(( ${#cases[@]} * npasses )) cur left=
	n=$(grep -c '^@@nsconform end ' "$jw/stream" 2>/dev/null)
	cur=$(grep '^@@nsconform begin ' "$jw/stream" 2>/dev/null | tail -n 1 | cut -d' ' -f3,4)
	[ "${n:-0}" -gt 0 ] && left=", about $(( el * (all - n) / n )) s left"
	cur=${cur:+ (running ${cur/ //})}
	progress "$i" "$abi: ${el} s, ${n:-0}/$all case binaries done$cur$left"
}

# crashed: why the guest died, or nothing.
crashed() {
	local crash hello done_
	hello=$(frame "$kd" hello_ms) done_=$(frame "$kd" done_ms)
	local re='Kernel panic - not syncing.*|kernel BUG at.*|BUG: .*|Oops: .*'
	re+='|general protection fault.*|INFO: task .* blocked for more than [0-9]+ seconds'
	crash=$(grep -E -m1 -o "$re" "$kd/klog" "$kd/dmesg" 2>/dev/null | head -n 1 |
		sed 's/^[^:]*://')
	if [ $qrc = 124 ] || [ $qrc = 137 ]; then
		crash="watchdog: guest did not finish within $watchdog s${crash:+ ($crash)}"
	elif [ -z "$hello" ] && [ -z "$crash" ]; then
		crash="guest runner never started"
		crash+=" (QEMU exit $qrc: $(grep -v '^$' "$jw/qemu.out" | tail -n 1))"
	elif [ -z "$done_" ] && [ -z "$crash" ]; then
		crash="guest stopped before the end (QEMU exit $qrc)"
	fi
	[ -z "$hello" ] && [ -n "$crash" ] &&
		crash="$crash; the guest runner never started from the initramfs"
	echo "$crash"
}

# resolve_kernels KERNEL...: sets specs, every kernel named (all and
# SERIES:all expanded) once; an unknown kernel, or one named twice, is one
# error line each, then exit 2 before anything is fetched or booted.
resolve_kernels() {
	local s x k out line e errs=()
	local -A seen_by
	specs=()
	for s in "$@"; do
		# (notes on stderr are not kernels; the error is its last line)
		if ! out=$("$top/harness/kernel" expand "$s" 2>/dev/null); then
			out=$("$top/harness/kernel" expand "$s" 2>&1 >/dev/null | tail -n 1)
			errs+=("${out##*harness/kernel: }")
			continue
		fi
		for x in $out; do
			if ! line=$("$top/harness/kernel" resolve "$x" 2>/dev/null); then
				line=$("$top/harness/kernel" resolve "$x" 2>&1 >/dev/null |
					tail -n 1)
				errs+=("${line##*harness/kernel: }")
				continue
			fi
			case "$line" in
			local*) k=$(readlink -f -- "$x") ;;
			*) k=$(echo "$line" | cut -f3) ;;
			esac
			if [ -n "${seen_by[$k]:-}" ]; then
				errs+=("$x and ${seen_by[$k]} are one kernel ($k): name it once")
				continue
			fi
			seen_by[$k]=$x
			specs+=("$x")
		done
	done
	if [ ${#errs[@]} -gt 0 ]; then
		for e in "${errs[@]}"; do echo "$me: $e" >&2; done
		echo "$me: nothing was fetched or booted (make kernels lists the kernels)" >&2
		exit 2
	fi
}

# save_args: what --resume needs to run the rest of a run (options,
# environment, kernels), NUL-separated; a second matrix into the same run,
# as CI jobs do, replaces it.
save_args() {
	local v a prev=
	for v in CONFIG MODULES NSCONFORM_ACCEL; do
		[ -n "${!v:-}" ] && printf '@%s=%s\0' "$v" "${!v}"
	done
	for a in "${orig[@]:0:$nopts}"; do
		[ "$prev" = --case ] && a=$(readlink -f -- "$a")	# resumed from anywhere
		prev=$a
		[ "$a" = -- ] || printf '%s\0' "$a"
	done
	printf -- '--\0'
	printf '%s\0' "${specs[@]}"
}
