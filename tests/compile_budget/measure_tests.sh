#!/usr/bin/env bash
# The compile-time budget's per-unit report: CPU time (user + system) and peak memory of compiling each
# translation unit of a configured build, one unit after another, with the build's own command line
# (from its compile_commands.json; the object goes to a scratch file, so the build tree is not touched).
# A measurement, not a test: it prints figures and never fails on them. Usage:
#   bash tests/compile_budget/measure_tests.sh [build-dir] [regex on the source path] [regex to skip]
# e.g. bash tests/compile_budget/measure_tests.sh build/ci 'tests/algorithms/|examples/demo/'
# Prints one tab-separated line a unit: source (relative to the repository), the unit's
# TREEDYN_TEST_SCALAR if it is a per-scalar unit, CPU s, peak MB. Run it on an otherwise quiet machine:
# the figures of a loaded machine are higher (the budget's targets are for the ci preset).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${1:-$root/build/ci}"
include="${2:-^(tests|examples/demo)/}"
exclude="${3:-^$}"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
python3 - "$build/compile_commands.json" "$root" "$include" "$exclude" > "$out/units" <<'EOF'
import json, re, shlex, sys
entries = json.load(open(sys.argv[1]))
root, include, exclude = sys.argv[2] + "/", re.compile(sys.argv[3]), re.compile(sys.argv[4])
for e in entries:
    source = e["file"].removeprefix(root)
    if not include.search(source) or exclude.search(source):
        continue
    args = shlex.split(e["command"]) if "command" in e else e["arguments"]
    scalar = next((a.split("=", 1)[1] for a in args if a.startswith("-DTREEDYN_TEST_SCALAR=")), "-")
    # The object to the scratch file: drop the build's -o <file> and its dependency-file flags.
    kept, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
        elif a not in ("-MD", "-MMD"):
            kept.append(a)
    print("\t".join([source, scalar, e["directory"], shlex.join(kept)]))
EOF
printf 'unit\tscalar\tCPU s\tpeak MB\n'
while IFS=$'\t' read -r source scalar directory command; do
  # shellcheck disable=SC2086  # the command line is already split and quoted by shlex.join
  if (cd "$directory" && eval /usr/bin/time -f "'%U %S %M'" -o "$out/time" $command -o "$out/unit.o"); then
    read -r user sys rss < "$out/time"
    awk -v f="$source" -v s="$scalar" -v u="$user" -v y="$sys" -v k="$rss" \
      'BEGIN { printf "%s\t%s\t%.1f\t%.0f\n", f, s, u + y, k / 1024 }'
  else
    printf '%s\t%s\tfailed\t-\n' "$source" "$scalar"
  fi
done < "$out/units"
