#!/bin/sh
# The translation matrix (fixtures/data/translations.tsv, harness/translations):
# the repository's inventory names only tests that exist and README.md's section
# is what the generator writes from it; a row naming a test that does not exist
# (a renamed or deleted test, a misspelt variant) fails --check with the row's
# line, and a TEST_F of XLATE_FIXTURE() counts once per observer position.
. "$(dirname "$0")/../lib.sh"
plan 8
tr=$top/harness/translations

"$tr" --check > "$scratch/check.out" 2>&1
is "the repository's inventory names only existing tests" "$?" 0
"$tr" --readme > "$scratch/section" 2>&1
sed -n '/<!-- translations:begin/,/<!-- translations:end -->/p' "$top/README.md" \
	> "$scratch/readme-section"
check "README.md's translations section is the generated one (--readme README.md)" \
	cmp "$scratch/section" "$scratch/readme-section"

# A scratch inventory and cases folder.
mkdir "$scratch/cases"
cat > "$scratch/cases/demo.c" <<'C'
TEST(plain_one)
FIXTURE_VARIANT_ADD(fx, a) { };
FIXTURE_VARIANT_ADD(fx, b) { };
TEST_F(fx, with_variants)
TEST_F(nofx, without_variants)
XLATE_FIXTURE();
TEST_F(xlate, cell)
C
row() { printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$@"; }
{
	row interface id rule source same anc desc sib unm note
	row I pid r s demo/plain_one demo/fx.a.with_variants \
		demo/fx.b.with_variants demo/nofx.without_variants demo/xlate.unm.cell ''
	row J uid r s demo/xlate.same.cell demo/xlate.anc.cell gap n/a gap 'a note'
} > "$scratch/good.tsv"
"$tr" --tsv "$scratch/good.tsv" --cases "$scratch/cases" --check > "$scratch/out" 2>&1
is "plain tests, fixture variants and XLATE_FIXTURE() variants are found" "$?" 0
like "the figures count tests, n/a and gaps" "$scratch/out" \
	'2 rows, 10 cells: 7 with a test, 1 n/a, 2 gaps'

{ cat "$scratch/good.tsv"; row K pid r s demo/xlate.same.gone gap gap gap gap ''; } \
	> "$scratch/bad.tsv"
"$tr" --tsv "$scratch/bad.tsv" --cases "$scratch/cases" --check > "$scratch/out" 2>&1
is "a row naming a test that does not exist fails --check" "$?" 1
like "the missing test is named with its line" "$scratch/out" \
	'bad.tsv:[0-9]+: same: no test demo/xlate.same.gone'

printf 'intro\n<!-- translations:begin -->\nold\n<!-- translations:end -->\nrest\n' \
	> "$scratch/README.md"
"$tr" --tsv "$scratch/good.tsv" --cases "$scratch/cases" --readme "$scratch/README.md" \
	2> /dev/null
want='^\| J \| uid \| r \| s \| `demo/xlate.same.cell` \| `demo/xlate.anc.cell` '
like "--readme FILE writes the table between the markers" "$scratch/README.md" \
	"$want"'\| \*\*gap\*\* \| n/a'
like "--readme FILE keeps the rest of the file" "$scratch/README.md" '^rest$'
