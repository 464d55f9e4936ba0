"""A name the user replaces with words that say so (issue 11, item 5): "rename X to Y",
"instead of X, call it Y", "把 X 重命名为 Y", "thay vì X thì đổi tên thành Y", "renombra X a
Y", "renomme X en Y", "benenne X in Y um". The old name leaves the checkpoint and stays in
the state, marked with what replaced it. The cases are written here in new words; the
negative ones use the same cue words for something that replaces no name."""

from __future__ import annotations

import json

import pytest

from synopsis.state import extract_working_state, render_state
from tests.state.builders import say, user


@pytest.mark.parametrize(
    ("first", "later", "old", "new"),
    [
        ("Write the results to report_tmp.", "Please rename report_tmp to report_final.",
         "report_tmp", "report_final"),
        ("Tag the image as web_canary.", "Instead of web_canary, call it web_stable.",
         "web_canary", "web_stable"),
        ("结果放在 out_tmp 目录。", "把 out_tmp 重命名为 out_release。", "out_tmp", "out_release"),
        ("缓存键前缀用 cache_v1。", "前缀 cache_v1 改名为 cache_next。", "cache_v1", "cache_next"),
        ("Lưu file vào thư mục bao_cao_cu.", "Đổi tên thư mục bao_cao_cu thành bao_cao_moi.",
         "bao_cao_cu", "bao_cao_moi"),
        ("Biến môi trường tên là APP_MODE_OLD.",
         "thay vì tên là APP_MODE_OLD thì đổi thành APP_MODE_MAIN", "APP_MODE_OLD",
         "APP_MODE_MAIN"),
        ("Guarda todo en la carpeta salida_vieja.",
         "Renombra la carpeta salida_vieja a salida_nueva.", "salida_vieja", "salida_nueva"),
        ("Le service s'appelle api_legacy.", "Renomme le service api_legacy en api_core.",
         "api_legacy", "api_core"),
        ("Der Branch heißt feature_alt.", "Benenne den Branch feature_alt in feature_neu um.",
         "feature_alt", "feature_neu"),
        ("Installiere die Pakete mit pipenv.", "Anstatt pipenv nimm poetry.", "pipenv", "poetry"),
    ],
)  # fmt: skip
def test_a_name_replaced_in_words_that_say_so_leaves_the_checkpoint(
    first: str, later: str, old: str, new: str
) -> None:
    state = extract_working_state([user(first), say("Noted."), user(later), say("Done.")])
    text = render_state(state)
    assert new in text
    assert old not in text, text
    assert state.superseded_values().get(old) == new
    assert old in json.dumps(state.to_json(), ensure_ascii=False)  # kept for audit


@pytest.mark.parametrize(
    ("first", "later", "kept"),
    [
        # the cue words, replacing no name
        ("Keep the logs in report_tmp.", "Instead of waiting, start the export now.",
         "report_tmp"),
        ("Thư mục xuất là bao_cao_cu.", "Thay vì chờ, mình làm luôn.", "bao_cao_cu"),
        ("Die Ausgabe liegt in feature_alt.", "Benenne es später um.", "feature_alt"),
        # "rename it" names no old value of its own
        ("Put the build in out_dir, and the docs in docs_dir.", "Rename it to site_dir.",
         "docs_dir"),
    ],
)  # fmt: skip
def test_the_cue_words_alone_replace_nothing(first: str, later: str, kept: str) -> None:
    state = extract_working_state([user(first), say("Noted."), user(later), say("Done.")])
    assert kept not in state.superseded_values()
    assert kept in render_state(state)
