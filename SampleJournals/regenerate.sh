#!/usr/bin/env bash
# Rebuilds every sample journal from `journal simulate` (deterministic: same bytes every time).
set -euo pipefail
cd "$(dirname "$0")/.."
J=${JOURNAL:-.build/debug/journal}
$J simulate --profile new-user       --seed 1  --weeks 0   --start 2026-11-23 -o SampleJournals/new-user.journal --force
$J simulate --profile ppl            --seed 7  --weeks 12  --start 2026-08-31 -o SampleJournals/ppl-12-weeks.journal --force
$J simulate --profile upper-lower-lb --seed 42 --weeks 104 --start 2024-11-25 -o SampleJournals/upper-lower-2y-lb.journal --force
$J simulate --profile full-body      --seed 3  --weeks 4   --start 2026-10-26 -o SampleJournals/torn-tail.journal --force --torn-tail
