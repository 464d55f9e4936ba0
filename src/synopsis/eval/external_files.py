"""Reading LoCoMo's archive and writing its conversations as corpus cases (the files side of
:mod:`synopsis.eval.external`, which holds the mapping and touches no files).

``python -m synopsis.eval.external_files convert SOURCE OUT SAMPLE…`` writes
``OUT/locomo-<sample>.json`` for each sample id of ``data/locomo10.zip`` (or of the folder it
unpacks to); ``… tally REPORT.json DIR`` splits the kept items of an ``eval --corpus DIR
--json`` report by their labels (:mod:`synopsis.eval.external_tally`).
"""

from __future__ import annotations

import argparse
import json
import sys
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from synopsis.errors import SettingsError
from synopsis.eval.corpus import load_corpus
from synopsis.eval.external import ConversionError, case_json, locomo_case
from synopsis.eval.external_tally import tally_lines


def read_locomo(source: Path) -> dict[str, dict[str, Any]]:
    """The conversations of ``data/locomo10.zip`` (or of a folder it was unpacked to), by
    sample id (``"26"`` for ``26.json``)."""
    samples: dict[str, dict[str, Any]] = {}
    try:
        if source.is_dir():
            for path in sorted(source.rglob("*.json")):
                samples[path.stem] = json.loads(path.read_text(encoding="utf-8"))
        else:
            with zipfile.ZipFile(source) as archive:
                for name in sorted(archive.namelist()):
                    if name.endswith(".json"):
                        samples[Path(name).stem] = json.loads(archive.read(name))
    except (OSError, zipfile.BadZipFile, UnicodeDecodeError, ValueError) as error:
        raise ConversionError(f"{source}: not a readable LoCoMo archive ({error})") from None
    if not samples or not all(isinstance(s, dict) for s in samples.values()):
        raise ConversionError(f"{source}: no LoCoMo conversation in it")
    return samples


def convert(source: Path, sample_ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """The cases for ``sample_ids`` of the LoCoMo archive at ``source``, by file name."""
    samples = read_locomo(source)
    missing = [s for s in sample_ids if s not in samples]
    if missing:
        raise ConversionError(f"{source}: no sample {', '.join(missing)}")
    return {f"locomo-{s}.json": locomo_case(samples[s], s) for s in sample_ids}


def _convert_command(args: argparse.Namespace) -> None:
    cases = convert(args.source, args.samples)
    args.out.mkdir(parents=True, exist_ok=True)
    for name, case in cases.items():
        (args.out / name).write_text(case_json(case), encoding="utf-8")


def _tally_command(args: argparse.Namespace) -> None:
    try:
        report = json.loads(args.report.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise ConversionError(f"{args.report}: not an eval --json report ({error})") from None
    if not isinstance(report, dict) or not isinstance(report.get("cases"), list):
        raise ConversionError(f"{args.report}: not an eval --corpus --json report")
    for line in tally_lines(load_corpus(args.corpus), report):
        print(line)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m synopsis.eval.external_files",
        description="LoCoMo conversations as synopsis eval --corpus cases, and their figures.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("convert", help="write locomo-<sample>.json cases")
    make.add_argument("source", type=Path, help="data/locomo10.zip, or the folder it unpacks to")
    make.add_argument("out", type=Path, help="folder to write locomo-<sample>.json into")
    make.add_argument("samples", nargs="+", help="sample ids, e.g. 26 30")
    make.set_defaults(run=_convert_command)
    tally = commands.add_parser(
        "tally", help="split an eval --corpus --json report's kept items by label"
    )
    tally.add_argument("report", type=Path, help="the output of synopsis eval --corpus DIR --json")
    tally.add_argument("corpus", type=Path, help="the corpus folder DIR it scored")
    tally.set_defaults(run=_tally_command)
    args = parser.parse_args(argv)
    try:
        args.run(args)
    except (ConversionError, SettingsError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
