"""The typed decoder :mod:`synopsis.session.skim` reads lines with (imported only to skim).

A line decodes to its type, id, parent and, for a message entry, the message's role and
raw content; everything else in it is passed over unread. A line that does not decode to
these types raises one of :data:`REJECTED` and is read by the loader's own code.
"""

from __future__ import annotations

import msgspec


class Head(msgspec.Struct):
    role: str
    content: msgspec.Raw = msgspec.Raw(b"null")
    nestedCalls: msgspec.Raw = msgspec.Raw(b"null")  # noqa: N815 (the file's spelling)


class Line(msgspec.Struct):
    type: str
    id: str
    parentId: str | None = None
    message: Head | None = None


decode_line = msgspec.json.Decoder(Line).decode
NULL = msgspec.Raw(b"null")
"""The raw content of a message whose content is ``null`` or missing."""
REJECTED = (msgspec.DecodeError, RecursionError)


class Block(msgspec.Struct):
    """What a transcript and the file lists read of a content block (``None``: absent)."""

    type: object = None
    text: object = None
    name: object = None
    arguments: object = None


class Body(msgspec.Struct):
    """What a transcript and the file lists read of a message (its role is in the head)."""

    content: str | list[Block] | None = None
    nestedCalls: object = None


class BodyLine(msgspec.Struct):
    message: Body


decode_body_line = msgspec.json.Decoder(BodyLine).decode


class Arguments(msgspec.Struct):
    path: object = None


class CallBlock(msgspec.Struct):
    """What the file lists read of a content block."""

    type: object = None
    name: object = None
    arguments: Arguments | None = None


class CallsBody(msgspec.Struct):
    content: str | list[CallBlock] | None = None
    nestedCalls: object = None


class CallsLine(msgspec.Struct):
    message: CallsBody


decode_calls_line = msgspec.json.Decoder(CallsLine).decode
