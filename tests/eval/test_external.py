"""The LoCoMo converter (synopsis.eval.external) and the subset it produced (tests/data/external).

The converter is checked on small conversations written here in LoCoMo's shape: which
questions become truth items, with which token, turn and source, and which are left out
and why. The committed subset is checked like the real-transcript sets (labels point at
text in their turn, ``synopsis eval --corpus`` runs over it), and, where LoCoMo's archive
is on this machine, re-converting it must reproduce the committed files byte for byte.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from synopsis.eval.corpus import Case, context_tokens, load_corpus, turn_message
from synopsis.eval.external import (
    ConversionError,
    answer_parts,
    case_json,
    evidence_ids,
    find_verbatim,
    locomo_case,
    locomo_turns,
)
from synopsis.eval.external_files import convert
from synopsis.eval.external_tally import kept_by_group, tail_kept
from tests.eval import _real_sets as checks

EXTERNAL = Path(__file__).resolve().parents[1] / "data" / "external"
CASES = load_corpus(EXTERNAL)
REPO = Path(__file__).resolve().parents[2]


def _turn(speaker: str, dia_id: str, text: str, **extra: Any) -> dict[str, Any]:
    return {"speaker": speaker, "dia_id": dia_id, "text": text, **extra}


def _sample(qa: list[dict[str, Any]]) -> dict[str, Any]:
    """Two friends, two sessions; written for these tests in LoCoMo's field layout."""
    return {
        "speaker_a": "Priya",
        "speaker_b": "Tomas",
        "session_1_date_time": "9:12 am on 3 March, 2024",
        "session_1": [
            _turn("Priya", "D1:1", "Morning! I started a chessboard project for my nephew."),
            _turn("Tomas", "D1:2", "Nice. I finally booked the ferry to Gothenburg for April."),
            _turn(
                "Priya",
                "D1:3",
                "Look what I found at the market.",
                blip_caption="a photo of a brass telescope on a table",
            ),
        ],
        "session_2_date_time": "6:40 pm on 19 March, 2024",
        "session_2": [
            _turn("Tomas", "D2:1", "I signed up for the Lisbon half marathon, and I'm scared."),
            _turn("Priya", "D2:2", "You'll do great. My sister moved to Tallinn last week."),
            _turn("Tomas", "D2:3", "Tallinn is lovely. Still training with the Lisbon group?"),
        ],
        "session_3_date_time": "no turns were recorded for this date",
        "qa": qa,
    }


def _qa(question: str, answer: object, evidence: list[str], category: int = 4) -> dict[str, Any]:
    return {"question": question, "answer": answer, "evidence": evidence, "category": category}


# --- turns ----------------------------------------------------------------------------------


def test_turns_keep_order_speakers_roles_session_headers_and_captions() -> None:
    located = locomo_turns(_sample([]))
    texts = [t["text"] for t in located.turns]
    assert [t["role"] for t in located.turns] == [
        "user", "assistant", "user", "assistant", "user", "assistant",
    ]  # fmt: skip
    assert texts[0] == (
        "[session 1, 9:12 am on 3 March, 2024]\n"
        "Priya: Morning! I started a chessboard project for my nephew."
    )
    assert texts[1].startswith("Tomas: Nice.")
    assert texts[2].endswith("[shares a photo of a brass telescope on a table]")
    assert texts[3].startswith("[session 2, 6:40 pm on 19 March, 2024]\nTomas: ")
    assert located.by_dialogue_id == {
        "D1:1": 0, "D1:2": 1, "D1:3": 2, "D2:1": 3, "D2:2": 4, "D2:3": 5,
    }  # fmt: skip


def test_a_third_speaker_or_no_turns_is_refused() -> None:
    sample = _sample([])
    sample["session_2"].append(_turn("Ana", "D2:4", "Hi both"))
    with pytest.raises(ConversionError, match="unknown speaker"):
        locomo_turns(sample)
    with pytest.raises(ConversionError, match="two speakers"):
        locomo_turns({"speaker_a": "Priya", "session_1": []})
    with pytest.raises(ConversionError, match="no session"):
        locomo_turns({"speaker_a": "Priya", "speaker_b": "Tomas", "session_1": []})


# --- truth items ----------------------------------------------------------------------------


