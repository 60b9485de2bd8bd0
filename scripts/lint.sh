#!/bin/bash
# lint.sh - kernel style checks of the module, on the host.
#
#   scripts/lint.sh
#
# Runs the kernel's checkpatch.pl (--strict) and kernel-doc over fs-f2fs/
# and trace-events/, and checks that every non-static function in
# fs-f2fs/*.c has a kernel-doc comment.  checkpatch.pl and kernel-doc come
# from Debian's linux-source-6.1 (apt-get download + the few scripts
# extracted into build/lint/, once).
#
# Ignored checkpatch types (documented exceptions):
#   LONG_LINE_STRING           kernel messages stay on one line, greppable
#   OPEN_ENDED_LINE, PARENTHESIS_ALIGNMENT in trace-events/ only: the
#                              TRACE_EVENT() layout of include/trace/events
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
L=$ROOT/build/lint
S=$L/linux-source-6.1/scripts
die() { echo "lint: ERROR: $*" >&2; exit 1; }

if [ ! -x "$S/checkpatch.pl" ] || [ ! -x "$S/kernel-doc" ]; then
	mkdir -p "$L"
	(cd "$L" && rm -f linux-source-6.1_*.deb && apt-get download -q linux-source-6.1 >/dev/null 2>&1) ||
		die "cannot download linux-source-6.1"
	(cd "$L" && dpkg-deb --fsys-tarfile linux-source-6.1_*.deb |
		tar -xO ./usr/src/linux-source-6.1.tar.xz |
		tar -xJ linux-source-6.1/scripts/checkpatch.pl linux-source-6.1/scripts/spelling.txt \
			linux-source-6.1/scripts/const_structs.checkpatch linux-source-6.1/scripts/kernel-doc &&
		rm -f linux-source-6.1_*.deb) || die "cannot extract checkpatch.pl from linux-source-6.1"
fi

cd "$ROOT"
srcs=$(ls fs-f2fs/*.c fs-f2fs/*.h | grep -v '\.mod\.c$')
bad=0
for f in $srcs; do
	"$S/checkpatch.pl" --no-tree --strict -f -q --terse --show-types \
		--ignore LONG_LINE_STRING "$f" | grep -E '(ERROR|WARNING|CHECK):' && bad=1
done
for f in trace-events/*.h; do
	"$S/checkpatch.pl" --no-tree --strict -f -q --terse --show-types \
		--ignore LONG_LINE_STRING,OPEN_ENDED_LINE,PARENTHESIS_ALIGNMENT "$f" |
		grep -E '(ERROR|WARNING|CHECK):' && bad=1
done
"$S/kernel-doc" -none $srcs 2>&1 | grep . && bad=1
# Every non-static function definition needs a "/**" comment above it.
for f in $(ls fs-f2fs/*.c | grep -v '\.mod\.c$'); do
	awk -v f="$f" '
		/^\/\*\*/ { doc = 1 }
		/^[a-z].*\(/ && !/^static/ && !/;$/ && !/^(module_|MODULE_|EXPORT_)/ {
			if (!doc) { printf "%s:%d: non-static function without kernel-doc: %s\n", f, NR, $0; bad = 1 }
		}
		/^}/ { doc = 0 }
		END { exit bad }' "$f" || bad=1
done
[ $bad = 0 ] || die "style problems above"
echo "lint: checkpatch --strict, kernel-doc: clean"
