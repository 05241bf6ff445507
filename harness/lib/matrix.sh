# harness/lib/matrix.sh - the run folder and the guests of harness/matrix:
# --resume (the arguments a run saved), the kernels named (resolved before
# anything boots), which kernels of a run are complete, a kernel's folder
# finished in one rename (or as an error), the heartbeat of a running
# guest, and the interrupt.  Sourced by harness/matrix; uses its variables.

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

# finish DIR STATUS LINE: DIR (built in the job's folder) becomes the
# kernel's folder of the run, in one rename; STATUS<TAB>LINE is its summary.
finish() {
	local dir=$1 name=${1##*/}
	printf '%s\t%s\n' "$2" "$3" > "$dir/.status"
	rm -rf "${rundir:?}/$name"
	mv "$dir" "$rundir/$name" ||
		{ echo "error	cannot move $name into $rundir" > "$jw/status"; return; }
	printf '%s\t%s\n' "$2" "$3" > "$jw/status"
}

# error_out NAME STAGE MESSAGE...: a kernel that could not be run.  STAGE:
# fetch, config, initramfs or boot (harness/RESULTS.md).
error_out() {
	local name=$1 stage=$2 dir
	shift 2
	dir=$jw/k/$name
	mkdir -p "$dir"
	[ -f "$dir/meta" ] || {
		echo "kernel=$name"
		echo "where=qemu"
		echo "date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
		echo "passes=$passes"
		echo "asked=$spec"
		# What is known of a kernel that was fetched (as write_meta_vm).
		[ "$kdir" = - ] ||
			sed -n 's/^\(abi\|version\|layout\|packages\|source\)=/kernel_\1=/p
				s/^\(image\|config\)=/kernel_\1=/p' "$kdir/SOURCE" 2>/dev/null
	} > "$dir/meta"
	{
		echo "status=error"
		echo "error_stage=$stage"
		echo "error=$*"
	} >> "$dir/meta"
	local what=
	case "$stage" in
	fetch) what="could not be fetched" ;;
	config) what="its config cannot boot the guest" ;;
	initramfs) what="its guest initramfs could not be built" ;;
	esac
	progress "$i" "$spec: ERROR: $what (the reason is in the summary at the end)"
	finish "$dir" error "$*"
}

# Stop the guests, let every job finish a guest that completed, say how to
# go on; the EXIT trap removes the temporary files.
on_signal() {
	trap 'exit 130' INT TERM HUP	# a second interrupt does not wait
	interrupted=1
	: > "$work/stop"
	echo "nsconform: interrupted: stopping the guests" >&2
	[ -z "$fg_pid" ] || kill -TERM "$fg_pid" 2>/dev/null
	guest_stop_all "$work"
	for p in $(jobs -p); do kill -TERM "$p" 2>/dev/null; done
	wait 2>/dev/null
	local n=0 i
	for i in "${!specs[@]}"; do [ -n "$(complete "${specs[$i]}")" ] && n=$((n + 1)); done
	echo "nsconform: run $run_id interrupted: $n of ${#specs[@]} kernel(s) complete" \
		"in ${rundir#"$top"/}" >&2
	echo "nsconform: to go on: harness/matrix --resume ${rundir#"$top"/}" \
		"(make matrix RESUME=$run_id)" >&2
	exit 130
}

# crash_known KDIR: whether a guest whose kernel crashed lost only known
# results: harness/report finds no unexpected failure in KDIR (the tests of
# the case the kernel died in, and those it never reached, are covered by
# fixtures/data/expectations: a kernel bug already on file).  The crash is
# still the kernel folder's status; only the run's exit status is spared.
# Cases the guest never reached (meta's not_run=) have no results for report
# to judge: a crash that lost them is never known.  Nor is one with nothing of
# the kernel's to blame, no oops in its log and no case running when the guest
# died (a watchdog stop after the last case): no entry can cover it.
crash_known() {
	local out	# (not report | grep -q: report exits 1 on a crash, pipefail)
	grep -q '^not_run=' "$1/meta" && return 1
	grep -q '^crash_case=' "$1/meta" || [ -n "$(klog_crash "$1/klog" "$1/dmesg")" ] ||
		return 1
	out=$("$top/harness/report" --failures "$1" 2>/dev/null)
	printf '%s\n' "$out" |
		grep -E '^nsconform: what is wrong: (.*, )?0 unexpected failure\(s\)' > /dev/null
}
