"""Switchboard API client: standard library only."""
from .client import Switchboard
from .errors import ApiError, FieldError, NetworkError, SwitchboardError, WebhookVerificationError
from .retry import RetryPolicy
from .webhooks import sign, verify

__all__ = [
    "Switchboard",
    "ApiError",
    "FieldError",
    "NetworkError",
    "SwitchboardError",
    "WebhookVerificationError",
    "RetryPolicy",
    "sign",
    "verify",
]
