"""`python -m threefold.faces.mcp [--transport stdio|http] [--host H] [--port P] [--config FILE]
[--no-auth]`."""

import argparse
import sys
from pathlib import Path

from threefold.errors import ThreefoldError
from threefold.faces.mcp import TRANSPORTS, run_mcp
from threefold.settings import load_settings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m threefold.faces.mcp", description=__doc__)
    parser.add_argument("--transport", choices=TRANSPORTS, default="stdio")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8422)
    parser.add_argument("--config", type=Path, default=None, help="a TOML settings file")
    parser.add_argument(
        "--no-auth",
        action="store_true",
        help="over http, take no API key: every request acts as settings.mcp (loopback only)",
    )
    args = parser.parse_args(argv)
    try:
        settings = load_settings(args.config)
        run_mcp(settings, args.transport, args.host, args.port, no_auth=args.no_auth)
    except ThreefoldError as exc:
        print(f"threefold mcp: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
