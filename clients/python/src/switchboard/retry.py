"""When and how long to wait before retrying a request: exponential backoff with full jitter, Retry-After first."""
from __future__ import annotations

import random
from dataclasses import dataclass
from email.utils import parsedate_to_datetime
from typing import Callable, Optional
import time

RETRYABLE_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504})


@dataclass(frozen=True)
class RetryPolicy:
    """max_attempts counts the first try; delays are in seconds."""

    max_attempts: int = 4
    base_delay: float = 0.25
    max_delay: float = 8.0
    # A server may ask for a long pause; we wait at most this long for one Retry-After.
    max_retry_after: float = 60.0

    def backoff(self, retry_number: int, rand: Callable[[], float] = random.random) -> float:
        """Delay before retry `retry_number` (1-based): uniform in [0, min(max_delay, base * 2^(n-1))]."""
        ceiling = min(self.max_delay, self.base_delay * (2.0 ** (retry_number - 1)))
        return ceiling * rand()

    def delay(self, retry_number: int, retry_after: Optional[str], rand: Callable[[], float] = random.random) -> float:
        """Retry-After (seconds or an HTTP date) wins over the backoff when the server sent one."""
        asked = parse_retry_after(retry_after)
        if asked is not None:
            return min(asked, self.max_retry_after)
        return self.backoff(retry_number, rand)


def parse_retry_after(value: Optional[str], now: Callable[[], float] = time.time) -> Optional[float]:
    if value is None or value.strip() == "":
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - now())
    except (TypeError, ValueError, IndexError):
        return None


def is_retryable_status(status: int, code: Optional[str]) -> bool:
    # 409 is retried only while the first request with the same Idempotency-Key is still running.
    if status == 409:
        return code == "idempotency_key_in_use"
    return status in RETRYABLE_STATUSES
