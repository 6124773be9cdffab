#!/bin/bash
# Peak resident memory of histoscope-cli on a big image (issue 12 item 4): each command runs REPEAT times under
# /usr/bin/time -v, and its "Maximum resident set size" is printed as min / median / max MB and as a multiple
# of one RGBA8 copy of the image (width * height * 4 bytes). A measurement, never a test: it always exits 0
# once the commands ran.
#   bench/hostmem.sh [--cli PATH] [--size N] [--repeat K] [--image FILE] [--device SEL]
# Defaults: build/bin/histoscope-cli, an N x N = 8000 x 8000 noisy gradient PNG made with ImageMagick's
# convert (cached in $TMPDIR, which takes minutes on 2 cores), 1 repetition, the CLI's default device.
set -euo pipefail
cli=build/bin/histoscope-cli
size=8000
repeat=1
image=
device=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --cli) cli=$2; shift 2 ;;
        --size) size=$2; shift 2 ;;
        --repeat) repeat=$2; shift 2 ;;
        --image) image=$2; shift 2 ;;
        --device) device=(--device "$2"); shift 2 ;;
        *) echo "hostmem.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [[ -z $image ]]; then
    image=${TMPDIR:-/tmp}/hostmem-$size.png
    if [[ ! -s $image ]]; then
        convert -size "${size}x$size" gradient:red-blue -attenuate 0.3 +noise Uniform "PNG32:$image.part"
        mv "$image.part" "$image"
    fi
fi
read -r width height < <(identify -format '%w %h\n' "$image")
copy=$((width * height * 4))
export HISTOSCOPE_CACHE_DIR=$work/cache
echo "image $image: ${width}x$height, one RGBA8 copy = $((copy / 1000000)) MB; $repeat run(s) each; $("$cli" --version 2>/dev/null || true)"
printf '%-62s %8s %8s %8s %7s\n' command min_MB median_MB max_MB max/copy
measure() {
    local peaks=()
    for ((i = 0; i < repeat; ++i)); do
        /usr/bin/time -f '%M' -o "$work/peak" "$cli" "$@" "${device[@]}" >/dev/null 2>"$work/err" ||
            { echo "  failed: $*: $(tail -1 "$work/err")"; return; }
        peaks+=("$(tail -1 "$work/peak")")
    done
    read -r min median max < <(printf '%s\n' "${peaks[@]}" | sort -n |
        awk '{v[NR]=$1} END {m = NR % 2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2; print v[1], m, v[NR]}')
    local label="$*"
    label=${label//"$image"/IMAGE}
    label=${label//"$work"\//}
    printf '%-62s %8d %8d %8d %7.2f\n' "$label" $((min * 1024 / 1000000)) \
        "$(awk -v m="$median" 'BEGIN {printf "%d", m * 1024 / 1000000}')" $((max * 1024 / 1000000)) \
        "$(awk -v m="$max" -v c="$copy" 'BEGIN {printf "%.2f", m * 1024 / c}')"
}
measure histogram "$image" --strategy partial-reduce
measure rotate "$image" --angle 30 --out "$work/rotated.png"
measure pipeline "$image" --angle 30 --filter box:3 --out "$work/processed.png"
measure convolve "$image" --filter box:3 --out "$work/filtered.png"
