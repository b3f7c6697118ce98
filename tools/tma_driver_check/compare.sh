#!/usr/bin/env bash
# Compare recorded driver verdicts with Tessera's (no GPU needed): prints the agreement table.
#   tools/tma_driver_check/compare.sh [data/cases1.txt.gz ...]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
cargo build -q -p tessera-cli
files=("$@"); [ ${#files[@]} -eq 0 ] && files=("$here"/data/cases*.txt*)
for f in "${files[@]}"; do
  echo "## $(basename "$f")"
  tmp=$(mktemp); (case "$f" in *.gz) gunzip -c "$f";; *) cat "$f";; esac) > "$tmp"
  target/debug/tessera tma --driver-cases "$tmp" || true
  rm -f "$tmp"
done
