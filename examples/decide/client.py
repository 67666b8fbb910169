#!/usr/bin/env python3
"""A client of the budget-rules decision service (R-130), on Python's standard library only.

    DECIDE_URL=http://127.0.0.1:3000 python3 client.py case.json [case.json ...]
    DECIDE_URL=... DECIDE_TOKEN=... python3 client.py --batch case.json case.json

Prints each answer as one line of JSON (keys sorted). A refusal (HTTP 4xx or 5xx) prints the
problem's message to stderr and exits 1. Copy `decide` and `decide_batch` into your server.
"""
from __future__ import annotations

import json
import os
import sys
import urllib.error
import urllib.request
from typing import Any


class DecideError(Exception):
    """The service refused the request: the HTTP status and the problem's message."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(f"{status} {message}")
        self.status = status
        self.message = message


def _post(url: str, payload: Any, token: str | None) -> Any:
    """POSTs `payload` as JSON to `url` and returns the parsed reply, or raises DecideError."""
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = json.dumps(payload).encode("utf-8")
    request = urllib.request.Request(url, data=data, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as reply:
            return json.load(reply)
    except urllib.error.HTTPError as error:
        text = error.read().decode("utf-8", "replace")
        try:
            message = json.loads(text)["message"]
        except (ValueError, KeyError, TypeError):
            message = text or error.reason
        raise DecideError(error.code, message) from None


def decide(base_url: str, case: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    """The answer to one case: {status, headers, body, reasons, budget, record}.

    Send `status`, `headers` and `body` (JSON, or no body when it is None) as your reply;
    persist `budget` when it is not None; keep `record` as the decision record.
    """
    return _post(f"{base_url.rstrip('/')}/v1/decide", case, token)


def decide_batch(base_url: str, cases: list[dict[str, Any]], token: str | None = None) -> list[dict[str, Any]]:
    """The answers to up to 1000 cases, in their order; one that is not a case refuses them all."""
    return _post(f"{base_url.rstrip('/')}/v1/decide/batch", {"cases": cases}, token)["answers"]


def main(argv: list[str]) -> int:
    """Decides the case files of `argv` (one by one, or as one batch with --batch)."""
    batch = "--batch" in argv
    files = [arg for arg in argv if arg != "--batch"]
    if not files:
        print("usage: client.py [--batch] case.json [case.json ...]  (DECIDE_URL, DECIDE_TOKEN)", file=sys.stderr)
        return 2
    base_url = os.environ.get("DECIDE_URL") or "http://127.0.0.1:3000"
    token = os.environ.get("DECIDE_TOKEN") or None
    cases: list[dict[str, Any]] = []
    for file in files:
        with open(file, encoding="utf-8") as f:
            cases.append(json.load(f))
    try:
        answers = decide_batch(base_url, cases, token) if batch else (decide(base_url, c, token) for c in cases)
        for answer in answers:
            print(json.dumps(answer, sort_keys=True, separators=(",", ":")), flush=True)
    except DecideError as error:
        print(f"{error.status}: {error.message}", file=sys.stderr)
        return 1
    except OSError as error:  # urllib.error.URLError and the socket's errors
        print(f"cannot reach {base_url}: {getattr(error, 'reason', error)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
