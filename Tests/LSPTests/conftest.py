"""Real-client tests of `reorder-policy lsp`.

Run them (from any directory) with a built binary:

    REORDER_POLICY_BIN=.build/debug/reorder-policy python3 -m pytest Tests/LSPTests

Needs pytest-lsp 1.0 (pygls 2, lsprotocol 2025) and pytest-asyncio. REORDER_POLICY_ROOT
(default: two directories above this file) is the repository whose `policies/` are opened.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def pytest_configure(config: pytest.Config) -> None:
    binary = os.environ.get("REORDER_POLICY_BIN", "")
    if not binary:
        raise pytest.UsageError(
            "REORDER_POLICY_BIN is not set: point it at a built reorder-policy binary, "
            "e.g. REORDER_POLICY_BIN=.build/debug/reorder-policy"
        )
    path = Path(binary)
    if not path.is_file() or not os.access(path, os.X_OK):
        raise pytest.UsageError(f"REORDER_POLICY_BIN={binary!r} is not an executable file")
    root = Path(os.environ.get("REORDER_POLICY_ROOT") or Path(__file__).resolve().parents[2])
    if not (root / "policies").is_dir():
        raise pytest.UsageError(
            f"REORDER_POLICY_ROOT={str(root)!r} has no policies/ folder (set REORDER_POLICY_ROOT "
            "to the repository root)"
        )
