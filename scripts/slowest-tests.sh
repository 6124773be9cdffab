#!/usr/bin/env bash
# Prints the COUNT slowest tests (default 10) of the JUnit files that `ctest --output-junit` wrote, slowest
# first, with their status: the figures CI's limits are about (the whole suite and no test over a minute on two
# busy cores), read from what ctest measured rather than timed again.
#
#   scripts/slowest-tests.sh [--count COUNT] JUNIT.xml...
set -euo pipefail

count=10
if [ "${1:-}" = "--count" ]; then
    count=$2
    shift 2
fi
[ $# -gt 0 ] || {
    echo "usage: $0 [--count COUNT] JUNIT.xml..." >&2
    exit 2
}

# CMake writes each <testcase> with its attributes on one line: name="..." ... time="SECONDS" status="..." (run,
# fail, notrun or disabled); names are XML-escaped.
sed -n 's/.*<testcase name="\([^"]*\)".* time="\([^"]*\)" status="\([^"]*\)".*/\2 \3 \1/p' "$@" |
    sed 's/&lt;/</g; s/&gt;/>/g; s/&quot;/"/g; s/&apos;/'"'"'/g; s/&amp;/\&/g' |
    sort -k1,1gr |
    awk -v count="$count" 'BEGIN { split("run passed fail FAILED notrun not-run disabled disabled", pairs, " ")
                 for (i = 1; i < 8; i += 2) status[pairs[i]] = pairs[i + 1] }
         NR == 1 { print "Slowest tests:" }
         NR <= count { name = $0; sub(/^[^ ]+ [^ ]+ /, "", name)
           printf "%10.2f s  %-8s %s\n", $1, ($2 in status ? status[$2] : $2), name }'
