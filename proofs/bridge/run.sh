#!/usr/bin/env bash
# The bridge in CI: builds the extracted-code executable and runs the
# differential test of the Rust library against it (100,000 cases per
# operation, fixed seeds; see crates/tessera/tests/bridge.rs).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bash "$here/build.sh"
cd "$here/../.."
TESSERA_EXTRACTED="$here/tessera_extracted" \
  cargo test -p tessera --test bridge -- --ignored --nocapture --test-threads=1
