"""The one way the faces read a JSON body they parse themselves: a request to the HTTP
API's shortcut or to the proxy, and an upstream's answer to the proxy.

json.loads raises ValueError for malformed text or bytes that are not UTF-8, but
RecursionError for arrays or objects nested past the interpreter's limit (about a
thousand deep), which a handler catching ValueError lets through as a 500. Every failure
here is a BadJson, a ValueError, with a message a caller can be shown.
"""

import json
from typing import Any

__all__ = ["BadJson", "parse_json"]


class BadJson(ValueError):
    """A body that is not JSON this server reads; the message says why."""


def parse_json(raw: bytes | str) -> Any:
    """The value of `raw` (bytes in UTF-8, -16 or -32, as Starlette reads a request)."""
    try:
        return json.loads(raw)
    except RecursionError:
        raise BadJson("the JSON is nested too deeply") from None
    except UnicodeDecodeError:
        raise BadJson("the body is not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        raise BadJson(f"not valid JSON: {exc.msg} at {where}") from None
    except ValueError as exc:  # bytes json cannot even guess an encoding for
        raise BadJson(f"not valid JSON: {exc}") from None
