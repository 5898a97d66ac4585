#!/usr/bin/env bash
# Regenerates the man pages in docs/man/ from the CLI's own help (swift-argument-parser's GenerateManual plugin).
# Read one with: man docs/man/journal.1
set -euo pipefail
cd "$(dirname "$0")/.."
swift package --allow-writing-to-package-directory generate-manual --configuration debug --multi-page
rm -f docs/man/*.1
cp .build/plugins/GenerateManual/outputs/JournalCLI/*.1 docs/man/
