#!/usr/bin/env bash
# Builds the libFuzzer targets and runs each, for N seconds (default 60) or, with --ci, for a fixed
# number of executions: CI's budget (scripts/test), the same work however busy the machine is.
#
#   Fuzz/run.sh [SECONDS|--ci] [TARGET...]
#       targets: frame-reader event-decoder differential-decoder importer views (default: all five)
#   FUZZ_SEED=N      libFuzzer's -seed (default 0: a random seed each run; scripts/test passes 1)
#   FUZZ_JOBS=N      targets fuzzed at once (default 1; scripts/test passes 2, one per core)
#
# --ci runs each target for the executions in CI_EXECUTIONS below, 6 to 15 s each on this 2-core machine when
# it is idle (the instrumented build before them takes about 100 s of CPU); scripts/test runs it at the lowest
# priority beside the test suites, so that it takes the cores they leave idle. Longer runs are the same command
# with seconds.
#
# Each target is a small harness under Fuzz/ compiled with `swiftc -sanitize=fuzzer,address` and linked with
# the libraries it exercises, built once as separate instrumented modules (JournalStore, JournalEvents,
# JournalModel, JournalFile, TrainingDomain, JournalProjections,
# JournalInterchange), two at a time in dependency order. Everything lands under .build/fuzz, apart from
# `swift build`'s directories; a module set or binary newer than its sources and this script is reused.
#
# Seeds: small simulated journals for the frame reader and their lines for the decoders (from
# .build/debug/journal; built if missing), and for the importer Fuzz/Seeds/importer (one small file per
# layout) plus four 60-row slices of ../shared/realdata/strong-export.csv when it is there. Corpora
# persist under .build/fuzz/<target>/corpus. A crash, leak, timeout (10 s per input) or out-of-memory
# (2 GB RSS, 256 MB in one allocation) writes crash-*, leak-*, timeout-* or oom-* beside the corpus and
# fails the run. Prints, per target: executions, coverage (edges), features, corpus, peak RSS, problems.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-60}
shift || true
declare -A CI_EXECUTIONS=([frame-reader]=10000 [event-decoder]=250000 [differential-decoder]=150000 [importer]=1500 [views]=1000)
TARGETS=("$@")
# Every target, the slowest first, so that two lanes end together (FUZZ_JOBS below): at CI's executions beside the
# suites the views take 28-58 s, the others 10-44 s as the suites' load varies (RELIABILITY.md §7).
ALL_TARGETS=(views importer event-decoder differential-decoder frame-reader)
[ ${#TARGETS[@]} -eq 0 ] && TARGETS=("${ALL_TARGETS[@]}")
for target in "${TARGETS[@]}"; do
    case " ${ALL_TARGETS[*]} " in *" $target "*) ;; *) echo "unknown target $target (${ALL_TARGETS[*]})" >&2; exit 2 ;; esac
done
ROOT=$PWD
OUT=.build/fuzz
JOURNAL=${JOURNAL_BIN:-.build/debug/journal}
STRONG_EXPORT=../shared/realdata/strong-export.csv
mkdir -p "$OUT/bin"

# Swift's own crash reporter gets in AddressSanitizer's way: let libFuzzer report.
export SWIFT_BACKTRACE=enable=no
export LSAN_OPTIONS=suppressions=$ROOT/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}
# One package name for every module, as SwiftPM gives them (JournalModel shares `package` declarations);
# Swift 6 language mode, as Package.swift.
SWIFTC=(swiftc -sanitize=fuzzer,address -parse-as-library -suppress-warnings -package-name workout_journal -swift-version 6)

quiet() { "$@" 2>&1 | { grep -v "Cannot export local symbol" || true; }; return "${PIPESTATUS[0]}"; }

# True when $1 exists and is newer than every other argument.
fresh() {
    local binary=$1; shift
    [ -x "$binary" ] && [ -z "$(find "$@" -newer "$binary" 2>/dev/null | head -1)" ]
}

# One instrumented library module: NAME, then swiftc arguments (sources first).
module() { # LEVEL NAME SOURCES...
    local level=$1 name=$2; shift 2
    quiet "${SWIFTC[@]}" "$level" -wmo -module-name "$name" -emit-module -emit-module-path "$OUT/modules/$name.swiftmodule" \
        -I "$OUT/modules" -c "$@" -o "$OUT/modules/$name.o"
}

# Runs the given commands (each one quoted string) side by side and fails when any fails.
together() {
    local pids=() command
    for command in "$@"; do eval "$command" & pids+=($!); done
    for pid in "${pids[@]}"; do wait "$pid"; done
}

