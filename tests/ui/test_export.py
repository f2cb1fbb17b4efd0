"""Map export: PNG/SVG through the scene, a 1:1 PDF tiled over pages, and `crdesk render`."""

import re
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from crdesk.cli import main
from crdesk.resources import demo_scenario
from ui.export import plan_tiles

DEMO = str(demo_scenario())


@pytest.mark.parametrize(("w", "h"), [(36, 36), (72, 48), (24, 24), (6, 6)])
def test_tiles_cover_the_table_with_the_overlap(w: float, h: float) -> None:
    tiles = plan_tiles(w, h, 7.48, 10.46, 0.5)
    assert tiles[0].x == 0 and tiles[0].y == 0
    assert max(t.x + t.width for t in tiles) == pytest.approx(w)
    assert max(t.y + t.height for t in tiles) == pytest.approx(h)
    by_pos = {(t.row, t.col): t for t in tiles}
    for (r, c), t in by_pos.items():
        if (r, c + 1) in by_pos:
            assert t.x + t.width - by_pos[(r, c + 1)].x == pytest.approx(0.5)
        if (r + 1, c) in by_pos:
            assert t.y + t.height - by_pos[(r + 1, c)].y == pytest.approx(0.5)
        assert t.width <= 7.48 and t.height <= 10.46


def test_tiles_refuse_an_overlap_wider_than_the_page() -> None:
    with pytest.raises(ValueError, match="larger than the overlap"):
        plan_tiles(36, 36, 0.4, 10, 0.5)


def test_render_pdf_is_a4_with_a_page_map_and_tiles(
    qapp, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "map.pdf"
    assert main(["render", DEMO, "-o", str(out), "--sections"]) == 0
    summary = capsys.readouterr().out
    pages = int(re.search(r"(\d+) pages", summary).group(1))
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    assert len(re.findall(rb"/Type\s*/Page\b", data)) == pages == 21  # 20 tiles + the map
    assert re.search(rb"/MediaBox\s*\[0 0 595(\.\d+)? 842(\.\d+)?\]", data)


def test_render_png_and_svg(qapp, tmp_path: Path) -> None:
    png, svg = tmp_path / "map.png", tmp_path / "map.svg"
    assert main(["render", DEMO, "-o", str(png), "--dpi", "20", "--grid"]) == 0
    image = QImage(str(png))
    assert 36 * 20 <= image.width() <= 40 * 20 and image.width() == image.height()
    assert main(["render", DEMO, "-o", str(svg)]) == 0
    assert "<svg" in svg.read_text(encoding="utf-8")[:2000]


def test_render_bad_input_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", DEMO, "-o", str(tmp_path / "map.gif")]) == 2
    assert main(["render", DEMO, "-o", str(tmp_path / "map.png"), "--dpi", "0"]) == 2
    assert main(["render", str(tmp_path / "missing.crdesk"), "-o", str(tmp_path / "m.png")]) == 2
    err = capsys.readouterr().err
    assert ".png, .svg or .pdf" in err and "--dpi" in err and "no such file" in err
