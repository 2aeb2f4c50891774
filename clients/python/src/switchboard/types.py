"""Shapes of the API's answers (see docs/api.md and docs/webhooks.md). Fields the server may add are kept."""
from __future__ import annotations

from typing import Any, Dict, List, Optional, TypedDict


class MessageError(TypedDict):
    code: str
    message: str


class Attempt(TypedDict):
    channel: str
    status: str
    error_code: Optional[str]
    at: str


class Message(TypedDict, total=False):
    id: str
    status: str
    channel: str
    channel_used: Optional[str]
    recipient: str
    cost_units: int
    carrier_status_code: Optional[str]
    sent_at: Optional[str]
    delivered_at: Optional[str]
    read_at: Optional[str]
    created_at: str
    updated_at: str
    traffic_class: str
    metadata: Dict[str, str]
    error: Optional[MessageError]
    attempts: List[Attempt]
    estimated_delivery: str


class MessageEvent(TypedDict, total=False):
    sequence: int
    status: str
    channel: str
    carrier_status_code: Optional[str]
    error_code: Optional[str]
    at: str


class WebhookEndpoint(TypedDict, total=False):
    id: str
    url: str
    events: List[str]
    description: Optional[str]
    enabled: bool
    disabled_reason: Optional[str]
    secret: str
    created_at: str


class Event(TypedDict, total=False):
    id: str
    type: str
    created_at: str
    data: Dict[str, Any]
    delivery_status: str


class Page(TypedDict):
    data: List[Dict[str, Any]]
    next_cursor: Optional[str]