# The instrumented modules every target links, built once and in dependency order, two at a time: the library
# sources as SwiftPM builds them, plus a stand-in for TrainingDomain's generated resource accessor (it reads Data/
# from the source folder, found from the stand-in's absolute path). The store and the codec are optimized (-O): the
# frame and decoder targets run hundreds of thousands of inputs through them. The fold, the file, the catalogue, the
# views and interchange are not (-Onone): optimized, the fold and the file alone took 66 of the build's 161 s of CPU,
# and the targets run as fast without (RELIABILITY.md §7). The harnesses are optimized.
modules() {
    local stamp=$OUT/modules/.built
    fresh "$stamp" Sources/JournalStore Sources/JournalEvents Sources/JournalModel Sources/JournalFile Sources/TrainingDomain \
        Sources/JournalProjections Sources/JournalInterchange Fuzz/TrainingDomainBundle.swift Fuzz/run.sh \
        && return
    rm -rf "$OUT/modules"; mkdir -p "$OUT/modules"
    local any="-enable-upcoming-feature ExistentialAny"
    together "module -O JournalEvents $any \$(find Sources/JournalEvents -name '*.swift')" \
             "module -O JournalStore $any \$(find Sources/JournalStore -name '*.swift') -I Sources/CZstd"
    module -Onone JournalModel $any $(find Sources/JournalModel -name '*.swift')
    together "module -Onone TrainingDomain $any \$(find Sources/TrainingDomain -name '*.swift') $ROOT/Fuzz/TrainingDomainBundle.swift" \
             "module -Onone JournalFile $any \$(find Sources/JournalFile -name '*.swift') -I Sources/CZstd"
    module -Onone JournalProjections $any $(find Sources/JournalProjections -name '*.swift')
    module -Onone JournalInterchange $any $(find Sources/JournalInterchange -name '*.swift')
    touch "$stamp"; chmod +x "$stamp"
}

