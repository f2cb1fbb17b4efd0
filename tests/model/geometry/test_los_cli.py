"""``crdesk los`` (issue 4, item 7): verdicts for a pair or the whole matrix, text or JSON."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from crdesk.cli import los as los_cli

DEMO = Path(__file__).resolve().parents[3] / "resources" / "scenarios" / "demo-urban.crdesk"


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="crdesk")
    los_cli.register(parser.add_subparsers())
    args = parser.parse_args(argv)
    return int(args.handler(args))


@pytest.mark.skipif(not DEMO.exists(), reason="demo scenario not present")
def test_matrix_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["los", str(DEMO), "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    ids = {r["from"] for r in rows}
    assert len(rows) == len(ids) * (len(ids) - 1)
    assert {"visible", "reason", "cover", "concealed", "feature"} <= set(rows[0])


@pytest.mark.skipif(not DEMO.exists(), reason="demo scenario not present")
def test_pair_text_and_bad_id(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["los", str(DEMO), "--json"]) == 0
    first = json.loads(capsys.readouterr().out)[0]
    assert run(["los", str(DEMO), "--from", first["from"], "--to", first["to"]]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith(f"{first['from']} -> {first['to']}")
    assert run(["los", str(DEMO), "--from", "nobody"]) == 2


def test_missing_file(tmp_path: Path) -> None:
    assert run(["los", str(tmp_path / "nope.crdesk")]) == 2
