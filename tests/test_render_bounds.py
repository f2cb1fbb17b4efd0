"""Printing the largest table (issue 33, item 10): the 1:1 PDF's pages are counted up
front, and a print past :data:`crdesk.limits.PRINT_PAGES` pages is refused in one line.

A 480" x 480" table once printed to 3,217 A4 pages: 10 minutes, 1.89 GB and a
12.6 GB file.  The count is :func:`crdesk.printing.plan_print`, the plan the PDF
writer (:mod:`ui.export`) draws.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from crdesk import limits, printing
from crdesk import scenario as io
from crdesk.cli import main
from crdesk.cli import render as render_cli
from crdesk.model import Battlefield, Scenario, Table

HOSTILE = Path(__file__).resolve().parent / "data" / "hostile"
BIG = HOSTILE / "33-10-print-480.crdesk"


def _refusal(pages: int, paper: str) -> str:
    return (
        f'error: a 480" x 480" table is {pages:,} {paper} pages at 1:1; crdesk prints at '
        f"most {limits.PRINT_PAGES} pages (export PNG or SVG for a picture of the whole table)"
    )


@pytest.mark.parametrize(("paper", "pages"), [("a4", 3_217), ("letter", 3_316)])
def test_a_print_past_the_bound_is_refused_in_one_line_and_nothing_is_written(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    paper: str,
    pages: int,
) -> None:
    def no_drawing(_name: str) -> None:
        raise AssertionError("refused before the front end draws anything")

    monkeypatch.setattr(render_cli, "frontend", no_drawing)
    out = tmp_path / "big.pdf"
    assert main(["render", str(BIG), "-o", str(out), "--paper", paper]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == _refusal(pages, paper.upper()) + "\n"
    assert list(tmp_path.iterdir()) == []


def test_the_refusal_exit_code_is_the_other_usage_refusals(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad_dpi = main(["render", str(BIG), "-o", str(tmp_path / "m.png"), "--dpi", "0"])
    too_many = main(["render", str(BIG), "-o", str(tmp_path / "m.pdf")])
    assert bad_dpi == too_many == 2
    capsys.readouterr()


def test_the_bound_is_pages_not_more() -> None:
    assert limits.print_problem(480, 480, limits.PRINT_PAGES, "a4") is None
    problem = limits.print_problem(480, 480, limits.PRINT_PAGES + 1, "a4")
    assert problem is not None and f"is {limits.PRINT_PAGES + 1} A4 pages" in problem
    # the usual big tables print; a 10' x 10' table on either paper too
    for paper in ("a4", "letter"):
        assert printing.print_problem(72, 48, paper) is None
        assert printing.print_problem(120, 120, paper) is None
        assert printing.print_problem(480, 480, paper) is not None


@pytest.mark.parametrize(
    ("w", "h"), [(6, 6), (24, 24), (36, 36), (72, 48), (48, 72), (120, 120), (240, 60), (480, 480)]
)
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_page_count_is_the_tiles_the_pdf_draws_and_the_page_map(
    w: float, h: float, paper: str
) -> None:
    plan = printing.plan_print(w, h, paper)
    assert len(plan.tiles(w, h)) == plan.tile_pages == plan.rows * plan.cols
    assert plan.pages == plan.tile_pages + 1
    # the fewest pages of the orientations and overlaps tried, as plan_tiles cuts them
    counts = {}
    for landscape in (False, True):
        page_w, page_h = printing.page_area(paper, landscape)
        for overlap in (0.5, 0.25):
            tiles = printing.plan_tiles(w, h, page_w, page_h - printing.HEADER, overlap)
            counts[(landscape, overlap)] = len(tiles)
    assert plan.tile_pages == min(counts.values()) == counts[(plan.landscape, plan.overlap)]


def test_the_printable_page_is_qt_s(qapp) -> None:  # type: ignore[no-untyped-def]
    """The core's page sizes are what the PDF writer's page layout paints on."""
    from PySide6.QtCore import QMarginsF
    from PySide6.QtGui import QPageLayout

    from ui.export import PDF_DPI, Paper

    for paper in Paper:
        for landscape in (False, True):
            orientation = (
                QPageLayout.Orientation.Landscape if landscape else QPageLayout.Orientation.Portrait
            )
            layout = QPageLayout(
                paper.page_size, orientation, QMarginsF(10, 10, 10, 10), QPageLayout.Unit.Millimeter
            )
            rect = layout.paintRectPixels(PDF_DPI)
            w, h = printing.page_area(paper.value, landscape)
            assert (rect.width(), rect.height()) == (round(w * PDF_DPI), round(h * PDF_DPI))


def test_the_summary_says_the_pages_and_the_pdf_has_them(
    qapp,  # type: ignore[no-untyped-def]
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    table = tmp_path / "table.crdesk"
    io.save(Scenario(Battlefield(Table(30, 20), [], []), title="Small"), table)
    out = tmp_path / "small.pdf"
    assert main(["render", str(table), "-o", str(out), "--paper", "letter"]) == 0
    plan = printing.plan_print(30, 20, "letter")
    summary = capsys.readouterr().out
    assert f"{plan.pages} pages on LETTER" in summary
    assert len(re.findall(rb"/Type\s*/Page\b", out.read_bytes())) == plan.pages
    assert sorted(p.name for p in tmp_path.iterdir()) == ["small.pdf", "table.crdesk"]


def test_a_stopped_export_leaves_no_file_and_the_earlier_one_as_it_was(
    qapp,  # type: ignore[no-untyped-def]
    tmp_path: Path,
) -> None:
    from ui.export import export_map

    scenario = Scenario(Battlefield(Table(30, 20), [], []), title="Small")
    out = tmp_path / "small.pdf"
    seen: list[tuple[int, int]] = []

    def stop_at_page_3(done: int, total: int) -> None:
        seen.append((done, total))
        if done == 3:
            raise KeyboardInterrupt("stopped")

    with pytest.raises(KeyboardInterrupt):
        export_map(scenario, out, progress=stop_at_page_3)
    pages = printing.plan_print(30, 20, "a4").pages
    assert seen == [(1, pages), (2, pages), (3, pages)]
    assert list(tmp_path.iterdir()) == []
    out.write_bytes(b"the earlier map")
    for name in ("small.pdf", "small.png", "small.svg"):  # a PNG, an SVG: stopped at the end
        with pytest.raises(KeyboardInterrupt):
            export_map(scenario, tmp_path / name, dpi=10, progress=_stop)
    assert out.read_bytes() == b"the earlier map"
    assert [p.name for p in tmp_path.iterdir()] == ["small.pdf"]


def _stop(_done: int, _total: int) -> None:
    raise KeyboardInterrupt("stopped")


# -- each page stores only the paths it shows ----------------------------------------------


def _long_outlines() -> Scenario:
    """A 30" x 20" table of outlines of 2,000 points (a hill, a wall, woods) crossing pages."""
    import math

    def ring(cx: float, cy: float, r: float, n: int = 2_000) -> list[list[float]]:
        angles = [2 * math.pi * k / n for k in range(n)]
        return [
            [
                round(cx + r * (1 + 0.05 * math.sin(37 * a)) * math.cos(a), 4),
                round(cy + r * (1 + 0.05 * math.sin(37 * a)) * math.sin(a), 4),
            ]
            for a in angles
        ]

    terrain = [
        {"id": "h1", "kind": "hill", "outline": ring(15, 10, 9), "crest": [[10, 10], [20, 10]]},
        {"id": "c1", "kind": "cover", "outline": ring(12, 9, 6)},
        {"id": "w1", "kind": "woods", "outline": ring(18, 11, 4, 300)},
    ]
    document = {
        "format_version": 1,
        "title": "Long outlines",
        "table": {"width": 30, "height": 20},
        "terrain": terrain,
        "forces": [  # figures across the pages' edges (7.225" apart across, 10.2" down)
            {
                "id": "blue",
                "figures": [
                    {"id": f"b{i}", "rep": 4, "position": [x, y], "facing": 40 * i}
                    for i, (x, y) in enumerate([(7.2, 3), (7.3, 10.2), (14.45, 10.3), (22, 9)])
                ],
            }
        ],
    }
    return io.from_document(document)


def test_a_page_cut_to_its_paths_looks_the_same(qapp) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QColor, QImage, QPainter

    from ui import export
    from ui.render import ClippingPainter, RenderOptions, make_scene

    scenario = _long_outlines()
    plan = printing.plan_print(30, 20, "a4")
    tiles = plan.tiles(30, 20)
    scene = make_scene(scenario.battlefield, RenderOptions(sections=True, grid=True, frame=False))
    dpi = 30
    try:
        for tile in tiles:
            images = []
            for painter_class in (QPainter, ClippingPainter):
                image = QImage(
                    round(plan.page_width * dpi),
                    round(plan.page_height * dpi),
                    QImage.Format.Format_RGB32,
                )
                image.fill(QColor("white"))
                painter = painter_class(image)
                painter.scale(dpi / export.PDF_DPI, dpi / export.PDF_DPI)
                if isinstance(painter, ClippingPainter):
                    painter.units_per_inch = export.PDF_DPI
                export._tile_page(painter, scene, tile, tiles, plan.overlap)
                painter.end()
                images.append(image)
            plain, cut = images
            differ = [
                (x, y)
                for y in range(0, plain.height(), 2)
                for x in range(0, plain.width(), 2)
                if max(
                    abs(a - b)
                    for a, b in zip(
                        plain.pixelColor(x, y).getRgb(), cut.pixelColor(x, y).getRgb(), strict=True
                    )
                )
                > 3
            ]
            assert differ == [], (tile.label, differ[:5])
    finally:
        scene.deleteLater()


def test_the_pages_store_only_what_they_show(
    qapp,  # type: ignore[no-untyped-def]
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from ui import export
    from ui.render import ClippingPainter

    scenario = _long_outlines()
    export.save_pdf(scenario, tmp_path / "cut.pdf")
    monkeypatch.setattr(ClippingPainter, "CLIP_MIN_ELEMENTS", 10**9)  # nothing cut
    export.save_pdf(scenario, tmp_path / "whole.pdf")
    cut, whole = (tmp_path / "cut.pdf").stat().st_size, (tmp_path / "whole.pdf").stat().st_size
    assert cut < 0.6 * whole, (cut, whole)


# -- a worker thread drawing a big picture lets the window repaint ---------------------------


def test_an_svg_stores_no_huge_picture(qapp, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """A huge image (a 480" table's cloth) is stored scaled down: the SVG writer encodes
    it in one call that holds Python's lock, and the window exporting it froze."""
    import base64

    from PySide6.QtCore import QRectF, QSize
    from PySide6.QtGui import QColor, QImage
    from PySide6.QtSvg import QSvgGenerator

    from ui.render import SvgPainter

    out = tmp_path / "pictures.svg"
    generator = QSvgGenerator()
    generator.setFileName(str(out))
    generator.setSize(QSize(2000, 1000))
    generator.setViewBox(QRectF(0, 0, 2000, 1000))
    huge, small = (
        QImage(1500, 1000, QImage.Format.Format_RGB32),
        QImage(300, 200, QImage.Format.Format_RGB32),
    )
    huge.fill(QColor("green"))
    small.fill(QColor("red"))
    painter = SvgPainter(generator)
    painter.drawImage(QRectF(0, 0, 1500, 1000), huge)
    painter.drawImage(QRectF(1500, 0, 300, 200), small)
    painter.end()
    stored = [
        QImage.fromData(base64.b64decode(data))
        for data in re.findall(r"base64,([A-Za-z0-9+/=\s]+)", out.read_text(encoding="utf-8"))
    ]
    sizes = sorted((image.width(), image.height()) for image in stored)
    assert sizes[0] == (300, 200)  # a small one as it is
    w, h = sizes[1]
    assert w * h <= SvgPainter.IMAGE_PIXELS < 1500 * 1000  # scaled down ...
    assert abs(w / h - 1.5) < 0.01  # ... in proportion


def test_a_png_is_transparent_around_its_frame(qapp) -> None:  # type: ignore[no-untyped-def]
    from ui.render import RenderOptions, render_scene

    image = render_scene(Battlefield(Table(12, 8), [], []), RenderOptions(pixels_per_inch=10))
    assert image.pixelColor(0, 0).alpha() == 0
    assert image.pixelColor(image.width() - 1, image.height() - 1).alpha() == 0
    assert image.pixelColor(image.width() // 2, image.height() // 2).alpha() == 255


def test_cancel_is_heard_while_the_terrain_is_drawn_before_any_page(
    qapp,  # type: ignore[no-untyped-def]
    tmp_path: Path,
) -> None:
    from ui.export import export_map

    seen: list[tuple[int, int]] = []

    def cancel_at_once(done: int, total: int) -> None:
        seen.append((done, total))
        raise KeyboardInterrupt("stopped")

    with pytest.raises(KeyboardInterrupt):
        export_map(_long_outlines(), tmp_path / "long.pdf", progress=cancel_at_once)
    assert seen == [(0, 0)]  # no page count yet: the terrain was being drawn
    assert list(tmp_path.iterdir()) == []