def _items(*qa: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    case = locomo_case(_sample(list(qa)), "t1")
    return case["truth"], case["conversion"]


def test_an_answer_stated_in_its_evidence_becomes_a_fact_in_the_turns_spelling() -> None:
    truth, conversion = _items(_qa("Where is Tomas going in April?", "gothenburg", ["D1:2"]))
    assert conversion == {"questions": 1, "questions_mapped": 1, "skipped": {}}
    (item,) = truth
    assert item["kind"] == "fact"
    assert (item["turn"], item["source"], item["tokens"]) == (1, "assistant", ["Gothenburg"])
    assert item["tags"] == ["locomo", "single_hop"]
    assert item["question"] == "Where is Tomas going in April?"


def test_the_caption_of_a_shared_image_counts_as_said() -> None:
    truth, _ = _items(_qa("What did Priya find?", "brass telescope", ["D1:3"]))
    assert [(i["turn"], i["source"], i["tokens"]) for i in truth] == [
        (2, "user", ["brass telescope"])
    ]


def test_the_earliest_evidence_turn_that_states_it_is_the_items_turn() -> None:
    truth, _ = _items(_qa("Which race?", "Lisbon", ["D2:3", "D2:1"], category=1))
    assert [(i["turn"], i["tags"]) for i in truth] == [(3, ["locomo", "multi_hop", "repeated"])]


def test_a_list_answer_counts_when_every_part_is_stated_one_item_per_turn() -> None:
    truth, _ = _items(
        _qa("Which cities came up?", "Gothenburg, Lisbon and Tallinn", ["D1:2", "D2:1", "D2:2"])
    )
    assert [(i["id"], i["turn"], i["tokens"]) for i in truth] == [
        ("q0a", 1, ["Gothenburg"]),
        ("q0b", 3, ["Lisbon"]),
        ("q0c", 4, ["Tallinn"]),
    ]
    assert all("answer_part" in i["tags"] for i in truth)
    both, _ = _items(_qa("Which cities?", "Lisbon; Tallinn", ["D2:3"]))
    assert [(i["id"], i["turn"], i["tokens"]) for i in both] == [("q0", 5, ["Lisbon", "Tallinn"])]


def test_questions_the_evidence_does_not_state_verbatim_are_left_out_with_a_reason() -> None:
    truth, conversion = _items(
        _qa("When did Tomas book?", "The week before 10 March 2024", ["D1:2"], category=2),
        _qa("Which cities?", "Gothenburg, Riga", ["D1:2"]),  # one part is not said
        _qa("Who moved?", "Priya's sister", ["D2:2"]),  # the name is only the speaker label
        _qa("What is the date?", "3 March, 2024", ["D1:1"]),  # only in the session header
        _qa("What did Priya start?", "chess", ["D1:1"]),  # inside "chessboard"
        _qa("What did Tomas say?", "Nice", ["D1:2"]),  # said, but too short to score
        _qa("When did she move?", "week", ["D2:2"]),
        _qa("Where is Tomas going?", "Gothenburg", ["D9:9"]),
        {
            "question": "What did Priya win?",
            "evidence": ["D1:1"],
            "category": 5,
            "adversarial_answer": "a chess cup",
        },
    )
    assert truth == []
    assert conversion == {
        "questions": 9,
        "questions_mapped": 0,
        "skipped": {
            "answer not verbatim in its evidence": 5,
            "answer shorter than 5 characters": 2,
            "no answer in the conversation (adversarial)": 1,
            "no evidence turn": 1,
        },
    }


def test_a_category_locomo_does_not_define_is_kept_as_unknown() -> None:
    for category in ("4", 9, None):
        truth, _ = _items({**_qa("Where?", "Gothenburg", ["D1:2"]), "category": category})
        assert [i["tags"] for i in truth] == [["locomo", "unknown"]]


def test_evidence_ids_are_read_as_locomo_writes_them() -> None:
    assert evidence_ids(["D8:6; D9:17", "D30:05", "D:11:26", "D8:6"]) == ["D8:6", "D9:17", "D30:5"]
    truth, _ = _items(_qa("Where?", "Gothenburg", ["D1:02"]))
    assert [i["turn"] for i in truth] == [1]


def test_answer_parts_and_whole_words() -> None:
    assert answer_parts("pottery, camping, painting, and swimming.") == [
        "pottery", "camping", "painting", "swimming",
    ]  # fmt: skip
    assert answer_parts("Psychology") == ["Psychology"]
    assert find_verbatim("lisbon GROUP", "with the Lisbon group?") == "Lisbon group"
    assert find_verbatim("board", "a chessboard") is None
    assert find_verbatim("", "anything") is None


def test_a_case_is_a_corpus_case_with_its_source() -> None:
    case = locomo_case(_sample([_qa("Where?", "Gothenburg", ["D1:2"])]), "t1")
    assert case["id"] == "locomo-t1"
    assert case["source"]["repo"] == "snap-research/locomo"
    assert case["source"]["speakers"] == {"user": "Priya", "assistant": "Tomas"}
    assert case["untrusted"] == [] and case["noise"] == []
    assert json.loads(case_json(case)) == case


words = st.sampled_from(["amber", "ferry", "violin", "harbor", "quartz", "meadow", "Oslo"])
sentences = st.lists(words, min_size=1, max_size=6).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(sentences, min_size=1, max_size=8),
    picks=st.lists(
        st.tuples(st.integers(0, 7), st.lists(words, min_size=1, max_size=3), st.integers(1, 5)),
        max_size=6,
    ),
)
def test_every_item_points_at_its_own_words_in_an_evidence_turn(
    texts: list[str], picks: list[tuple[int, list[str], int]]
) -> None:
    speakers = ["Priya", "Tomas"]
    sample: dict[str, Any] = {"speaker_a": "Priya", "speaker_b": "Tomas"}
    sample["session_1"] = [
        _turn(speakers[i % 2], f"D1:{i + 1}", text) for i, text in enumerate(texts)
    ]
    qa = [
        _qa("?", ", ".join(answer), [f"D1:{at % len(texts) + 1}"], category)
        for at, answer, category in picks
    ]
    sample["qa"] = qa
    case = locomo_case(sample, "p")
    for item in case["truth"]:
        question = qa[int(item["id"][1:].rstrip("abcd"))]
        assert item["turn"] == int(question["evidence"][0].split(":")[1]) - 1
        turn = case["turns"][item["turn"]]
        assert item["source"] == turn["role"]
        spoken = turn["text"].split(": ", 1)[1]
        assert all(token in spoken for token in item["tokens"])
    mapped = case["conversion"]["questions_mapped"]
    assert mapped + sum(case["conversion"]["skipped"].values()) == len(qa)


