"""The command-line reference page (docs/cli.md), generated from the commands' own ``--help``.

Every command is run with ``--help`` in a fresh interpreter at a fixed width, and its text is put in the page
verbatim, so that the page cannot drift from the parsers.  ``python -m udpm.outputs.cli_reference`` rewrites the page;
``python -m udpm.outputs.cli_reference --check`` exits 1 when the page is stale (a test runs it).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "cli.md"
WIDTH = "100"

#: (title, argv after the interpreter, what it is for)
COMMANDS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("reproduce.py", ("reproduce.py",), "the main job: check every claim, regression-check every printed example"),
    ("reproduce.py merge", ("reproduce.py", "merge"), "merge the documents of shards or filtered runs"),
    ("udpm", ("-m", "udpm.cli"), "the installed command"),
    ("udpm audit", ("-m", "udpm.cli", "audit"), "audit your own mechanism"),
    ("udpm certificates", ("-m", "udpm.cli", "certificates"), "re-check exported LP certificates"),
    ("python -m udpm.claims.records", ("-m", "udpm.claims.records"), "compare the claim records of runs byte for byte"),
    (
        "python -m udpm.claims.variants",
        ("-m", "udpm.claims.variants"),
        "run every false variant, write the sensitivity table",
    ),
)

HEADER = """# Command-line reference

Every command below prints this text itself with `--help`; this page is generated from it
(`python -m udpm.outputs.cli_reference`) and a test keeps it current.  Exit statuses are in each command's text.
"""


def help_text(argv: tuple[str, ...]) -> str:
    """The command's ``--help``, as a fresh interpreter prints it at a fixed width."""
    env = {**os.environ, "COLUMNS": WIDTH, "NO_COLOR": "1", "TERM": "dumb"}
    done = subprocess.run(
        [sys.executable, *argv, "--help"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    return (done.stdout or done.stderr).rstrip() + "\n"


def page() -> str:
    parts = [HEADER]
    for title, argv, what in COMMANDS:
        parts.append(f"\n## `{title}`\n\n{what[0].upper()}{what[1:]}.\n\n```text\n{help_text(argv)}```\n")
    return "".join(parts)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args not in ([], ["--check"]):
        print("usage: python -m udpm.outputs.cli_reference [--check]", file=sys.stderr)
        return 2
    text = page()
    if args == ["--check"]:
        current = PAGE.read_text(encoding="utf-8") if PAGE.exists() else ""
        if current != text:
            print(f"{PAGE.relative_to(ROOT)} is stale: run python -m udpm.outputs.cli_reference", file=sys.stderr)
            return 1
        return 0
    from udpm.internal.files import atomic_write

    atomic_write(PAGE, text)
    print(f"wrote {PAGE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
