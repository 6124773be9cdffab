#!/usr/bin/env bash
# Mutation testing of the kernels and the engine's reference code: applies each mutation of
# scripts/mutations.txt, one at a time, to a scratch copy of the tree (never this working tree), rebuilds the
# engine tests there and runs them. A mutation some test fails on is "killed"; one that every test passes
# "survived": either a test is missing or the change is equivalent (say which in mutations.txt).
#
#   scripts/mutate.sh [--list FILE] [--only SUBSTRING] [--report FILE] [--scratch DIR] [--skip-baseline]
#                     [--check]
#
#   --list     the mutations (default scripts/mutations.txt; format described there)
#   --only     run only the mutations whose file, search or replacement text contains SUBSTRING
#   --report   also write the report to FILE (e.g. tests/mutation-report.txt)
#   --scratch  the scratch folder (default ${TMPDIR:-/tmp}/histoscope-mutate); its copy of the tree is
#              refreshed from this working tree (tracked and untracked, not ignored, files) on every run
#   --skip-baseline  do not first check that the unmutated tree passes the tests (when you just ran them)
#   --check    only check that every entry of the list still applies to this working tree, then stop
#
# Every run first checks the whole list (not only the --only entries) against this working tree: an entry
# whose search text is no longer on exactly the lines it names (the code changed under it) is printed as
# STALE with what it found, and counted in the summary; a STALE entry is never run, and the exit status is 1.
#
# Environment: MUTATE_JOBS (build jobs, default 2), MUTATE_TIMEOUT (seconds per test run, default 900; a run
# that takes longer, a mutated loop that never ends, counts as killed).
#
# The engine tests run as the engine_tests binary with the environment ctest gives them
# (tests/CMakeLists.txt) and --gtest_fail_fast, so a killed mutation stops at its first failing test. Each
# mutation runs the engine tests its list section names (@tests, a gtest filter: those of the code it
# mutates, so that a survivor costs minutes rather than the whole suite on two cores); a survivor has passed
# all of them. Exit status: 0 when every mutation ran, 1 when the unmutated tree fails its tests or an
# entry of the list is stale, 2 for bad arguments.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
list=$root/scripts/mutations.txt
only=""
report_file=""
scratch=${TMPDIR:-/tmp}/histoscope-mutate
skip_baseline=0
check_only=0
while [[ $# -gt 0 ]]; do
    case $1 in
        --list) list=$(realpath "$2"); shift 2 ;;
        --only) only=$2; shift 2 ;;
        --report) report_file=$(realpath -m "$2"); shift 2 ;;
        --scratch) scratch=$(realpath -m "$2"); shift 2 ;;
        --skip-baseline) skip_baseline=1; shift ;;
        --check) check_only=1; shift ;;
        -h | --help) sed -n '2,30p' "$0"; exit 0 ;;
        *) echo "mutate.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[[ -f $list ]] || { echo "mutate.sh: $list: no such file" >&2; exit 2; }