# --- the file side --------------------------------------------------------------------------


def _archive(tmp_path: Path, samples: dict[str, dict[str, Any]]) -> Path:
    path = tmp_path / "locomo10.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for name, sample in samples.items():
            archive.writestr(f"data/multimodal_dialog/locomo10_v2/{name}.json", json.dumps(sample))
    return path


def _run_converter(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "synopsis.eval.external_files", *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_the_converter_command_writes_cases_from_an_archive(tmp_path: Path) -> None:
    source = _archive(tmp_path, {"7": _sample([_qa("Where?", "Gothenburg", ["D1:2"])])})
    done = _run_converter("convert", str(source), str(tmp_path / "out"), "7")
    assert done.returncode == 0, done.stderr
    written = json.loads((tmp_path / "out" / "locomo-7.json").read_text(encoding="utf-8"))
    assert [i["tokens"] for i in written["truth"]] == [["Gothenburg"]]
    assert load_corpus(tmp_path / "out")[0].id == "locomo-7"


@pytest.mark.parametrize(
    ("make_source", "sample", "message"),
    [
        (lambda p: p / "absent.zip", "7", "not a readable LoCoMo archive"),
        (lambda p: _archive(p, {"7": _sample([])}), "8", "no sample 8"),
    ],
)
def test_bad_input_is_one_error_line_and_exit_2(
    tmp_path: Path, make_source: Callable[[Path], Path], sample: str, message: str
) -> None:
    done = _run_converter("convert", str(make_source(tmp_path)), str(tmp_path / "out"), sample)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ")
    assert message in done.stderr
    assert not (tmp_path / "out").exists()


def test_an_output_that_cannot_be_written_is_one_error_line(tmp_path: Path) -> None:
    blocked = tmp_path / "out"
    blocked.write_text("a file where the folder should go", encoding="utf-8")
    done = _run_converter("convert", str(_archive(tmp_path, {"7": _sample([])})), str(blocked), "7")
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ")
    assert blocked.read_text(encoding="utf-8") == "a file where the folder should go"


@pytest.mark.parametrize("report", ["not json at all", "[1, 2]", '{"cases": 3}'])
def test_a_report_that_is_no_eval_report_is_one_error_line(tmp_path: Path, report: str) -> None:
    path = tmp_path / "report.json"
    path.write_text(report, encoding="utf-8")
    done = _run_converter("tally", str(path), str(tmp_path))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("error: ")


# --- the figures ----------------------------------------------------------------------------


def _labelled_case() -> Case:
    sample = _sample(
        [
            _qa("Where to in April?", "Gothenburg", ["D1:2"]),
            _qa("Which race?", "Lisbon", ["D2:1"], category=1),
            _qa("Where did the sister move?", "Tallinn", ["D2:2"]),
        ]
    )
    converted = locomo_case(sample, "t1")
    return Case(
        id=converted["id"],
        language="en",
        setting="personal_chat",
        turns=tuple(converted["turns"]),
        truth=tuple(converted["truth"]),
        untrusted=(),
        noise=(),
    )


def test_the_final_rounds_kept_items_are_split_by_their_labels() -> None:
    case = _labelled_case()
    # q1 (Lisbon) is said again in turn 5, q2 (Tallinn) too; round 2 is the final one
    report = {
        "cases": [
            {"case": "locomo-t1", "condition": "free", "round": 1, "missing": ["q0", "q1", "q2"]},
            {"case": "locomo-t1", "condition": "free", "round": 2, "missing": ["q2"]},
            {"case": "other", "condition": "free", "round": 2, "missing": []},
        ]
    }
    assert kept_by_group([case], report) == {
        "free": {
            "all": (2, 3),
            "said once": (1, 1),
            "repeated": (1, 2),
            "source assistant": (2, 2),
            "source user": (0, 1),
            "single_hop": (1, 2),
            "multi_hop": (1, 1),
        }
    }


def test_the_tail_alone_keeps_what_its_turns_say() -> None:
    case = _labelled_case()
    # the last turn says Tallinn and Lisbon; the whole case is six short turns
    messages = [turn_message(t) for t in case.turns]
    last, total = context_tokens(messages[-1:]), context_tokens(messages)
    assert context_tokens(messages[-2:]) > last
    assert tail_kept(case, last / total) == (2, 3)
    assert tail_kept(case, 1.0) == (3, 3)


# --- the committed subset -------------------------------------------------------------------


@pytest.mark.parametrize("check", checks.PER_CASE, ids=checks.check_name)
@pytest.mark.parametrize("case", CASES, ids=checks.case_ids(CASES))
def test_each_committed_case_is_well_formed(case: Case, check: Callable[[Case], None]) -> None:
    check(case)


def test_the_readme_lists_every_case_with_its_source() -> None:
    checks.check_readme_lists_sources(EXTERNAL)


def test_the_subset_stays_small() -> None:
    assert sum(p.stat().st_size for p in EXTERNAL.iterdir()) < 2_000_000


def _locomo_source() -> Path | None:
    """LoCoMo's ``data/locomo10.zip`` where this machine has it: $SYNOPSIS_LOCOMO, else
    shared/external/locomo10.zip beside the repository."""
    candidates = [
        os.environ.get("SYNOPSIS_LOCOMO", ""),
        str(REPO.parent / "shared" / "external" / "locomo10.zip"),
    ]
    return next((Path(c) for c in candidates if c and Path(c).exists()), None)


def test_reconverting_the_source_reproduces_the_committed_subset() -> None:
    source = _locomo_source()
    if source is None:
        pytest.skip("LoCoMo's data/locomo10.zip is not on this machine (set SYNOPSIS_LOCOMO)")
    committed = {p.name: p.read_text(encoding="utf-8") for p in sorted(EXTERNAL.glob("*.json"))}
    samples = [json.loads(text)["source"]["sample"] for text in committed.values()]
    produced = {name: case_json(case) for name, case in convert(source, samples).items()}
    assert produced == committed


def test_synopsis_eval_runs_over_the_subset() -> None:
    checks.check_eval_runs(EXTERNAL, CASES)
