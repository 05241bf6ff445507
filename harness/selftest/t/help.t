#!/bin/sh
# Every harness command answers --help and -h with its usage on standard
# output and exit 0, and does nothing else: no work started (the installer,
# apt, QEMU, prove are fakes here that leave a mark when called), no stray
# script line ("set -eu") after the text, more than a one-line usage.
. "$(dirname "$0")/../lib.sh"
cmds=
for f in "$top"/harness/* "$top"/harness/selftest/run; do
	[ -f "$f" ] && [ -x "$f" ] || continue
	case $f in *.c|*.md|*.xsd) continue ;; esac
	cmds="$cmds ${f#"$top"/}"
done
plan $(( $(echo $cmds | wc -w) * 2 + 4 ))

# Fakes of what a command could start; dpkg-query says nothing is installed,
# so that an installer that runs would call apt-get.
mkdir "$scratch/bin"
for p in apt-get apt-cache dpkg-query prove qemu-system-x86_64 sudo make; do
	printf '#!/bin/sh\necho "%s $*" >> "%s/ran"\nexit 1\n' "$p" "$scratch" > "$scratch/bin/$p"
	chmod +x "$scratch/bin/$p"
done

for c in $cmds; do
	for opt in --help -h; do
		rm -f "$scratch/ran"
		(cd "$scratch" && PATH="$scratch/bin:$PATH" timeout 20 "$top/$c" $opt) \
			> "$scratch/out" 2> "$scratch/err" < /dev/null
		rc=$?
		why=
		[ $rc = 0 ] || why="$why exit $rc;"
		[ "$(grep -c . "$scratch/out")" -ge 3 ] ||
			why="$why $(grep -c . "$scratch/out") line(s) of usage;"
		grep -q "${c#harness/}" "$scratch/out" || why="$why the command is not named;"
		! grep -Eq '^ *set [-+]' "$scratch/out" || why="$why a script line in the text;"
		[ ! -s "$scratch/err" ] || why="$why stderr: $(head -c 200 "$scratch/err");"
		[ ! -e "$scratch/ran" ] || why="$why it ran: $(head -n 2 "$scratch/ran");"
		is "$c $opt: usage only, exit 0" "${why:-fine}" fine
	done
done

# make help shows how to choose what runs, the fast tier, the apt lists
# behind make kernels, and that make findings rewrites README.md.
make -s -C "$top" help > "$scratch/out" 2>&1
why=
for want in 'harness/check --list' 'harness/check --test' 'RUN_ARGS=build/cases/' \
	    'harness/check build/cases/' 'make quick' 'harness/apt update' 'V=1' \
	    'findings .*README.md'; do
	grep -q -- "$want" "$scratch/out" || why="$why '$want'"
done
is "make help names what a new user needs" "${why:-all there}" "all there"

# The fast tier (make quick) leaves out the self-tests that boot guests.
"$top/harness/selftest/run" --quick --list > "$scratch/quick" 2>&1
"$top/harness/selftest/run" --list > "$scratch/all" 2>&1
unlike "the fast tier boots no guest" "$scratch/quick" 'vm-|parallel\.t'
like "the fast tier has the other self-tests" "$scratch/quick" '/help\.t$'
like "make test has them all" "$scratch/all" '/vm-crash\.t$'
done_testing
