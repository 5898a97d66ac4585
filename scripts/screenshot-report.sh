#!/bin/sh
# Renders a journal's HTML report with headless Chromium (Debian's `chromium` package) to a PNG at phone width,
# so a person can check the page without a phone. Not part of the test suite.
#
#   scripts/screenshot-report.sh JOURNAL [OUT.png] [WIDTH] [HEIGHT]
#
# COLOR_SCHEME=dark renders with the reader's dark setting (prefers-color-scheme: dark).
# Needs: `apt-get install -y chromium`. Writes OUT.png (default docs/report-phone.png) and OUT.html beside it.
# Chromium's own messages go to OUT.log; the script fails when Chromium fails or writes no PNG.
set -eu
journal=${1:?usage: scripts/screenshot-report.sh JOURNAL [OUT.png] [WIDTH] [HEIGHT]}
out=${2:-docs/report-phone.png}
width=${3:-390}
height=${4:-2400}
html=${out%.png}.html
bin=${JOURNAL_BIN:-$(dirname "$0")/../.build/debug/journal}
command -v chromium >/dev/null || { echo "chromium is not installed: apt-get install -y chromium" >&2; exit 1; }
# REPORT_OPTIONS passes more options to journal report, e.g. REPORT_OPTIONS="--history 5 --as-of 2021-12-23".
"$bin" report "$journal" -o "$html" ${REPORT_OPTIONS:-}
rm -f "$out"
scheme=""
[ "${COLOR_SCHEME:-light}" = dark ] && scheme="--blink-settings=preferredColorScheme=0"
chromium --headless $scheme --no-sandbox --disable-gpu --hide-scrollbars --force-device-scale-factor=1 \
    --window-size="$width,$height" --screenshot="$out" "file://$(realpath "$html")" >"${out%.png}.log" 2>&1 || {
    echo "chromium failed; see ${out%.png}.log" >&2; exit 1; }
test -s "$out" || { echo "chromium wrote no screenshot; see ${out%.png}.log" >&2; exit 1; }
echo "wrote $out (${width}x${height}) from $html"