case $scratch in
    "$root" | "$root"/*) echo "mutate.sh: the scratch folder must lie outside the working tree" >&2; exit 2 ;;
esac

# Reads the list: "FILE: SEARCH => REPLACE" lines (FILE may end in "#K/N": SEARCH is on N lines, the K-th is
# mutated), "@tests FILTER" lines (the gtest filter of the mutations below it; "*" before the first), '#'
# comment lines. Prints FILE, SEARCH, REPLACE and FILTER separated by NUL, one mutation after the other.
parse_list() {
    python3 - "$list" <<'EOF'
import sys
tests = "*"
for number, line in enumerate(open(sys.argv[1], encoding="utf-8"), 1):
    line = line.rstrip("\n")
    if not line.strip() or line.lstrip().startswith("#"):
        continue
    if line.startswith("@tests "):
        tests = line[len("@tests "):].strip()
        continue
    path, sep, rest = line.partition(": ")
    search, arrow, replace = rest.partition(" => ")
    if not sep or not arrow or not search:
        sys.exit(f"{sys.argv[1]}:{number}: expected 'FILE: SEARCH => REPLACE'")
    sys.stdout.write(f"{path}\0{search}\0{replace}\0{tests}\0")
EOF
}

# apply_mutation TREE FILE SEARCH REPLACE [--dry]: applies one mutation to the copy of the tree at TREE (with
# --dry only checks that it would apply): the search text must occur on exactly one line of the file (N lines
# for FILE#K/N, of which the K-th is taken); its first occurrence there is replaced. Prints the line number,
# or why the entry is stale and returns 1.
apply_mutation() {
    python3 - "$@" <<'EOF'
import os, re, sys
tree, file, search, replace = sys.argv[1:5]
dry = sys.argv[5:] == ["--dry"]
which = re.fullmatch(r"(.*)#(\d+)/(\d+)", file)
path, k, n = (which[1], int(which[2]), int(which[3])) if which else (file, 1, 1)
if not os.path.isfile(f"{tree}/{path}"):
    sys.exit(f"no file {path}")
lines = open(f"{tree}/{path}", encoding="utf-8").read().split("\n")
hits = [i for i, line in enumerate(lines) if search in line]
if len(hits) != n or not 1 <= k <= n:
    sys.exit(f"'{search}' is on {len(hits)} line(s), not {n}" + (f" (taking number {k})" if which else ""))
hit = hits[k - 1]
if dry:
    print(hit + 1)
    sys.exit(0)
lines[hit] = lines[hit].replace(search, replace, 1)
open(f"{tree}/{path}", "w", encoding="utf-8").write("\n".join(lines))
print(hit + 1)
EOF
}

# Every entry of the list against this working tree, before anything is built: a stale entry (its code
# changed under it) is reported here, loudly, whatever --only selects.
stale=()
while IFS= read -r -d '' file && IFS= read -r -d '' search && IFS= read -r -d '' replace &&
    IFS= read -r -d '' tests; do
    if ! why=$(apply_mutation "$root" "$file" "$search" "$replace" --dry 2>&1); then
        stale+=("$file: '$search' -> '$replace': $why")
    fi
done < <(parse_list)
for entry in "${stale[@]}"; do echo "STALE    $entry" >&2; done
if [[ ${#stale[@]} -gt 0 ]]; then
    echo "mutate.sh: ${#stale[@]} stale entries in $list (not run): update or remove them" >&2
fi
if [[ $check_only -eq 1 ]]; then
    [[ ${#stale[@]} -eq 0 ]] && echo "mutate.sh: every entry of $list applies"
    [[ ${#stale[@]} -eq 0 ]]
    exit
fi

jobs=${MUTATE_JOBS:-2}
timeout_s=${MUTATE_TIMEOUT:-900}
# The copy of the tree is the scratch folder itself, with its build in build/ as in a working tree: the
# compile commands (relative to build/ under ccache's base_dir) are then those of a working tree's build, and
# hit its cache entries.
tree=$scratch
build=$scratch/build
log=$scratch/logs
mkdir -p "$tree" "$log"

# The scratch tree mirrors this working tree's files (those git tracks or would track), and loses those this
# tree no longer has: the engine's CMake globs its sources, so a file left over from an older tree would be
# built too. A file is rewritten only where its content differs, and then gets the current time as its
# mtime: ninja decides what to rebuild by mtimes, so a file restored with its older mtime (as tar -x does)
# after a mutation was built would leave the mutated objects in place.
(cd "$root" && git ls-files -z --cached --others --exclude-standard --deduplicate) | python3 -c '
import os, sys
root, tree = sys.argv[1], sys.argv[2]
keep = set(p for p in sys.stdin.buffer.read().decode().split("\0") if p)
for path in keep:
    source = os.path.join(root, path)
    if not os.path.isfile(source):
        continue
    data = open(source, "rb").read()
    target = os.path.join(tree, path)
    if os.path.isfile(target) and open(target, "rb").read() == data:
        continue
    os.makedirs(os.path.dirname(target), exist_ok=True)
    open(target, "wb").write(data)
    os.chmod(target, os.stat(source).st_mode & 0o777)
for folder, subfolders, files in os.walk(tree):
    relative = os.path.relpath(folder, tree)
    if relative == ".":
        subfolders[:] = [s for s in subfolders if s not in ("build", "logs")]
        files = [f for f in files if f not in ("report.txt", "mutated")]
    for name in files:
        path = os.path.normpath(os.path.join(relative, name))
        if path not in keep:
            os.remove(os.path.join(folder, name))
' "$root" "$tree"
# A run stopped during a mutation left that file mutated, and maybe objects built from it: it has just been
# rewritten from this tree; its mtime must also be newer than those objects.
if [[ -f $scratch/mutated ]]; then
    touch "$tree/$(cat "$scratch/mutated")"
    rm "$scratch/mutated"
fi
export CCACHE_BASEDIR=$scratch
if [[ ! -f $build/build.ninja ]]; then
    cmake -S "$tree" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DHISTOSCOPE_WERROR=ON \
        >"$log/configure.txt" 2>&1 ||
        { echo "mutate.sh: configuring failed, see $log/configure.txt" >&2; exit 1; }
fi

build_tests() { cmake --build "$build" --target engine_tests -j "$jobs" >"$1" 2>&1; }
# The environment of tests/CMakeLists.txt's HISTOSCOPE_TEST_ENV.
# run_tests LOG [FILTER]
run_tests() {
    (cd "$build/tests/engine" && HISTOSCOPE_CACHE_DIR=$build/test-cache POCL_DEVICES="pthread pthread" \
        timeout --kill-after=10 "$timeout_s" "$build/bin/engine_tests" --gtest_fail_fast --gtest_brief=1 \
        "--gtest_filter=${2:-*}") >"$1" 2>&1
}

run_started=$SECONDS
report=$scratch/report.txt
: >"$report"
say() { echo "$*" | tee -a "$report"; }

say "mutation run of $(cd "$root" && git rev-parse --short HEAD)$(cd "$root" && git diff --quiet HEAD -- || echo '+changes'), $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores"
build_tests "$log/baseline-build.txt" || { echo "mutate.sh: the unmutated tree does not build" >&2; exit 1; }
if [[ $skip_baseline -eq 0 ]]; then
    started=$SECONDS
    # The baseline runs every test some mutation runs.
    baseline_filter=$(parse_list | tr '\0' '\n' | awk 'NR % 4 == 0' | sort -u | paste -sd:)
    run_tests "$log/baseline-tests.txt" "$baseline_filter" ||
        { echo "mutate.sh: the unmutated tree fails its tests, see $log/baseline-tests.txt" >&2; exit 1; }
    say "baseline: engine tests pass ($((SECONDS - started)) s)"
fi

killed=0 survived=0 broken=0 number=0
survivors=()
while IFS= read -r -d '' file && IFS= read -r -d '' search && IFS= read -r -d '' replace &&
    IFS= read -r -d '' tests; do
    if [[ -n $only && $file$search$replace != *"$only"* ]]; then continue; fi
    number=$((number + 1))
    if [[ $tests != "${last_tests:-}" ]]; then say "-- engine tests: $tests"; last_tests=$tests; fi
    label="$file: '$search' -> '$replace'"
    if ! line=$(apply_mutation "$tree" "$file" "$search" "$replace" 2>&1); then
        say "STALE    $label: $line"
        broken=$((broken + 1))
        continue
    fi
    echo "${file%#*}" >"$scratch/mutated"
    label="${file%#*}:$line: '$search' -> '$replace'"
    started=$SECONDS
    why=""
    if ! build_tests "$log/$number-build.txt"; then
        kind=killed why="(does not build)"
    elif run_tests "$log/$number-tests.txt" "$tests"; then
        kind=SURVIVED
    else
        status=$?
        kind=killed
        if [[ $status -eq 124 || $status -eq 137 ]]; then
            why="(timed out after $timeout_s s)"
        else
            first=$(grep -m1 -oE '^\[  FAILED  \] [^ ]+' "$log/$number-tests.txt" | sed 's/.*\] //' || true)
            why="(${first:-exit status $status})"
        fi
    fi
    cp "$root/${file%#*}" "$tree/${file%#*}"
    rm "$scratch/mutated"
    if [[ $kind == SURVIVED ]]; then
        survived=$((survived + 1))
        survivors+=("$label")
    else
        killed=$((killed + 1))
    fi
    say "$(printf '%-8s' "$kind") $label [$((SECONDS - started)) s]${why:+ $why}"
done < <(parse_list)

say "summary: $number mutations, $killed killed, $survived survived, $broken stale (not run);" \
    "wall time $(((SECONDS - run_started) / 60)) min"
for survivor in "${survivors[@]}"; do say "  survivor: $survivor"; done
if [[ -n $report_file ]]; then cp "$report" "$report_file"; fi
if [[ ${#stale[@]} -gt 0 ]]; then say "the list has ${#stale[@]} stale entries (see above): exit status 1"; fi
[[ $broken -eq 0 && ${#stale[@]} -eq 0 ]]
