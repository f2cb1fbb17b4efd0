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


def _demo_with(tmp_path: Path, figures: list[list[dict[str, object]]]) -> Path:
    """The demo table with other figures (one list per force)."""
    data = json.loads(DEMO.read_text(encoding="utf-8"))
    for force, figs in zip(data["forces"], figures, strict=True):
        force["figures"] = figs
    out = tmp_path / "table.crdesk"
    out.write_text(json.dumps(data), encoding="utf-8")
    return out


@pytest.mark.skipif(not DEMO.exists(), reason="demo scenario not present")
def test_an_unknown_figure_lists_the_figures_there_are(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert run(["los", str(DEMO), "--from", "p1", "--to", "nobody"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: --to: no figure with id or name 'nobody'; the figures are: ")
    assert "p1 (Sgt. Mace), p2 (Cpl. Diaz)" in err and err.rstrip().endswith("e4 (Shiv)")


@pytest.mark.skipif(not DEMO.exists(), reason="demo scenario not present")
def test_a_figure_may_be_named_instead_of_its_id(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["los", str(DEMO), "--from", "p1", "--to", "e1"]) == 0
    by_id = capsys.readouterr().out
    assert run(["los", str(DEMO), "--from", "sgt. mace", "--to", "Viper boss"]) == 0
    assert capsys.readouterr().out == by_id
    assert by_id.startswith("p1 -> e1 (")
    assert run(["los", str(DEMO), "--from", "Sgt. Mace", "--to", "p1"]) == 2
    assert "--from and --to name the same figure (p1)" in capsys.readouterr().err


@pytest.mark.skipif(not DEMO.exists(), reason="demo scenario not present")
def test_a_name_two_figures_share_asks_for_the_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(DEMO.read_text(encoding="utf-8"))
    mine, theirs = data["forces"][0]["figures"][:2], data["forces"][1]["figures"][:1]
    mine[1]["name"] = mine[0]["name"]
    path = _demo_with(tmp_path, [mine, theirs])
    assert run(["los", str(path), "--from", "Sgt. Mace"]) == 2
    assert "--from: 2 figures are named 'Sgt. Mace' (p1, p2): give the id" in (
        capsys.readouterr().err
    )


@pytest.mark.skipif(not DEMO.exists(), reason="demo scenario not present")
def test_a_table_without_figures_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = _demo_with(tmp_path, [[], []])
    assert run(["los", str(empty)]) == 0
    assert capsys.readouterr().out == "no figures on this table: no line of sight to judge\n"
    assert run(["los", str(empty), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == []
    assert run(["los", str(empty), "--from", "p1"]) == 2
    assert capsys.readouterr().err == "error: --from: no figure 'p1': the table has no figures\n"


@pytest.mark.skipif(not DEMO.exists(), reason="demo scenario not present")
def test_one_figure_alone_has_nothing_to_look_at(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(DEMO.read_text(encoding="utf-8"))
    alone = _demo_with(tmp_path, [data["forces"][0]["figures"][:1], []])
    assert run(["los", str(alone)]) == 0
    assert capsys.readouterr().out == (
        "only one figure on this table (p1): no line of sight to judge\n"
    )
