# harness/lib/mutate.sh - harness/mutate's scheduler: which run starts next,
# what a run that ended means, and when a mutant's pass is decided.  Sourced
# by harness/mutate after the baseline, it only defines functions; they use
# harness/mutate's variables (out, passes, mutants, cases, bin, cache, the
# per-binary limit, applies, calls and tms, and the scheduler's state: q cq
# infl st job stopped kbin tried nbin confirmed rec) and its launch, stop_job,
# collect and say.
# shellcheck shell=bash

# killers PASS DIR: "test how" for baseline tests that fail or are missing
# in DIR (how: fail or missing); DIR/turned-skip lists those now skipped.
# Only the binaries run in DIR (DIR/ran) count: the others kept the baseline.
killers() {
	collect "$2"
	touch "$2/ran"
	awk 'NR == FNR { ran[$1]; next } { c = $1; sub(/:.*/, "", c) } c in ran' \
		"$2/ran" "$out/$1/baseline" > "$2/baseline"
	join -a 1 -e missing -o 0,2.2 "$2/baseline" "$2/all.v" > "$2/joined"
	awk '$2 == "skip" { print $1 }' "$2/joined" > "$2/turned-skip"
	awk '$2 != "pass" && $2 != "skip"' "$2/joined"
}

# kills_of PASS DIR NAME: "test how" for the baseline tests of binary NAME
# that fail or are missing in DIR/NAME.tap.
kills_of() {
	awk -v c="$3" 'index($1, c ":") == 1' "$out/$1/baseline" > "$2/$3.base"
	{ [ ! -s "$2/$3.tap" ] || "$top/harness/verdicts" --by-case "$2/$3.tap"; } |
		sort > "$2/$3.v"
	join -a 1 -e missing -o 0,2.2 "$2/$3.base" "$2/$3.v" | awk '$2 != "pass" && $2 != "skip"'
}

# record_killer M PASS NAME: NAME killed M in PASS; the next run tries it first.
record_killer() {
	local f=$cache/killers
	{ grep -v "^$1 $2 " "$f"; echo "$1 $2 $3"; } > "$f.$$" 2>/dev/null && mv "$f.$$" "$f"
}

# order M PASS: the binaries the mutant applies to, likeliest killer first.
order() {
	local c name n r
	for c in "${cases[@]}"; do
		name=${c##*/}
		case "${applies[$2/$name]}" in *" $1 "*) ;; *) continue ;; esac
		n=${calls[$2/$name]#* $1=}
		n=${n%% *}
		# rank (the recorded killer first), calls per traced second, name
		r=1
		[ "${rec[$1/$2]:-}" != "$name" ] || r=0
		echo "$r $(( n * 1000000 / (${tms[$2/$name]} + 500) )) $name"
	done | sort -k1,1n -k2,2nr -k3,3 | awk '{ print $3 }' | paste -sd ' ' -
}

# announce M: the progress line before a mutant's first run.
announce() {
	case " $announced " in *" $1 "*) return ;; esac
	announced="$announced $1"
	local k
	k=$(echo $announced | wc -w)
	[ "$total" -gt 0 ] && per=$(( ($(date +%s) - t_mut) / total ))
	echo "# mutant $k/$nm: $1, about $(( per * (nm - total) / 60 + 1 )) min left"
}

# start PASS M run|confirm NAME
start() {
	local sub=$2
	[ "$3" = confirm ] && sub=$2/confirm
	announce "$2"
	launch "$1" "$sub" "$bin/$4" "${limit[$1/$4]}"
	job[$!]="$1 $2 $3 $4"
	# Overdue after twice its traced baseline and 3 s: most likely it hangs
	# in a wait the lie broke, and will go missing at its limit.
	due[$!]=$(( ${EPOCHREALTIME/./} / 1000 + 2 * ${tms[$1/$4]} + 3000 ))
	infl[$2/$1]=$(( ${infl[$2/$1]:-0} + 1 ))
	[ "$3" = run ] && tried[$2/$1]=$(( ${tried[$2/$1]:-0} + 1 ))
}

