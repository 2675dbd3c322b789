# Sourced by the analysis benchmarks (analysis-corpus.sh, analysis-families.sh,
# analysis-large.sh): strict mode, the repository's root as the working directory, `binary` (the
# script's first argument, else the release build, built when missing) and `dir`, a temporary
# folder removed on exit.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[1]}")/.."
binary="${1:-.build/release/reorder-policy}"
[ -x "$binary" ] || swift build -c release --product reorder-policy
dir="$(mktemp -d)"
trap 'rm -rf "$dir"' EXIT