# A target: its harness linked with the instrumented modules (built by `modules` first).
build() {
    local target=$1 binary=$OUT/bin/$1 main name
    case $target in
        frame-reader) main=Fuzz/FrameReaderFuzz.swift name=FrameReaderFuzz ;;
        event-decoder) main=Fuzz/EventDecoderFuzz.swift name=EventDecoderFuzz ;;
        differential-decoder) main=Fuzz/DifferentialDecoder/main.swift name=DifferentialDecoder ;;
        importer) main=Fuzz/ImporterFuzz.swift name=ImporterFuzz ;;
        views) main=Fuzz/ViewsFuzz.swift name=ViewsFuzz ;;
    esac
    fresh "$binary" "$OUT/modules/.built" "$main" && return
    quiet "${SWIFTC[@]}" -O -module-name "$name" -I "$OUT/modules" -I Sources/CZstd "$OUT"/modules/*.o "$main" -lzstd -o "$binary"
}

seed() {
    local target=$1 dir=$OUT/$1/seeds tmp
    rm -rf "$dir"; mkdir -p "$dir" "$OUT/$1/corpus"
    if [ "$target" = importer ]; then
        cp Fuzz/Seeds/importer/*.csv "$dir"/
        if [ -f "$STRONG_EXPORT" ]; then
            for start in 2 700 1400 2000; do
                { head -1 "$STRONG_EXPORT"; sed -n "${start},$((start + 59))p" "$STRONG_EXPORT"; } >"$dir/real-strong-$start.csv"
            done
        else
            echo "   ($STRONG_EXPORT is missing: seeding from Fuzz/Seeds/importer only)"
        fi
        return
    fi
    [ -x "$JOURNAL" ] || swift build --product journal >/dev/null
    tmp=$(mktemp -d)
    "$JOURNAL" simulate --profile new-user -o "$tmp/new.journal" 2>/dev/null
    "$JOURNAL" simulate --profile ppl --weeks 1 -o "$tmp/ppl.journal" 2>/dev/null
    "$JOURNAL" simulate --profile ppl --weeks 0 --torn-tail -o "$tmp/torn.journal" 2>/dev/null
    printf '%s\n' '{"type":"workout.started","workout":"w1","name":"Push","session":null}' \
        '{"type":"set.completed","workout":"w1","exercise":"barbell-back-squat","set":1,"weight":100,"unit":"kg","reps":5,"kind":"working"}' \
        | "$JOURNAL" record "$tmp/tail.journal" >/dev/null
    case $target in
        frame-reader) cp "$tmp"/*.journal "$dir"/ ;;
        # Whole journals as JSON lines: a new user's, and a programme's week in slices of about 120 events.
        views)
            "$JOURNAL" cat "$tmp/new.journal" >"$dir/new.jsonl"
            "$JOURNAL" cat "$tmp/ppl.journal" | split -l 120 - "$dir/ppl-"
            cp Fuzz/Seeds/views/*.jsonl "$dir"/ ;;
        *) "$JOURNAL" cat "$tmp/ppl.journal" | awk -v d="$dir" '!seen[$4]++ || NR % 25 == 0 { f = d "/line-" NR; print > f; close(f) }' FS='"' ;;
    esac
    rm -rf "$tmp"
}

fuzz() { # TARGET: builds, seeds and runs it; fails when it found a problem
    local target=$1 started built budget dir log options asan status elapsed runs last cov ft corp rss artifacts problems artifact
    started=$(date +%s)
    echo "== $target: building"
    build "$target"
    seed "$target"
    built=$(date +%s)
    if [ "$SECONDS_PER_TARGET" = --ci ]; then
        budget=(-runs="${CI_EXECUTIONS[$target]}"); echo "== $target: built and seeded in $((built - started))s; fuzzing for ${CI_EXECUTIONS[$target]} executions"
    else
        budget=(-max_total_time="$SECONDS_PER_TARGET"); echo "== $target: built and seeded in $((built - started))s; fuzzing for ${SECONDS_PER_TARGET}s"
    fi
    dir=$OUT/$target
    log=$dir/run.log
    touch "$dir/.started"
    options=("${budget[@]}" -seed="${FUZZ_SEED:-0}" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=256
             -print_final_stats=1 -artifact_prefix=./)
    asan=${ASAN_OPTIONS:-}
    case $target in
        importer) options+=(-max_len=16384) ;;
        views) options+=(-max_len=32768 -dict="$ROOT/Fuzz/Seeds/views.dict") ;;
        # Foundation (JSONSerialization) keeps caches alive at exit: no leak checks for this one.
        differential-decoder) options+=(-max_len=4096); asan=detect_leaks=0${asan:+:$asan} ;;
    esac
    set +e
    (cd "$dir" && ASAN_OPTIONS=$asan "../bin/$target" "${options[@]}" corpus seeds) >"$log" 2>&1
    status=$?
    elapsed=$(($(date +%s) - built))
    set -e
    runs=$(grep -E '^stat::number_of_executed_units' "$log" | tail -1 | awk '{print $2}' || true)
    last=$(grep -E '^#[0-9]+.*cov:' "$log" | tail -1 || true)
    cov=$(sed -E 's/.*cov: ([0-9]+).*/\1/' <<<"$last")
    ft=$(sed -E 's/.*ft: ([0-9]+).*/\1/' <<<"$last")
    corp=$(sed -E 's/.*corp: ([0-9]+\/[0-9A-Za-z]+).*/\1/' <<<"$last")
    rss=$(grep -E '^stat::peak_rss_mb' "$log" | tail -1 | awk '{print $2}' || true)
    # Only what this run wrote: an artifact of an earlier run is left for whoever is looking at it.
    artifacts=$(cd "$dir" && find . -maxdepth 1 \( -name 'crash-*' -o -name 'leak-*' -o -name 'oom-*' -o -name 'timeout-*' -o -name 'slow-unit-*' \) -newer .started)
    problems=$(grep -c . <<<"$artifacts" || true)
    echo "$target: ${runs:-0} executions in ${elapsed}s, coverage ${cov:-?} edges, ${ft:-?} features, corpus ${corp:-?}, peak RSS ${rss:-?} MB, exit $status, problems $problems"
    if [ "$status" -ne 0 ] || [ "$problems" -ne 0 ]; then
        echo "   FAILED: see $log; reproduce with (cd $dir && ../bin/$target <artifact>)"
        for artifact in $artifacts; do echo "   artifact: $dir/${artifact#./}"; done
        grep -E 'ERROR|Fatal error|precondition|SUMMARY' "$log" | head -8 | sed 's/^/   /' || true
        return 1
    fi
}

# The modules first (every target links them), then the targets, FUZZ_JOBS at a time (default 1).
modules
jobs=${FUZZ_JOBS:-1}
lane() { # N: every jobs-th target from the N-th
    local index failed=0
    for ((index = $1; index < ${#TARGETS[@]}; index += jobs)); do fuzz "${TARGETS[$index]}" || failed=1; done
    return $failed
}
lanes=()
for ((lane = 0; lane < jobs; lane++)); do lane "$lane" & lanes+=($!); done
FAILED=0
for pid in "${lanes[@]}"; do wait "$pid" || FAILED=1; done
exit $FAILED
