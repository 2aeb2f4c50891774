"""The API's resources, one small class each, over a shared Transport (routes in docs/api.md, docs/chat.md, docs/webhooks.md)."""
from __future__ import annotations

import urllib.parse
import uuid
from typing import Any, Dict, Iterator, List, Mapping, Optional, cast

from .transport import Transport
from .types import Event, Message, MessageEvent, Page, WebhookEndpoint


def _id(value: str) -> str:
    return urllib.parse.quote(value, safe="")


def paginate(transport: Transport, path: str, query: Mapping[str, Any]) -> Iterator[Dict[str, Any]]:
    """Every item of a cursor-paginated list, fetching page after page (see docs/conventions.md)."""
    params = dict(query)
    while True:
        page = cast(Page, transport.request("GET", path, query=params).body)
        yield from page["data"]
        cursor = page.get("next_cursor")
        if not cursor:
            return
        params["cursor"] = cursor


def _idempotency(key: Optional[str]) -> Dict[str, str]:
    # One key per logical send, generated here once, so that the transport's retries replay instead of duplicating.
    return {"Idempotency-Key": key or str(uuid.uuid4())}


class Messages:
    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def send(
        self,
        channel: str,
        recipient: str,
        *,
        text: Optional[str] = None,
        content: Optional[Mapping[str, Any]] = None,
        template: Optional[Mapping[str, Any]] = None,
        idempotency_key: Optional[str] = None,
        **fields: Any,
    ) -> Message:
        """POST /v1/messages; `text` is a shortcut for content={"text": text}. Other fields (metadata, fallback,
        callback_url, ttl_seconds, traffic_class, from_) go through as they are named in docs/api.md."""
        body: Dict[str, Any] = {"channel": channel, "recipient": recipient}
        if text is not None:
            body["content"] = {"text": text}
        if content is not None:
            body["content"] = dict(content)
        if template is not None:
            body["template"] = dict(template)
        if "from_" in fields:
            fields["from"] = fields.pop("from_")
        body.update(fields)
        return cast(Message, self._t.request("POST", "/v1/messages", body=body, headers=_idempotency(idempotency_key)).body)

    def send_chat(self, message: Mapping[str, Any], *, idempotency_key: Optional[str] = None) -> Message:
        """POST /v1/messages/chat with a typed chat message: {"to": ..., "type": "text", "text": {"body": ...}}."""
        return cast(Message, self._t.request("POST", "/v1/messages/chat", body=dict(message), headers=_idempotency(idempotency_key)).body)

    def get(self, message_id: str) -> Message:
        return cast(Message, self._t.request("GET", f"/v1/messages/{_id(message_id)}").body)

    def events(self, message_id: str) -> List[MessageEvent]:
        return cast(List[MessageEvent], self._t.request("GET", f"/v1/messages/{_id(message_id)}/events").body["data"])

    def list_page(self, **query: Any) -> Page:
        """One page: filters status, channel, recipient, traffic_class; limit; cursor."""
        return cast(Page, self._t.request("GET", "/v1/messages", query=query).body)

    def list(self, **query: Any) -> Iterator[Message]:
        """Every message matching the filters, newest first, across all pages."""
        return cast(Iterator[Message], paginate(self._t, "/v1/messages", query))


class Templates:
    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def create(self, template: Mapping[str, Any]) -> Dict[str, Any]:
        return cast(Dict[str, Any], self._t.request("POST", "/v1/templates", body=dict(template)).body)

    def get(self, template_id: str) -> Dict[str, Any]:
        return cast(Dict[str, Any], self._t.request("GET", f"/v1/templates/{_id(template_id)}").body)

    def list(self, **query: Any) -> Iterator[Dict[str, Any]]:
        return paginate(self._t, "/v1/templates", query)

    def delete(self, template_id: str) -> None:
        self._t.request("DELETE", f"/v1/templates/{_id(template_id)}")


class Inbound:
    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def get(self, inbound_id: str) -> Dict[str, Any]:
        return cast(Dict[str, Any], self._t.request("GET", f"/v1/inbound/{_id(inbound_id)}").body)

    def list(self, **query: Any) -> Iterator[Dict[str, Any]]:
        return paginate(self._t, "/v1/inbound", query)


