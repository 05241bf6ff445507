#!/bin/sh
# harness/guest/pvh: a bzImage whose payload is an ELF vmlinux with a PVH
# entry note is inflated once into vmlinux.pvh (byte for byte the ELF),
# reused while neither file changes, extracted again when vmlinuz changes;
# a vmlinux without the note, a file that is no bzImage and a payload it
# cannot inflate are refused with a reason (the guest boots vmlinuz then).
. "$(dirname "$0")/../lib.sh"
plan 11
pvh=$top/harness/guest/pvh

# mkbz DIR NOTE COMPRESS: DIR/vmlinuz, a minimal bzImage (boot protocol
# 2.08) around DIR/elf, a 64-bit ELF whose one PT_NOTE holds a "Xen" note
# of type NOTE, compressed by COMPRESS (gzip or xz; xz gets the inflated
# size appended, as the kernel's build does).
mkbz() {
	mkdir -p "$1"
	perl -e '
		my ($dir, $type) = @ARGV;
		my $desc = pack "V", 0x1000000;
		my $note = pack("VVV", 4, length $desc, $type) . "Xen\0" . $desc;
		my $ph = pack "VVQ<Q<Q<Q<Q<Q<", 4, 4, 64 + 56, 0, 0, length $note, length $note, 4;
		my $eh = "\x7fELF\x02\x01\x01" . ("\0" x 9) .
			pack("vvVQ<Q<Q<VvvvvvV", 2, 62, 1, 0x1000000, 64, 0, 0,
				64, 56, 1, 64, 0, 0);
		$eh = substr($eh, 0, 64);
		open my $f, ">", "$dir/elf" or die;
		print $f $eh, $ph, $note, "payload" x 100;
		close $f;
	' "$1" "$2"
	case "$3" in
	gzip) gzip -9nc "$1/elf" > "$1/z" ;;
	xz) { xz -c --check=crc32 "$1/elf"; perl -e 'print pack "V", -s $ARGV[0]' "$1/elf"; } \
		> "$1/z" ;;
	*) printf 'not compressed by anything known' > "$1/z" ;;
	esac
	perl -e '
		my ($dir) = @ARGV;
		open my $z, "<:raw", "$dir/z" or die; my $p = do { local $/; <$z> }; close $z;
		my $setup = "\0" x (5 * 512);
		substr($setup, 0x1f1, 1) = pack "C", 4;
		substr($setup, 0x202, 4) = "HdrS";
		substr($setup, 0x206, 2) = pack "v", 0x20f;
		substr($setup, 0x248, 8) = pack "VV", 16, length $p;
		open my $o, ">:raw", "$dir/vmlinuz" or die;
		print $o $setup, "\0" x 16, $p, "\0" x 8; close $o;
	' "$1"
}

mkbz "$scratch/k" 18 gzip
out=$("$pvh" "$scratch/k" 2>"$scratch/err")
is "a PVH kernel: exit 0 and the path of vmlinux.pvh" "$?:$out" "0:$scratch/k/vmlinux.pvh"
check "vmlinux.pvh is the ELF the bzImage carries" cmp "$scratch/k/elf" "$scratch/k/vmlinux.pvh"
like "the checksum file names both files' digests" "$scratch/k/vmlinux.pvh.sha256" \
	"^[0-9]+:[0-9]+ [0-9]+:[0-9]+ $(sha256sum < "$scratch/k/vmlinuz" | cut -c1-64) "
touch -d '2001-01-01' "$scratch/k/vmlinux.pvh"
touch -d '2001-01-01' "$scratch/k/vmlinux.pvh.sha256"
sed -i 's/ [0-9]*:[0-9]* / X /' "$scratch/k/vmlinux.pvh.sha256"
"$pvh" "$scratch/k" > /dev/null 2>&1
check "a changed record makes it extract again" test "$scratch/k/vmlinux.pvh" -nt "$scratch/k/elf"
before=$(stat -c %Y.%i "$scratch/k/vmlinux.pvh")
"$pvh" "$scratch/k" > /dev/null 2>&1
is "an unchanged pair is reused, not extracted again" "$(stat -c %Y.%i "$scratch/k/vmlinux.pvh")" \
	"$before"

mkbz "$scratch/x" 18 xz
out=$("$pvh" "$scratch/x" 2>/dev/null) && cmp -s "$scratch/x/elf" "$scratch/x/vmlinux.pvh"
is "an xz payload (the inflated size appended) is inflated too" $? 0

mkbz "$scratch/n" 6 gzip
"$pvh" "$scratch/n" > "$scratch/out" 2> "$scratch/err"
is "no PVH note: exit 1" $? 1
like "... saying CONFIG_PVH is off" "$scratch/err" "has no PVH entry point \(CONFIG_PVH is off\)"
check "... and leaving no vmlinux.pvh behind" test ! -e "$scratch/n/vmlinux.pvh" -a \
	-z "$(ls "$scratch/n" | grep tmp)"

mkdir -p "$scratch/b"
printf 'MZ not a kernel' > "$scratch/b/vmlinuz"
"$pvh" "$scratch/b" > /dev/null 2> "$scratch/err"
like "a file that is no bzImage is refused with the reason" "$scratch/err" "is not a bzImage"

mkbz "$scratch/u" 18 none
"$pvh" "$scratch/u" > /dev/null 2> "$scratch/err"
like "an unknown compression is named, not guessed" "$scratch/err" "does not inflate \(magic"
done_testing
