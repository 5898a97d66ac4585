#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each for N seconds (default 60).
#
#   Fuzz/run.sh [SECONDS] [TARGET...]      targets: frame-reader event-decoder (default: both)
#
# Each target is its own small source under Fuzz/, compiled with `swiftc -sanitize=fuzzer,address`
# together with the sources of the one library it exercises (as a single module, so no package
# build is needed). Seeds come from the `journal` binary (swift build first): small simulated
# journals for the frame reader, their lines for the event decoder. Corpora persist under
# .build/fuzz/<target>/corpus; crashes land in .build/fuzz/<target>/ as crash-*, leak-*, oom-*,
# timeout-*. Prints, per target: executions, coverage (edges), features, corpus size, and problems.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-60}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=(frame-reader event-decoder)
OUT=.build/fuzz
JOURNAL=${JOURNAL_BIN:-.build/debug/journal}
mkdir -p "$OUT/bin"
[ -x "$JOURNAL" ] || swift build --product journal >/dev/null

# Swift's own crash reporter gets in AddressSanitizer's way: let libFuzzer report.
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS=suppressions=$PWD/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}

build() {
    local target=$1 module sources
    case $target in
        frame-reader) module=FrameReaderFuzz; sources=$(find Sources/JournalStore -name '*.swift') ;;
        event-decoder) module=EventDecoderFuzz; sources=$(find Sources/JournalEvents -name '*.swift') ;;
        *) echo "unknown target $target" >&2; exit 2 ;;
    esac
    swiftc -sanitize=fuzzer,address -parse-as-library -O -module-name "$module" $sources "Fuzz/$module.swift" \
        -I Sources/CZstd -lzstd -o "$OUT/bin/$target" 2>&1 | grep -v "Cannot export local symbol" || true
}

seed() {
    local target=$1 dir=$OUT/$1/seeds tmp
    rm -rf "$dir"; mkdir -p "$dir" "$OUT/$1/corpus"
    tmp=$(mktemp -d)
    "$JOURNAL" simulate --profile new-user -o "$tmp/new.journal" 2>/dev/null
    "$JOURNAL" simulate --profile ppl --weeks 1 -o "$tmp/ppl.journal" 2>/dev/null
    "$JOURNAL" simulate --profile ppl --weeks 0 --torn-tail -o "$tmp/torn.journal" 2>/dev/null
    printf '%s\n' '{"type":"workout.started","workout":"w1","name":"Push","session":null}' \
        '{"type":"set.completed","workout":"w1","exercise":"squat","set":1,"weight":100,"unit":"kg","reps":5,"kind":"working"}' \
        | "$JOURNAL" record "$tmp/tail.journal" >/dev/null
    case $target in
        frame-reader) cp "$tmp"/*.journal "$dir"/ ;;
        event-decoder) "$JOURNAL" cat "$tmp/ppl.journal" | awk -v d="$dir" '!seen[$4]++ || NR % 25 == 0 { f = d "/line-" NR; print > f; close(f) }' FS='"' ;;
    esac
    rm -rf "$tmp"
}

for target in "${TARGETS[@]}"; do
    echo "== $target: building"
    build "$target"
    seed "$target"
    echo "== $target: fuzzing for ${SECONDS_PER_TARGET}s"
    log=$OUT/$target/run.log
    set +e
    (cd "$OUT/$target" && "../bin/$target" -max_total_time="$SECONDS_PER_TARGET" -timeout=5 -rss_limit_mb=2048 -malloc_limit_mb=256 \
        -print_final_stats=1 -artifact_prefix=./ corpus seeds) >"$log" 2>&1
    status=$?
    set -e
    runs=$(grep -E '^stat::number_of_executed_units' "$log" | tail -1 | awk '{print $2}' || true)
    last=$(grep -E '^#[0-9]+.*cov:' "$log" | tail -1 || true)
    cov=$(sed -E 's/.*cov: ([0-9]+).*/\1/' <<<"$last")
    ft=$(sed -E 's/.*ft: ([0-9]+).*/\1/' <<<"$last")
    corp=$(sed -E 's/.*corp: ([0-9]+\/[0-9A-Za-z]+).*/\1/' <<<"$last")
    rss=$(grep -E '^stat::peak_rss_mb' "$log" | tail -1 | awk '{print $2}' || true)
    problems=$(cd "$OUT/$target" && { ls crash-* leak-* oom-* timeout-* slow-unit-* 2>/dev/null || true; } | wc -l)
    echo "$target: ${runs:-0} executions in ${SECONDS_PER_TARGET}s, coverage ${cov:-?} edges, ${ft:-?} features, corpus ${corp:-?}, peak RSS ${rss:-?} MB, exit $status, problems $problems"
    if [ "$status" -ne 0 ] || [ "$problems" -ne 0 ]; then
        grep -E 'ERROR|Fatal error|precondition' "$log" | head -5 || true
        FAILED=1
    fi
done
exit ${FAILED:-0}
