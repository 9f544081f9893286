"""`python -m bot.locales missing [--mirrored] [language]`: every English string players
read with no version in the language (zh-TW unless named), one per line, as
`file.key.path`; the slash commands' own strings come from `python -m bot sync`'s tree
(tests/test_locales.py checks them). Exit status 1 when something is missing."""

from __future__ import annotations

import argparse
import sys

from bot.locales import CHINESE, LANGUAGES
from bot.locales.missing import report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.locales")
    parser.add_argument("what", choices=["missing"])
    parser.add_argument("language", nargs="?", default=CHINESE,
                        choices=[lang for lang in LANGUAGES if lang != "en"])
    parser.add_argument("--mirrored", action="store_true",
                        help="only the files that have a mirror in the language yet")
    args = parser.parse_args(argv)
    lines = report(args.language, only_mirrored=args.mirrored)
    for line in lines:
        print(line)
    return 1 if lines else 0


if __name__ == "__main__":
    sys.exit(main())
