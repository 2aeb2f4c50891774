"""The entry point: Switchboard(base_url, api_key) with one attribute per resource."""
from __future__ import annotations

from typing import Optional

from .resources import Agents, Calls, Inbound, Messages, Templates, Webhooks
from .retry import RetryPolicy
from .transport import Transport


class Switchboard:
    def __init__(self, base_url: str, api_key: str, *, timeout: float = 30.0, retry: Optional[RetryPolicy] = None) -> None:
        self.transport = Transport(base_url=base_url, api_key=api_key, timeout=timeout, retry=retry or RetryPolicy())
        self.messages = Messages(self.transport)
        self.templates = Templates(self.transport)
        self.inbound = Inbound(self.transport)
        self.webhooks = Webhooks(self.transport)
        self.calls = Calls(self.transport)
        self.agents = Agents(self.transport)
