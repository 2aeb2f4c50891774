"""One HTTP request through urllib, retried on network errors, 429 and 5xx (see docs/conventions.md)."""
from __future__ import annotations

import http.client
import json
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Mapping, Optional

from .errors import ApiError, NetworkError
from .retry import RetryPolicy, is_retryable_status

# Methods that can be repeated without effect; a POST is repeated only with an Idempotency-Key.
SAFE_TO_REPEAT = frozenset({"GET", "HEAD", "PUT", "DELETE"})


@dataclass
class Response:
    status: int
    headers: Dict[str, str]
    body: Any


@dataclass
class Transport:
    base_url: str
    api_key: str
    timeout: float = 30.0
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    user_agent: str = "switchboard-python/0.1.0"
    sleep: Callable[[float], None] = time.sleep

    def request(
        self,
        method: str,
        path: str,
        *,
        query: Optional[Mapping[str, Any]] = None,
        body: Any = None,
        headers: Optional[Mapping[str, str]] = None,
        raw: bool = False,
    ) -> Response:
        """`raw=True` keeps a successful answer's body as bytes (a recording); an error is still read as a problem."""
        url = self.base_url.rstrip("/") + path
        params = {k: v for k, v in (query or {}).items() if v is not None}
        if params:
            url += "?" + urllib.parse.urlencode(params)
        sent_headers = {"Authorization": f"Bearer {self.api_key}", "Accept": "*/*" if raw else "application/json", "User-Agent": self.user_agent}
        data = None
        if body is not None:
            data = json.dumps(body, separators=(",", ":")).encode("utf-8")
            sent_headers["Content-Type"] = "application/json"
        sent_headers.update(headers or {})
        repeatable = method in SAFE_TO_REPEAT or "Idempotency-Key" in sent_headers
        attempt = 1
        while True:
            try:
                response = self._once(method, url, data, sent_headers, raw)
            except (urllib.error.URLError, http.client.HTTPException, ConnectionError, socket.timeout, TimeoutError) as error:
                if not repeatable or attempt >= self.retry.max_attempts:
                    raise NetworkError(f"{method} {path}: {error}") from error
                self.sleep(self.retry.delay(attempt, None))
                attempt += 1
                continue
            if response.status < 400:
                return response
            problem = response.body if isinstance(response.body, dict) else {}
            # 429 means the request was not processed, so even a bare POST may be repeated.
            may_repeat = repeatable or response.status == 429
            if may_repeat and attempt < self.retry.max_attempts and is_retryable_status(response.status, problem.get("code")):
                self.sleep(self.retry.delay(attempt, response.headers.get("retry-after")))
                attempt += 1
                continue
            raise ApiError(response.status, problem, response.headers)

    def _once(self, method: str, url: str, data: Optional[bytes], headers: Mapping[str, str], raw: bool = False) -> Response:
        request = urllib.request.Request(url, data=data, method=method, headers=dict(headers))
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                return Response(answer.status, _lower(answer.headers), answer.read() if raw else _decode(answer.read()))
        except urllib.error.HTTPError as error:
            with error:
                return Response(error.code, _lower(error.headers), _decode(error.read()))


def _lower(headers: Any) -> Dict[str, str]:
    return {k.lower(): v for k, v in headers.items()} if headers is not None else {}


def _decode(raw: bytes) -> Any:
    if not raw:
        return None
    try:
        return json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return raw.decode("utf-8", "replace")
