#!/bin/sh
# Headless Neovim gets reorder-policy's diagnostics through editors/nvim/reorder-policy.lua.
#   REORDER_POLICY_BIN=.build/debug/reorder-policy Tests/LSPTests/run_nvim.sh
# Exit 0 and `ok: unknown-key at line 4` when the diagnostic arrives; 1 otherwise.
set -eu
: "${REORDER_POLICY_BIN:?set REORDER_POLICY_BIN to a built reorder-policy binary}"
command -v nvim >/dev/null 2>&1 || { echo "nvim is not installed" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
REORDER_POLICY_BIN=$(cd "$(dirname "$REORDER_POLICY_BIN")" && pwd)/$(basename "$REORDER_POLICY_BIN")
REORDER_POLICY_ROOT=${REORDER_POLICY_ROOT:-$(cd "$here/../.." && pwd)}
export REORDER_POLICY_BIN REORDER_POLICY_ROOT

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'reorder-policy: 1\nname: nvim-check\nrules:\n  - pinn: { first: 1 }\n' > "$tmp/typo.yaml"

status=0
out=$(cd "$tmp" && timeout 30 nvim --headless --clean -u "$here/nvim_receives_diagnostic.lua" typo.yaml </dev/null 2>&1) || status=$?
printf '%s\n' "$out"
if [ "$status" -ne 0 ]; then
  echo "nvim exited with status $status" >&2
  exit 1
fi
case "$out" in
  *"ok: unknown-key at line 4"*) exit 0 ;;
  *) echo "expected 'ok: unknown-key at line 4'" >&2; exit 1 ;;
esac