class Webhooks:
    """Endpoints, events and the account's callback secret; `verify` checks a delivery's signature."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def create(self, url: str, events: List[str], description: Optional[str] = None) -> WebhookEndpoint:
        body: Dict[str, Any] = {"url": url, "events": events}
        if description is not None:
            body["description"] = description
        return cast(WebhookEndpoint, self._t.request("POST", "/v1/webhooks", body=body).body)

    def get(self, endpoint_id: str) -> WebhookEndpoint:
        return cast(WebhookEndpoint, self._t.request("GET", f"/v1/webhooks/{_id(endpoint_id)}").body)

    def list(self) -> List[WebhookEndpoint]:
        return cast(List[WebhookEndpoint], self._t.request("GET", "/v1/webhooks").body["data"])

    def delete(self, endpoint_id: str) -> None:
        self._t.request("DELETE", f"/v1/webhooks/{_id(endpoint_id)}")

    def rotate_secret(self, endpoint_id: str) -> Dict[str, Any]:
        return cast(Dict[str, Any], self._t.request("POST", f"/v1/webhooks/{_id(endpoint_id)}/rotate-secret").body)

    def deliveries(self, endpoint_id: str) -> List[Dict[str, Any]]:
        return cast(List[Dict[str, Any]], self._t.request("GET", f"/v1/webhooks/{_id(endpoint_id)}/deliveries").body["data"])

    def events(self, **query: Any) -> Iterator[Event]:
        """GET /v1/events with `type` and `resource_id` filters, across all pages."""
        return cast(Iterator[Event], paginate(self._t, "/v1/events", query))

    def event(self, event_id: str) -> Event:
        return cast(Event, self._t.request("GET", f"/v1/events/{_id(event_id)}").body)

    def redeliver(self, event_id: str) -> None:
        self._t.request("POST", f"/v1/events/{_id(event_id)}/redeliver")

    def account_secret(self) -> str:
        return cast(str, self._t.request("GET", "/v1/account/webhook-secret").body["secret"])

    @staticmethod
    def verify(payload: Any, headers: Mapping[str, Any], secret: str) -> Dict[str, Any]:
        from .webhooks import verify

        return verify(payload, headers, secret)


class Calls:
    """Outbound calls, optionally run by an agent (docs/voice.md#calls)."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def create(self, to: str, from_: str, *, agent_id: Optional[str] = None, idempotency_key: Optional[str] = None, **fields: Any) -> Dict[str, Any]:
        """POST /v1/voice/calls; other fields (record, metadata, callback_url, ring_timeout_seconds, machine_detection)
        go through as docs/voice.md#placing-a-call names them. One Idempotency-Key per call, reused by every retry."""
        body: Dict[str, Any] = {"to": to, "from": from_, **fields}
        if agent_id is not None:
            body["agent_id"] = agent_id
        return cast(Dict[str, Any], self._t.request("POST", "/v1/voice/calls", body=body, headers=_idempotency(idempotency_key)).body)

    def get(self, call_id: str) -> Dict[str, Any]:
        return cast(Dict[str, Any], self._t.request("GET", f"/v1/voice/calls/{_id(call_id)}").body)

    def transcript(self, call_id: str) -> List[Dict[str, Any]]:
        """The call's transcript lines ({speaker, text, at}), oldest first."""
        return cast(List[Dict[str, Any]], self.get(call_id)["transcript"])

    def list(self, **query: Any) -> Iterator[Dict[str, Any]]:
        """Every call matching the filters (status, to, agent_id), newest first, across all pages."""
        return paginate(self._t, "/v1/voice/calls", query)

    def hangup(self, call_id: str) -> Dict[str, Any]:
        return cast(Dict[str, Any], self._t.request("POST", f"/v1/voice/calls/{_id(call_id)}/hangup").body)

    def recording(self, call_id: str) -> bytes:
        """The recording as WAV bytes: stereo, 8 kHz 16-bit PCM, callee left, agent right (docs/voice.md#recording)."""
        return cast(bytes, self._t.request("GET", f"/v1/voice/calls/{_id(call_id)}/recording", raw=True).body)


class Agents:
    """Voice agents (docs/voice.md#agents). A broken flow raises ApiError 400 whose errors name JSON Pointers."""

    def __init__(self, transport: Transport) -> None:
        self._t = transport

    def create(self, name: str, flow: Mapping[str, Any], **fields: Any) -> Dict[str, Any]:
        return cast(Dict[str, Any], self._t.request("POST", "/v1/voice/agents", body={"name": name, "flow": dict(flow), **fields}).body)

    def get(self, agent_id: str) -> Dict[str, Any]:
        return cast(Dict[str, Any], self._t.request("GET", f"/v1/voice/agents/{_id(agent_id)}").body)

    def replace(self, agent_id: str, name: str, flow: Mapping[str, Any], **fields: Any) -> Dict[str, Any]:
        """PUT: the whole agent; calls already placed keep the flow they started with."""
        body = {"name": name, "flow": dict(flow), **fields}
        return cast(Dict[str, Any], self._t.request("PUT", f"/v1/voice/agents/{_id(agent_id)}", body=body).body)

    def list(self, **query: Any) -> Iterator[Dict[str, Any]]:
        return paginate(self._t, "/v1/voice/agents", query)

    def delete(self, agent_id: str) -> None:
        self._t.request("DELETE", f"/v1/voice/agents/{_id(agent_id)}")
