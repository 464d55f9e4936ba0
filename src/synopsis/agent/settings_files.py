"""Compaction settings from JSON files: one global, one per project.

The files have Pi's shape, ``{"compaction": {"enabled", "reserveTokens",
"keepRecentTokens"}}``, plus synopsis' own ``triggerPercent``, ``keepRecentMessages``,
``tokenCounter`` (``"chars4"``, ``"cjk"``, ``"tiktoken"``, …) and the rest below. The
project file (``<cwd>/.synopsis/settings.json``) overrides the global one
(``~/.synopsis/settings.json``) key by key, so a project can change the reserve and
inherit everything else.

A settings file is something a user edits by hand, so every mistake is reported with the
file and the key: a typo (``keepRecentToken``) silently ignored would leave the agent
running with defaults the user thinks they changed.
"""

from __future__ import annotations

import os
from dataclasses import fields
from pathlib import Path
from typing import Any

import orjson

from synopsis.compaction.settings import CompactionSettings
from synopsis.errors import SettingsError
from synopsis.token_counters import as_counter, token_counter

__all__ = ["SETTINGS_DIR", "SETTINGS_FILE", "load_agent_settings", "settings_paths"]

SETTINGS_DIR = ".synopsis"
SETTINGS_FILE = "settings.json"

_KEYS: dict[str, str] = {
    "enabled": "enabled",
    "reserveTokens": "reserve_tokens",
    "keepRecentTokens": "keep_recent_tokens",
    "triggerPercent": "trigger_percent",
    "keepRecentMessages": "keep_recent_messages",
    "fullPassEvery": "full_pass_every",
    "fullPassSummaryShare": "full_pass_summary_share",
    "checkpointRole": "checkpoint_role",
    "tokenCounter": "token_counter",
}
"""Key in the file → field of :class:`CompactionSettings`."""

_OPTIONAL = frozenset(
    {"triggerPercent", "keepRecentMessages", "fullPassEvery", "fullPassSummaryShare"}
)
"""Keys that may be ``null`` (not set; a project file can unset a global value this way)."""

_SECTIONS = frozenset({"compaction"})


def settings_paths(
    cwd: str | os.PathLike[str], global_dir: str | os.PathLike[str] | None = None
) -> tuple[Path, Path]:
    """The global and the project settings file, in the order they apply."""
    base = Path(global_dir) if global_dir is not None else Path.home() / SETTINGS_DIR
    return base / SETTINGS_FILE, Path(cwd) / SETTINGS_DIR / SETTINGS_FILE


def _read(path: Path) -> dict[str, Any]:
    """The ``compaction`` section of one file, validated; {} when the file does not exist."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise SettingsError(f"{path}: cannot read the settings file ({error.strerror})") from error
    try:
        document = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        raise SettingsError(f"{path}: invalid JSON ({error})") from error
    if not isinstance(document, dict):
        raise SettingsError(f"{path}: a settings file must hold a JSON object")
    unknown = sorted(set(document) - _SECTIONS)
    if unknown:
        raise SettingsError(
            f"{path}: unknown key {unknown[0]!r}; the known section is 'compaction'"
        )
    section = document.get("compaction", {})
    if not isinstance(section, dict):
        raise SettingsError(f"{path}: 'compaction' must be an object")
    for key, value in section.items():
        _check(path, key, value)
    return section


def _check(path: Path, key: str, value: Any) -> None:
    where = f"{path}: compaction.{key}"
    if key not in _KEYS:
        known = ", ".join(_KEYS)
        raise SettingsError(f"{where}: unknown key; the known keys are {known}")
    if value is None:
        if key in _OPTIONAL:
            return
        raise SettingsError(f"{where}: must not be null")
    if key == "enabled":
        if not isinstance(value, bool):
            raise SettingsError(f"{where}: must be true or false, got {_show(value)}")
        return
    if key == "checkpointRole":
        if value not in ("user", "system"):
            raise SettingsError(f'{where}: must be "user" or "system", got {_show(value)}')
        return
    if key == "tokenCounter":
        if not isinstance(value, str):
            raise SettingsError(f"{where}: must be a counter's name, got {_show(value)}")
        try:
            token_counter(value)
        except SettingsError as error:
            raise SettingsError(f"{where}: {error}") from error
        return
    if isinstance(value, bool | str | list | dict):
        raise SettingsError(f"{where}: must be a number, got {_show(value)}")
    try:  # the ranges are CompactionSettings' own, checked one key at a time
        CompactionSettings(**{_KEYS[key]: value})
    except SettingsError as error:
        raise SettingsError(f"{where}: {error}") from error


def _show(value: Any) -> str:
    return orjson.dumps(value).decode()


def load_agent_settings(
    cwd: str | os.PathLike[str],
    *,
    global_dir: str | os.PathLike[str] | None = None,
    defaults: CompactionSettings | None = None,
) -> CompactionSettings:
    """Compaction settings for an agent working in ``cwd``.

    Starts from ``defaults`` (synopsis' own when None), applies the global file in
    ``global_dir`` (``~/.synopsis`` by default), then the project file in
    ``cwd/.synopsis``. Missing files are fine; a file with invalid JSON, an unknown key or
    a value of the wrong type or range raises :class:`SettingsError` naming both.
    """
    merged: dict[str, Any] = {}
    for path in settings_paths(cwd, global_dir):
        merged.update(_read(path))
    base = defaults or CompactionSettings()
    values: dict[str, Any] = {field.name: getattr(base, field.name) for field in fields(base)}
    values.update((_KEYS[key], value) for key, value in merged.items())
    values["token_counter"] = as_counter(values["token_counter"])
    return CompactionSettings(**values)
