"""The ``batchai`` command line: ``az batchai`` on the local engine or your Azure subscription.

Only click is imported at start-up: the SDK (msrest, azure-core, engines) is imported inside the
command callbacks, so ``batchai --help`` stays fast.
"""

from __future__ import annotations

from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> None:
    """Entry point of the ``batchai`` console script."""
    from .app import cli

    cli.main(args=list(argv) if argv is not None else None, prog_name="batchai")


__all__ = ["main"]
