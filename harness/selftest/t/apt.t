#!/bin/sh
# The private apt configuration against a local mini-archive (file://, no
# network): beside a good suite, one whose signed Release expired, one the
# mirror lacks, and one signed by a key we do not trust.  Each bad suite is
# one warning line naming it and why, the update goes on, a package of the
# good suite downloads, a package only in a bad suite fails naming the
# suites tried and the unavailable ones with their reasons, and
# NSCONFORM_APT_ALLOW_EXPIRED=1 takes the expired suite with a warning.
# The validity checks are on even where the system switches them off.
. "$(dirname "$0")/../lib.sh"
plan 29
apt=$top/harness/apt
a=$scratch/archive
export GNUPGHOME="$scratch/gnupg"
mkdir -m 700 "$GNUPGHOME"
trap 'gpgconf --kill gpg-agent 2>/dev/null; rm -rf "$scratch"' EXIT
newkey() { gpg -q --batch --passphrase '' --quick-gen-key "$1" ed25519 sign never 2>/dev/null; }
newkey "nsconform test archive"
newkey "nsconform forger"
gpg -q --export "nsconform test archive" > "$scratch/keyring.gpg"

when() { date -u "+%a, %d %b %Y %H:%M:%S UTC" -d "$1"; }
# suite SUITE PACKAGE VALID-UNTIL KEY [VERSION]: a suite with one package,
# signed by KEY.
suite() {
	b=$scratch/pkg/$2 p=$a/pool/main/${2}_1.0_all.deb d=$a/dists/$1
	mkdir -p "$b/DEBIAN" "$a/pool/main" "$d/main/binary-amd64"
	# A kernel image package: the index takes those of 4 MB and more.
	size='Priority: optional'
	case $2 in linux-image-*) size='Installed-Size: 50000' ;; esac
	printf 'Package: %s\nVersion: %s\nArchitecture: all\n%s\n%s\n%s\n' "$2" \
		"${5:-1.0}" 'Maintainer: nsconform <n@invalid>' "$size" 'Description: test' \
		> "$b/DEBIAN/control"
	dpkg-deb -b -Zgzip "$b" "$p" > /dev/null
	{ grep -v '^Description' "$b/DEBIAN/control"
	  echo "Filename: pool/main/${2}_1.0_all.deb"
	  echo "Size: $(stat -c %s "$p")"
	  echo "SHA256: $(sha256sum < "$p" | cut -d' ' -f1)"
	  echo "Description: test"; echo; } > "$d/main/binary-amd64/Packages"
	f=main/binary-amd64/Packages
	{ echo "Origin: nsconform"; echo "Suite: $1"; echo "Codename: $1"
	  echo "Date: $(when '-20 days')"; echo "Valid-Until: $(when "$3")"
	  echo "Architectures: amd64"; echo "Components: main"; echo "SHA256:"
	  echo " $(sha256sum < "$d/$f" | cut -d' ' -f1) $(stat -c %s "$d/$f") $f"; } > "$d/Release"
	gpg -q --batch --yes --local-user "$4" --clearsign -o "$d/InRelease" "$d/Release"
}
suite good hello-good '+30 days' "nsconform test archive"
suite old hello-old '-10 days' "nsconform test archive"
suite forged hello-forged '+30 days' "nsconform forger"

export NSCONFORM_CACHE="$scratch/cache" NSCONFORM_MIRROR="file://$a" \
	NSCONFORM_APT_SUITES="good old missing forged" NSCONFORM_APT_SECURITY_SUITES= \
	NSCONFORM_APT_KEYRING="$scratch/keyring.gpg"
unset NSCONFORM_APT_ALLOW_EXPIRED
# Switched off as on our development hosts: harness/apt must switch it on.
printf 'Acquire::Check-Valid-Until "false";\nAcquire::Check-Date "false";\n' > "$scratch/apt.conf"
export APT_CONFIG="$scratch/apt.conf"

start=$(date +%s)
"$apt" update > "$scratch/out" 2> "$scratch/err"
is "one good suite is enough: update exits 0" $? 0
is "it takes seconds" "$(( $(date +%s) - start < 20 ))" 1
is "three warning lines, nothing else" "$(wc -l < "$scratch/err")" 3
like "the expired suite is named with the reason" "$scratch/err" \
	'^harness/apt: warning: suite old unavailable: Release file expired \(invalid since [0-9]+d'
like "the missing suite is named with the reason" "$scratch/err" \
	'^harness/apt: warning: suite missing unavailable: no Release file on the mirror'
like "the forged suite is named with the reason" "$scratch/err" \
	'^harness/apt: warning: suite forged unavailable: bad signature \(NO_PUBKEY [0-9A-F]+\)'
unlike "the good suite is no warning" "$scratch/err" 'suite good'
is "only the good suite is in the sources get and cache use" \
	"$(awk '{ print $4 }' "$scratch/cache/apt/sources.list")" good
