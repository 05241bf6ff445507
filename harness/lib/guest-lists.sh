# harness/lib/guest-lists.sh - the one reader of each list that says what
# goes into a guest: fixtures/data/guest-only (NSCONFORM_GUEST_ONLY names
# another file; for harness/lib/nsconform.sh's host_cases and
# harness/guest/mkinitramfs) and harness/guest/modules (for mkinitramfs and
# harness/sweep), and of the modules' own dependencies (for harness/kernel
# and mkinitramfs).  Source it with top set.
guest_only_file=${NSCONFORM_GUEST_ONLY:-$top/fixtures/data/guest-only}

# guest_only_entries: a line per binary of the file, in its order: NAME,
# SECS (its timeout=, else empty) and WHY, split by the unit separator
# (\037: a tab would merge an empty SECS away).  Lines starting with # are
# comments; a missing file has no entries.
guest_only_entries() {
	local n t why
	[ -r "$guest_only_file" ] || return 0
	while read -r n t why; do
		case "$t" in
		timeout=[0-9]*) t=${t#timeout=} ;;
		*) why="$t${why:+ $why}" t= ;;
		esac
		printf '%s\037%s\037%s\n' "$n" "$t" "$why"
	done < <(sed 's/^#.*//' "$guest_only_file" | awk 'NF')
}

# guest_modules_entries [FILE]: a line per module of harness/guest/modules
# (or FILE), in its order: NAME (a - read as _), then CASE for a for=CASE
# word (a line each), else NAME alone (loaded at boot).  # starts a comment.
guest_modules_entries() {
	local name rest w n
	while read -r name rest; do
		name=${name//-/_} n=0
		for w in $rest; do
			case "$w" in for=?*) echo "$name ${w#for=}"; n=1 ;; esac
		done
		[ "$n" = 1 ] || echo "$name"
	done < <(sed 's/#.*//' "${1:-$top/harness/guest/modules}" | awk 'NF')
}

# ko_depends DIR NAME...: a line per module DIR/NAME.ko that has a depends=
# (modinfo) string: NAME, then the modules it names (a - read as _), by
# spaces.  One grep reads them all.
ko_depends() {
	local dir=$1 m d
	shift
	[ $# -gt 0 ] || return 0
	while IFS=: read -r m d; do
		d=${d#depends=}
		d=${d//,/ }
		echo "${m%.ko} ${d//-/_}"
	done < <(cd "$dir" && grep -a -o -m 1 -H 'depends=[A-Za-z0-9_,-]*' -- "${@/%/.ko}")
}