# busy: the runs that hold a slot (overdue ones do not: they wait, and the
# next binary of their pass may kill the mutant sooner), per key in nbusy.
busy() {
	local p now=$(( ${EPOCHREALTIME/./} / 1000 )) k
	nbusy=() n_busy=0
	for p in "${!job[@]}"; do
		[ "$now" -lt "${due[$p]}" ] || continue
		k=${job[$p]#* }
		k=${k%% *}/${job[$p]%% *}
		nbusy[$k]=$(( ${nbusy[$k]:-0} + 1 ))
		n_busy=$((n_busy + 1))
	done
}

# pick: start the next run when a slot is free (and fewer than twice the
# slots run, overdue ones included): a confirm first (it decides a mutant),
# else a run of the open key with the fewest runs holding a slot, the
# earliest mutant first.  Returns 1 when nothing can start.
pick() {
	local m pass k best= bestn=999999 n
	busy
	[ "$n_busy" -lt "$jobs_n" ] && [ ${#job[@]} -lt $((2 * jobs_n)) ] || return 1
	for m in $mutants; do
		for pass in $passes; do
			k=$m/$pass
			[ "${st[$k]}" = open ] || continue
			if [ -n "${cq[$k]}" ]; then
				set -- ${cq[$k]}
				cq[$k]=${*:2}
				start "$pass" "$m" confirm "$1"
				return 0
			fi
			[ -n "${q[$k]}" ] || continue
			n=$(( ${nbusy[$k]:-0} ))
			[ "$n" -lt "$bestn" ] && best=$k bestn=$n
		done
	done
	[ -n "$best" ] || return 1
	m=${best%/*} pass=${best#*/}
	set -- ${q[$best]}
	q[$best]=${*:2}
	start "$pass" "$m" run "$1"
}

# decide M PASS killed|survived: the pass's verdict; the mutant's line when
# both passes have one.
decide() {
	local m=$1 pass=$2 k=$1/$2 p dir n_applied kk first more why line
	st[$k]=$3
	for p in "${!job[@]}"; do
		case "${job[$p]}" in "$pass $m "*) stopped[$p]=1; stop_job "$p" ;; esac
	done
	[ "$3" = killed ] && [ -n "${kbin[$k]:-}" ] && record_killer "$m" "$pass" "${kbin[$k]}"
	for pass in $passes; do [ "${st[$m/$pass]}" = open ] && return; done
	announce "$m"
	total=$((total + 1))
	line=$(printf '%-19s' "$m")
	for pass in $passes; do
		dir=$out/$pass/$m
		k=$m/$pass
		kk=$(wc -l < "$dir/killers")
		if [ "${st[$k]}" = killed ]; then
			killed_n[$pass]=$((killed_n[$pass] + 1))
			first=$(head -n 1 "$dir/killers")
			more=; [ "$kk" -gt 1 ] && more=" +$((kk - 1))"
			line="$line  $pass: killed by $first$more"
			[ -n "$all_killers" ] ||
				line="$line (${tried[$k]} of ${nbin[$k]} binaries run)"
			continue
		fi
		# One "# mutant: ...: applied N" line per run (tap files of this dir only).
		n_applied=$(find "$dir" -maxdepth 1 -name '*.tap' -exec cat {} + |
			awk '/^# mutant: .*: applied [0-9]+$/ { s += $NF } END { print s + 0 }')
		killers "$pass" "$dir" > /dev/null
		why="lie applied $n_applied time$([ "$n_applied" = 1 ] || echo s)"
		[ "$n_applied" = 0 ] && [ -z "$strace" -o "${m#fake-}" = "$m" ] &&
			why="never applied: no case makes that call"
		[ -n "$strace" ] && [ "${m#fake-}" != "$m" ] && why="through strace"
		[ -s "$dir/killers.1" ] && why="$why; first-round kills did not repeat"
		[ -s "$dir/turned-skip" ] &&
			why="$why; $(wc -l < "$dir/turned-skip") tests turned SKIP"
		line="$line  $pass: SURVIVED ($why)"
	done
	say "$line"
	done_m="$done_m $m"
}

# check M PASS: a key with nothing left to run or confirm is decided; with
# --all-killers its confirm runs are chosen first (the quickest killers).
check() {
	local k=$1/$2 dir=$out/$2/$1
	[ "${st[$k]}" = open ] && [ -z "${q[$k]}" ] && [ -z "${cq[$k]}" ] &&
		[ "${infl[$k]:-0}" = 0 ] || return 0
	if [ -n "$all_killers" ] && [ -z "${confirmed[$k]:-}" ] && [ -s "$dir/killers.1" ]; then
		confirmed[$k]=1
		cq[$k]=$(sed 's/:.*//' "$dir/killers.1" | sort -u |
			while read -r n; do
				echo "$(cat "$dir/$n.ms" 2>/dev/null || echo 0) $n"
			done |
			sort -n | awk -v max="$confirm" 'max == 0 || NR <= max { print $2 }' |
			paste -sd ' ' -)
		return 0
	fi
	if [ -s "$dir/killers" ]; then
		decide "$1" "$2" killed
	else
		decide "$1" "$2" survived
	fi
}

# finished PID: a run ended; a first run's kill gets its confirm run, a
# confirm run's repeated kill kills the mutant's pass.
finished() {
	local pass m kind name k dir sub
	read -r pass m kind name <<< "${job[$1]}"
	unset "job[$1]" "due[$1]"
	k=$m/$pass dir=$out/$pass/$m sub=$dir
	infl[$k]=$(( ${infl[$k]} - 1 ))
	[ "$kind" = confirm ] && sub=$dir/confirm
	if [ -n "${stopped[$1]:-}" ]; then
		# Stopped when the pass was decided: not a measurement.
		unset "stopped[$1]"
		rm -f "$sub/$name.tap" "$sub/$name.err" "$sub/$name.ms"
		return
	fi
	echo "$name" >> "$sub/ran"
	if [ "$kind" = run ]; then
		kills_of "$pass" "$dir" "$name" > "$dir/$name.kills"
		if [ -s "$dir/$name.kills" ]; then
			cat "$dir/$name.kills" >> "$dir/killers.1"
			[ -n "$all_killers" ] || cq[$k]="${cq[$k]} $name"
		fi
	else
		kills_of "$pass" "$sub" "$name" | join "$dir/$name.kills" - |
			awk '{ print $1 ($2 == "missing" ? "(missing)" : "") }' \
			> "$sub/$name.killers"
		if [ -s "$sub/$name.killers" ]; then
			cat "$sub/$name.killers" >> "$dir/killers"
			kbin[$k]=${kbin[$k]:-$name}
			[ -n "$all_killers" ] || { decide "$m" "$pass" killed; return; }
		fi
	fi
	check "$m" "$pass"
}
