#!/usr/bin/env bash
# Builds the extracted-code executable proofs/bridge/tessera_extracted:
#  1. installs Debian's OCaml compiler (ocaml-nox) if ocamlopt is missing;
#  2. builds the proofs with check.sh unless bridge/extracted.ml exists
#     (compiling proofs/Extract.v writes it);
#  3. compiles extracted.mli, extracted.ml and main.ml with ocamlopt.
set -euo pipefail
cd "$(dirname "$0")"
if ! command -v ocamlopt >/dev/null 2>&1; then
  echo "bridge/build.sh: ocamlopt not found, installing Debian's ocaml-nox" >&2
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends ocaml-nox >/dev/null
fi
if [ ! -f extracted.ml ]; then
  bash ../check.sh
fi
ocamlopt -version >/dev/null
ocamlopt -o tessera_extracted extracted.mli extracted.ml main.ml
echo "bridge/build.sh: built $(pwd)/tessera_extracted"
