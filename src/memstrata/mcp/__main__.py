"""`python -m memstrata.mcp [--transport stdio|http] [--host H] [--port P] [--config FILE]`."""

import argparse
import sys
from pathlib import Path

from memstrata.errors import MemstrataError
from memstrata.mcp import TRANSPORTS, run_mcp
from memstrata.settings import load_settings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m memstrata.mcp", description=__doc__)
    parser.add_argument("--transport", choices=TRANSPORTS, default="stdio")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8422)
    parser.add_argument("--config", type=Path, default=None, help="a TOML settings file")
    args = parser.parse_args(argv)
    try:
        run_mcp(load_settings(args.config), args.transport, args.host, args.port)
    except MemstrataError as exc:
        print(f"memstrata mcp: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
