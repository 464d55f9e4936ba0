"""A scripted LLM server for tests: real HTTP, the OpenAI and Anthropic wire protocols.

It listens on 127.0.0.1 on a free port and answers

* ``POST /v1/chat/completions`` as the OpenAI chat-completions API does, and
* ``POST /v1/messages`` as the Anthropic messages API does

(non-streaming), so the official SDKs run unmodified against it. A test scripts the
replies in order with :meth:`LLMServer.enqueue` — text, stop reason, tool calls, HTTP error
statuses with ``Retry-After``, delays, raw bodies — or with a function that builds the reply
from the request (for agent loops that react to ``tools`` and tool results). Every request
is recorded (method, path, headers, JSON body) for the test to inspect.

Replies are written once, provider-neutrally, and rendered in the protocol of the path they
answer: ``stop="length"`` becomes ``finish_reason: "length"`` for OpenAI and
``stop_reason: "max_tokens"`` for Anthropic.

When the script runs out, the server answers HTTP 418 (which no client retries) with a
message saying so, and counts it in :attr:`LLMServer.unscripted`.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

Protocol = Literal["openai", "anthropic"]

STOP_NAMES: dict[Protocol, dict[str, str]] = {
    "openai": {"end": "stop", "length": "length", "tool": "tool_calls"},
    "anthropic": {"end": "end_turn", "length": "max_tokens", "tool": "tool_use"},
}
"""Neutral stop names and what each protocol calls them; other values pass through."""

_ERROR_TYPES: dict[int, str] = {
    400: "invalid_request_error",
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    413: "request_too_large",
    429: "rate_limit_error",
    529: "overloaded_error",
}


@dataclass(frozen=True)
class ToolCall:
    """A tool call in a reply; ``id`` is generated when not given."""

    name: str
    arguments: Mapping[str, Any] = field(default_factory=dict)
    id: str | None = None


@dataclass(frozen=True)
class Reply:
    """One scripted response.

    ``stop`` is ``"end"``, ``"length"``, ``"tool"`` or any protocol-specific value (sent
    as is); by default ``"tool"`` when there are tool calls, else ``"end"``. ``status``
    other than 200 sends an error body in the protocol's shape with ``error_message``.
    ``body``, when set, is sent verbatim as JSON instead of a rendered reply. ``usage`` is
    (input, output) tokens; by default derived from the sizes of request and reply.
    ``delay`` is how long the server waits before answering, in seconds.
    """

    text: str = ""
    tool_calls: Sequence[ToolCall] = ()
    stop: str | None = None
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)
    error_message: str | None = None
    usage: tuple[int, int] | None = None
    body: Any = None
    delay: float = 0.0

    @classmethod
    def error(
        cls,
        status: int,
        message: str | None = None,
        *,
        retry_after: float | str | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Reply:
        """An HTTP error, optionally with a ``Retry-After`` header."""
        all_headers = dict(headers or {})
        if retry_after is not None:
            all_headers["Retry-After"] = str(retry_after)
        return cls(status=status, headers=all_headers, error_message=message)


@dataclass(frozen=True)
class RecordedRequest:
    """A request the server received."""

    method: str
    path: str
    headers: Mapping[str, str]
    """Header names lower-cased."""
    raw: bytes
    body: Any
    """The JSON body, parsed; None when the body is not JSON."""

    @property
    def protocol(self) -> Protocol | None:
        return _protocol_of(self.path)

    @property
    def system(self) -> str | None:
        """The system prompt, in either protocol."""
        body = self.body if isinstance(self.body, dict) else {}
        if self.protocol == "anthropic":
            return _content_text(body.get("system")) if "system" in body else None
        for message in body.get("messages", []):
            if message.get("role") in ("system", "developer"):
                return _content_text(message.get("content"))
        return None

    def texts(self, role: str) -> list[str]:
        """The text of every message with ``role``, in order."""
        body = self.body if isinstance(self.body, dict) else {}
        return [
            _content_text(message.get("content"))
            for message in body.get("messages", [])
            if message.get("role") == role
        ]

    @property
    def messages(self) -> list[Any]:
        """The ``messages`` list as sent (tool calls and tool results included)."""
        body = self.body if isinstance(self.body, dict) else {}
        messages = body.get("messages")
        return list(messages) if isinstance(messages, list) else []

    @property
    def tools(self) -> list[Any]:
        body = self.body if isinstance(self.body, dict) else {}
        tools = body.get("tools")
        return list(tools) if isinstance(tools, list) else []


Responder = Callable[[RecordedRequest], Reply]


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            part.get("text", "")
            for part in content
            if isinstance(part, dict) and part.get("type") == "text"
        )
    return ""


def _protocol_of(path: str) -> Protocol | None:
    path = path.split("?", 1)[0].rstrip("/")
    if path.endswith("/chat/completions"):
        return "openai"
    if path.endswith("/messages"):
        return "anthropic"
    return None


class LLMServer:
    """The server; use as a context manager or call :meth:`start` and :meth:`stop`."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._script: deque[Reply | Responder] = deque()
        self._default: Reply | Responder | None = None
        self._requests: list[RecordedRequest] = []
        self._ids = itertools.count(1)
        self.unscripted = 0
        self._in_flight = 0
        self.max_in_flight = 0
        """The most requests that were being answered at the same moment."""
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    def _answering(self, change: int) -> None:
        with self._lock:
            self._in_flight += change
            self.max_in_flight = max(self.max_in_flight, self._in_flight)

    # -- lifecycle -------------------------------------------------------------------

    def start(self) -> LLMServer:
        httpd = _HTTPServer(("127.0.0.1", 0), _Handler)
        httpd.owner = self
        self._httpd = httpd
        self._thread = threading.Thread(
            target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> LLMServer:
        return self.start()

    def __exit__(self, *_: object) -> None:
        self.stop()

    # -- addresses -------------------------------------------------------------------

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("the server is not running")
        return int(self._httpd.server_address[1])

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``: the base URL for the Anthropic SDK."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def openai_url(self) -> str:
        """``http://127.0.0.1:PORT/v1``: the base URL for the OpenAI SDK."""
        return self.url + "/v1"

    anthropic_url = url

    # -- scripting -------------------------------------------------------------------

    def enqueue(self, *replies: Reply | Responder) -> None:
        """Answer the next requests with these, in order (a function sees the request)."""
        with self._lock:
            self._script.extend(replies)

    def set_default(self, reply: Reply | Responder | None) -> None:
        """The answer once the queue is empty (None: HTTP 418, "no scripted reply")."""
        with self._lock:
            self._default = reply

    @property
    def pending(self) -> int:
        """Scripted replies not used yet."""
        with self._lock:
            return len(self._script)

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    def clear(self) -> None:
        with self._lock:
            self._requests.clear()
            self._script.clear()
            self.unscripted = 0

    # -- serving (called from handler threads) --------------------------------------

    def _next_reply(self, request: RecordedRequest) -> Reply | None:
        with self._lock:
            self._requests.append(request)
            source = self._script.popleft() if self._script else self._default
            if source is None:
                self.unscripted += 1
                return None
        return source if isinstance(source, Reply) else source(request)

    def _new_id(self) -> int:
        with self._lock:
            return next(self._ids)

    def respond(self, request: RecordedRequest) -> tuple[int, dict[str, str], bytes, float]:
        """Status, headers, body and delay for ``request``."""
        protocol = request.protocol
        if protocol is None:
            return (*_json(404, {"error": {"message": f"no route for {request.path}"}}), 0.0)
        if request.method != "POST":
            return (*_json(405, {"error": {"message": "use POST"}}), 0.0)
        if isinstance(request.body, dict) and request.body.get("stream"):
            message = "llm_server does not stream; send a non-streaming request"
            return (*_json(400, _error_body(protocol, 400, message)), 0.0)
        reply = self._next_reply(request)
        if reply is None:
            message = f"llm_server: no scripted reply left for {request.method} {request.path}"
            return (*_json(418, _error_body(protocol, 418, message)), 0.0)
        if reply.body is not None:
            status, headers, payload = _json(reply.status, reply.body)
        elif reply.status != 200:
            message = reply.error_message or f"scripted HTTP {reply.status}"
            status, headers, payload = _json(
                reply.status, _error_body(protocol, reply.status, message)
            )
        else:
            rendered = (
                _openai_body(reply, request, self._new_id())
                if protocol == "openai"
                else _anthropic_body(reply, request, self._new_id())
            )
            status, headers, payload = _json(200, rendered)
        headers.update(reply.headers)
        return status, headers, payload, reply.delay


def _json(status: int, body: Any) -> tuple[int, dict[str, str], bytes]:
    payload = json.dumps(body, ensure_ascii=False).encode()
    return status, {"Content-Type": "application/json"}, payload


def _error_body(protocol: Protocol, status: int, message: str) -> dict[str, Any]:
    kind = _ERROR_TYPES.get(status, "api_error" if status >= 500 else "invalid_request_error")
    if protocol == "anthropic":
        return {"type": "error", "error": {"type": kind, "message": message}}
    return {"error": {"message": message, "type": kind, "param": None, "code": None}}


def _stop(reply: Reply, protocol: Protocol) -> str:
    stop = reply.stop or ("tool" if reply.tool_calls else "end")
    return STOP_NAMES[protocol].get(stop, stop)


def _usage(reply: Reply, request: RecordedRequest) -> tuple[int, int]:
    if reply.usage is not None:
        return reply.usage
    produced = len(reply.text) + sum(len(json.dumps(dict(c.arguments))) for c in reply.tool_calls)
    return max(1, len(request.raw) // 4), max(1, produced // 4)


def _call_id(call: ToolCall, prefix: str, number: int, index: int) -> str:
    return call.id or f"{prefix}{number}_{index}"


def _openai_body(reply: Reply, request: RecordedRequest, number: int) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
    if reply.tool_calls:
        message["tool_calls"] = [
            {
                "id": _call_id(call, "call_", number, index),
                "type": "function",
                "function": {"name": call.name, "arguments": json.dumps(dict(call.arguments))},
            }
            for index, call in enumerate(reply.tool_calls)
        ]
    prompt_tokens, completion_tokens = _usage(reply, request)
    return {
        "id": f"chatcmpl-{number}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": str(request.body.get("model", "")) if isinstance(request.body, dict) else "",
        "choices": [
            {
                "index": 0,
                "message": message,
                "finish_reason": _stop(reply, "openai"),
                "logprobs": None,
            }
        ],
        "usage": {
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "total_tokens": prompt_tokens + completion_tokens,
        },
    }


def _anthropic_body(reply: Reply, request: RecordedRequest, number: int) -> dict[str, Any]:
    content: list[dict[str, Any]] = []
    if reply.text:
        content.append({"type": "text", "text": reply.text})
    for index, call in enumerate(reply.tool_calls):
        content.append(
            {
                "type": "tool_use",
                "id": _call_id(call, "toolu_", number, index),
                "name": call.name,
                "input": dict(call.arguments),
            }
        )
    input_tokens, output_tokens = _usage(reply, request)
    return {
        "id": f"msg_{number}",
        "type": "message",
        "role": "assistant",
        "model": str(request.body.get("model", "")) if isinstance(request.body, dict) else "",
        "content": content,
        "stop_reason": _stop(reply, "anthropic"),
        "stop_sequence": None,
        "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens},
    }


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False
    owner: LLMServer


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    timeout = 30  # an idle keep-alive connection is dropped after this many seconds
    server: _HTTPServer

    def log_message(self, format: str, *args: Any) -> None:
        """Silence the per-request log lines."""

    def _handle(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = None
        request = RecordedRequest(
            method=self.command,
            path=self.path,
            headers={name.lower(): value for name, value in self.headers.items()},
            raw=raw,
            body=body,
        )
        owner = self.server.owner
        owner._answering(+1)
        try:
            self._answer(owner, request)
        finally:
            owner._answering(-1)

    def _answer(self, owner: LLMServer, request: RecordedRequest) -> None:
        status, headers, payload, delay = owner.respond(request)
        if delay > 0:
            time.sleep(delay)
        try:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True  # the client gave up (timeout) before the reply

    do_POST = _handle
    do_GET = _handle


def iter_requests(server: LLMServer, protocol: Protocol) -> Iterator[RecordedRequest]:
    """The recorded requests of one protocol, in arrival order."""
    return (request for request in server.requests if request.protocol == protocol)