"$apt" suites > "$scratch/suites"
like "suites: good is ok" "$scratch/suites" '^good: ok$'
like "suites: old is unavailable, expired, and the option that takes it is named" \
	"$scratch/suites" \
	'^old: unavailable Release file expired .*; NSCONFORM_APT_ALLOW_EXPIRED=1 takes it anyway$'

mkdir "$scratch/dl"
(cd "$scratch/dl" && "$apt" get -q download hello-good) > "$scratch/out" 2>&1
is "a package of the good suite downloads" $? 0
check "and is the archive's package" cmp "$scratch/dl/hello-good_1.0_all.deb" \
	"$a/pool/main/hello-good_1.0_all.deb"
(cd "$scratch/dl" && "$apt" get -q download hello-old) > "$scratch/out" 2> "$scratch/err"
is "a package only in the expired suite fails" $? 100
like "the failure names the suites it had and what was unavailable, and why" "$scratch/err" \
	"^harness/apt: 'apt-get -q download hello-old' failed; suites available: good; "\
"unavailable: old \(Release file expired .*\), missing \(no Release file on the mirror\), "\
"forged \(bad signature"

# Updating one suite touches only that one.
rm -rf "$scratch/cache/apt/suite/good"
"$apt" update old > "$scratch/out" 2> "$scratch/err"
is "updating only a bad suite fails" $? 1
like "and says no suite could be updated" \
	"$scratch/err" '^harness/apt: no suite could be updated \(old\)'
is "no other suite was updated" \
	"$(ls "$scratch/cache/apt/suite" | tr '\n' ' ')" "forged missing old "

# The explicit option for an expired but signed Release.
NSCONFORM_APT_ALLOW_EXPIRED=1 "$apt" update old good > "$scratch/out" 2> "$scratch/err"
is "ALLOW_EXPIRED: the update succeeds" $? 0
like "ALLOW_EXPIRED: still a warning naming the option" "$scratch/err" \
	'^harness/apt: warning: suite old: Release file expired \(invalid since .*\); '\
'used because NSCONFORM_APT_ALLOW_EXPIRED=1$'
(cd "$scratch/dl" && "$apt" get -q download hello-old) > "$scratch/out" 2>&1
is "ALLOW_EXPIRED: the expired suite's package downloads" $? 0

# The kernel index (harness/kernel, make kernels) follows the apt lists: a
# kernel of a suite updated on its own (sid, once expired) is found without
# deleting the index by hand; a stale index is refreshed by list, which
# shows its date and the suites it lacks.
kernel=$top/harness/kernel
suite stable linux-image-6.1.0-90-amd64 '+30 days' "nsconform test archive" 6.1.158-1
suite unstable linux-image-7.2.0-9-amd64 '-10 days' "nsconform test archive" 7.2.13-1
export NSCONFORM_CACHE="$scratch/kcache" NSCONFORM_APT_SUITES="stable unstable"
unset NSCONFORM_KERNEL_CACHE
"$kernel" list > "$scratch/list" 2> "$scratch/err"
is "list: exit 0" $? 0
like "list: the stable kernel is listed" "$scratch/list" '^  6\.1\.0-90-amd64 +6\.1\.158-1 '
like "list: the index's date is shown" "$scratch/list" \
	'^Kernel index of [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{5} UTC, from the apt lists of '
like "list: the expired suite is named, with the option that takes it" "$scratch/list" \
	'^  unstable: Release file expired .*NSCONFORM_APT_ALLOW_EXPIRED=1 takes it anyway'
"$kernel" resolve 7.2 > "$scratch/out" 2> "$scratch/err"
like "resolve: a kernel of the expired suite is unknown, and the message says how to take it" \
	"$scratch/err" "unknown kernel version '7\.2'.*unstable \(Release file expired.*"\
"NSCONFORM_APT_ALLOW_EXPIRED=1 takes it anyway"
sleep 1	# a new second, so that the stamps are newer than the index
NSCONFORM_APT_ALLOW_EXPIRED=1 "$apt" update unstable > "$scratch/out" 2> "$scratch/err"
"$kernel" resolve 7.2 > "$scratch/out" 2> "$scratch/err"
like "harness/apt update SUITE: its kernel is found at once" "$scratch/out" \
	'^7\.2	7\.2\.13-1	7\.2\.0-9-amd64	'
adir=$("$apt" dir)
# Meanwhile the archive has a new stable kernel.
suite stable linux-image-6.1.0-91-amd64 '+30 days' "nsconform test archive" 6.1.159-1
touch -d '10 days ago' "$adir/updated" "$adir/changed" "$scratch/kcache/kernels/index"
"$kernel" list > "$scratch/list" 2> "$scratch/err"
like "list: apt lists 10 days old are refreshed" "$scratch/err" \
	'^harness/kernel: the apt lists are 10 days old: updating them'
is "list: and the index is new again" \
	"$(find "$scratch/kcache/kernels/index" -newermt '-1 hour' | wc -l)" 1
like "list: with the archive's new kernel" "$scratch/list" '^  6\.1\.0-91-amd64 +6\.1\.159-1 '
done_testing
