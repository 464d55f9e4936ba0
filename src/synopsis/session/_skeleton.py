"""The typed decoders of :mod:`synopsis.session.skim` (msgspec: imported only to skim).

A line decodes to its type, id, parent and, for a message entry, the message's role and
raw content (:data:`decode_line`); a message's line later to what a transcript reads of
its body (:data:`decode_body_line`) or what the file lists read (:data:`decode_calls_line`).
Everything else in a line is passed over unread. A line that does not decode to these
types raises one of :data:`REJECTED` and is read in full, by the loader's own code.
"""

from __future__ import annotations

import msgspec


class Head(msgspec.Struct):
    role: str
    content: msgspec.Raw = msgspec.Raw(b"null")
    nestedCalls: msgspec.Raw = msgspec.Raw(b"null")


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
    """What a transcript reads of a content block (``None``: absent)."""

    type: object = None
    text: object = None
    name: object = None
    arguments: object = None


class Body(msgspec.Struct):
    """What a transcript reads of a message (its role is in the head)."""

    content: str | list[Block] | None = None


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


class CallsLine(msgspec.Struct):
    message: CallsBody


decode_calls_line = msgspec.json.Decoder(CallsLine).decode
