"""Errors raised by the client: every API error carries the problem document's fields (see docs/errors.md)."""
from __future__ import annotations

from typing import Any, List, Mapping, Optional, TypedDict


class FieldError(TypedDict):
    field: str
    message: str


class SwitchboardError(Exception):
    """Base class of everything this package raises."""


class ApiError(SwitchboardError):
    """A non-2xx answer, with the fields of its application/problem+json body."""

    def __init__(self, status: int, problem: Mapping[str, Any], headers: Mapping[str, str]) -> None:
        self.status = status
        self.type: Optional[str] = problem.get("type")
        self.title: Optional[str] = problem.get("title")
        self.detail: Optional[str] = problem.get("detail")
        self.code: Optional[str] = problem.get("code")
        self.request_id: Optional[str] = problem.get("request_id") or headers.get("x-request-id")
        self.errors: List[FieldError] = list(problem.get("errors") or [])
        self.problem = dict(problem)
        self.headers = dict(headers)
        fields = "; ".join(f"{e.get('field')} {e.get('message')}" for e in self.errors)
        super().__init__(f"{status} {self.code or self.title or 'error'}: {self.detail or ''} {fields}".strip())


class NetworkError(SwitchboardError):
    """The request never got an HTTP answer (connection refused or reset, timeout), after every retry."""


class WebhookVerificationError(SwitchboardError):
    """A webhook delivery whose signature or timestamp does not verify."""
