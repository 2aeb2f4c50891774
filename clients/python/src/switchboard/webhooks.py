"""Standard Webhooks v1 signature verification (see docs/webhooks.md, "Verifying deliveries")."""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from typing import Any, Dict, Mapping, Optional, Union

from .errors import WebhookVerificationError

TOLERANCE_SECONDS = 300


def _header(headers: Mapping[str, Any], name: str) -> str:
    for key, value in headers.items():
        if key.lower() == name:
            return value if isinstance(value, str) else str(value)
    raise WebhookVerificationError(f"missing header {name}")


def sign(secret: str, msg_id: str, timestamp: int, payload: Union[bytes, str]) -> str:
    """The `v1,<base64>` signature of one delivery: what the sender puts in webhook-signature."""
    body = payload.encode("utf-8") if isinstance(payload, str) else payload
    digest = hmac.new(_key(secret), f"{msg_id}.{timestamp}.".encode("utf-8") + body, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode("ascii")


def _key(secret: str) -> bytes:
    raw = secret[len("whsec_"):] if secret.startswith("whsec_") else secret
    try:
        return base64.b64decode(raw, validate=True)
    except (binascii.Error, ValueError) as error:
        raise WebhookVerificationError("the secret is not whsec_ followed by base64") from error


def verify(payload: Union[bytes, str], headers: Mapping[str, Any], secret: str, now: Optional[float] = None) -> Dict[str, Any]:
    """Returns the parsed event when a v1 signature matches and the timestamp is within 5 minutes; raises otherwise.

    `payload` must be the raw body as received, before any JSON parsing.
    """
    msg_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signatures = _header(headers, "webhook-signature")
    try:
        ts = int(timestamp)
    except ValueError as error:
        raise WebhookVerificationError("webhook-timestamp is not an integer") from error
    current = time.time() if now is None else now
    if abs(current - ts) > TOLERANCE_SECONDS:
        raise WebhookVerificationError("webhook-timestamp is more than 5 minutes away")
    expected = sign(secret, msg_id, ts, payload).encode("ascii")
    # After a secret rotation the header carries several space-separated signatures: any one is enough.
    matched = False
    for candidate in signatures.split(" "):
        version, _, _sig = candidate.partition(",")
        if version == "v1" and hmac.compare_digest(candidate.encode("ascii", "replace"), expected):
            matched = True
    if not matched:
        raise WebhookVerificationError("no v1 signature matches")
    body = payload.decode("utf-8") if isinstance(payload, bytes) else payload
    event: Dict[str, Any] = json.loads(body)
    return event
