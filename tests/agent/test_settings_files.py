"""Settings files: global and project JSON, merged key by key, every mistake named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from synopsis.agent.settings_files import load_agent_settings, settings_paths
from synopsis.compaction.settings import CompactionSettings
from synopsis.errors import SettingsError
from synopsis.tokens import CJK_ESTIMATE, CjkAwareEstimate


def write(path: Path, document: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return path


@pytest.fixture
def dirs(tmp_path: Path) -> tuple[Path, Path]:
    """(global settings dir, project cwd)."""
    return tmp_path / "home" / ".synopsis", tmp_path / "project"


def load(dirs: tuple[Path, Path]) -> CompactionSettings:
    global_dir, cwd = dirs
    return load_agent_settings(cwd, global_dir=global_dir)


def global_file(dirs: tuple[Path, Path]) -> Path:
    return dirs[0] / "settings.json"


def project_file(dirs: tuple[Path, Path]) -> Path:
    return dirs[1] / ".synopsis" / "settings.json"


def test_no_files_gives_the_defaults(dirs: tuple[Path, Path]) -> None:
    assert load(dirs) == CompactionSettings()


def test_paths_are_global_then_project(tmp_path: Path) -> None:
    assert settings_paths(tmp_path / "p", tmp_path / "g") == (
        tmp_path / "g" / "settings.json",
        tmp_path / "p" / ".synopsis" / "settings.json",
    )


def test_global_dir_defaults_to_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    write(tmp_path / ".synopsis" / "settings.json", {"compaction": {"reserveTokens": 1234}})
    assert load_agent_settings(tmp_path / "elsewhere").reserve_tokens == 1234


def test_pi_shape_is_read(dirs: tuple[Path, Path]) -> None:
    write(
        global_file(dirs),
        {"compaction": {"enabled": False, "reserveTokens": 8000, "keepRecentTokens": 12000}},
    )
    assert load(dirs) == CompactionSettings(
        enabled=False, reserve_tokens=8000, keep_recent_tokens=12000
    )


def test_project_overrides_global_key_by_key(dirs: tuple[Path, Path]) -> None:
    write(
        global_file(dirs),
        {"compaction": {"reserveTokens": 8000, "keepRecentTokens": 12000, "triggerPercent": 70}},
    )
    write(project_file(dirs), {"compaction": {"keepRecentTokens": 3000, "keepRecentMessages": 6}})
    assert load(dirs) == CompactionSettings(
        reserve_tokens=8000,
        keep_recent_tokens=3000,
        trigger_percent=70,
        keep_recent_messages=6,
    )


def test_the_token_counter_is_named_in_the_file(dirs: tuple[Path, Path]) -> None:
    write(global_file(dirs), {"compaction": {"tokenCounter": "cjk"}})
    assert load(dirs).token_counter == CJK_ESTIMATE
    write(project_file(dirs), {"compaction": {"tokenCounter": "cjk:1.25"}})
    assert load(dirs).token_counter == CjkAwareEstimate(1.25)


def test_project_null_unsets_an_optional_global_value(dirs: tuple[Path, Path]) -> None:
    write(global_file(dirs), {"compaction": {"triggerPercent": 50}})
    write(project_file(dirs), {"compaction": {"triggerPercent": None}})
    assert load(dirs).trigger_percent is None


def test_a_file_without_compaction_section_changes_nothing(dirs: tuple[Path, Path]) -> None:
    write(global_file(dirs), {})
    assert load(dirs) == CompactionSettings()


def test_explicit_defaults_are_the_starting_point(dirs: tuple[Path, Path]) -> None:
    write(project_file(dirs), {"compaction": {"reserveTokens": 100}})
    base = CompactionSettings(keep_recent_tokens=50, reserve_tokens=7)
    loaded = load_agent_settings(dirs[1], global_dir=dirs[0], defaults=base)
    assert loaded == CompactionSettings(keep_recent_tokens=50, reserve_tokens=100)


@pytest.mark.parametrize(
    ("document", "words"),
    [
        ("{not json", ["invalid JSON"]),
        ("", ["invalid JSON"]),
        ("[1, 2]", ["JSON object"]),
        ({"compation": {}}, ["'compation'"]),
        ({"compaction": []}, ["'compaction' must be an object"]),
        ({"compaction": {"keepRecentToken": 5}}, ["compaction.keepRecentToken", "unknown key"]),
        ({"compaction": {"reserveTokens": "big"}}, ["compaction.reserveTokens", '"big"']),
        ({"compaction": {"reserveTokens": True}}, ["compaction.reserveTokens", "true"]),
        ({"compaction": {"reserveTokens": 1.5}}, ["compaction.reserveTokens", "whole number"]),
        ({"compaction": {"reserveTokens": -1}}, ["compaction.reserveTokens", "at least 0"]),
        ({"compaction": {"reserveTokens": None}}, ["compaction.reserveTokens", "null"]),
        ({"compaction": {"keepRecentTokens": [1]}}, ["compaction.keepRecentTokens"]),
        ({"compaction": {"enabled": "yes"}}, ["compaction.enabled", "true or false"]),
        ({"compaction": {"enabled": 1}}, ["compaction.enabled", "true or false"]),
        ({"compaction": {"triggerPercent": 200}}, ["compaction.triggerPercent", "(0, 100]"]),
        ({"compaction": {"triggerPercent": 0}}, ["compaction.triggerPercent"]),
        ({"compaction": {"keepRecentMessages": 0}}, ["compaction.keepRecentMessages"]),
        ({"compaction": {"tokenCounter": "words"}}, ["compaction.tokenCounter", "'words'"]),
        ({"compaction": {"tokenCounter": 4}}, ["compaction.tokenCounter", "counter's name"]),
        ({"compaction": {"tokenCounter": None}}, ["compaction.tokenCounter", "null"]),
    ],
)
@pytest.mark.parametrize("which", ["global", "project"])
def test_mistakes_name_the_file_and_the_key(
    dirs: tuple[Path, Path], document: Any, words: list[str], which: str
) -> None:
    path = write(global_file(dirs) if which == "global" else project_file(dirs), document)
    with pytest.raises(SettingsError) as raised:
        load(dirs)
    message = str(raised.value)
    assert str(path) in message
    for word in words:
        assert word in message


def test_an_unreadable_file_is_a_settings_error(dirs: tuple[Path, Path]) -> None:
    project_file(dirs).mkdir(parents=True)  # a directory where the file should be
    with pytest.raises(SettingsError, match="cannot read"):
        load(dirs)


_VALUES: dict[str, st.SearchStrategy[Any]] = {
    "enabled": st.booleans(),
    "reserveTokens": st.integers(0, 10**6),
    "keepRecentTokens": st.integers(0, 10**6),
    "triggerPercent": st.none() | st.floats(1.0, 100.0),
    "keepRecentMessages": st.none() | st.integers(1, 500),
}
_FIELDS = {
    "enabled": "enabled",
    "reserveTokens": "reserve_tokens",
    "keepRecentTokens": "keep_recent_tokens",
    "triggerPercent": "trigger_percent",
    "keepRecentMessages": "keep_recent_messages",
}
_SECTION = st.fixed_dictionaries({}, optional=_VALUES)


@given(global_section=_SECTION, project_section=_SECTION)
@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_every_key_comes_from_the_last_file_that_sets_it(
    tmp_path: Path, global_section: dict[str, Any], project_section: dict[str, Any]
) -> None:
    case = tmp_path / f"case{len(list(tmp_path.iterdir()))}"
    dirs = (case / "g", case / "p")
    write(global_file(dirs), {"compaction": global_section})
    write(project_file(dirs), {"compaction": project_section})
    loaded = load(dirs)
    for key, field in _FIELDS.items():
        if key in project_section:
            expected = project_section[key]
        elif key in global_section:
            expected = global_section[key]
        else:
            expected = getattr(CompactionSettings(), field)
        assert getattr(loaded, field) == expected, key
