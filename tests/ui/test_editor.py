"""Editor tools driven by real mouse and key events: the model changes, undo restores it."""

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtWidgets import QMainWindow
from shapely.geometry import Polygon

from crdesk import scenario as io
from crdesk.model import Building, Hill, OpeningKind, TerrainKind
from crdesk.resources import demo_scenario
from tests.ui.mouse import click, double_click, drag
from ui.document import Document
from ui.editor import Editor
from ui.scene.scene import BattlefieldScene
from ui.scene.view import BattlefieldView


@pytest.fixture
def editor(qtbot):
    window = QMainWindow()
    doc = Document(io.load(Path(str(demo_scenario()))))
    scene = BattlefieldScene(doc.battlefield)
    view = BattlefieldView(scene)
    window.setCentralWidget(view)
    window.resize(900, 900)
    qtbot.addWidget(window)
    ed = Editor(window, view)
    ed.install_menus()
    ed.set_document(doc, scene)
    window.show()
    qtbot.waitExposed(window)
    view.fit_table()
    yield ed
    ed.manager.detach()
    doc.close()


def snapshot(ed: Editor) -> str:
    return io.dumps(ed.document.scenario)


def undo_all_restores(ed: Editor, start: str) -> None:
    after = snapshot(ed)
    stack = ed.document.undo_stack
    while stack.canUndo():
        stack.undo()
    assert snapshot(ed) == start
    assert not ed.document.is_modified
    while stack.canRedo():
        stack.redo()
    assert snapshot(ed) == after


def test_draw_woods_polygon_by_clicks(editor: Editor) -> None:
    start = snapshot(editor)
    editor.set_tool("woods")
    view = editor.view
    for x, y in [(2, 26), (8, 25), (9, 30)]:
        click(view, x, y)
    double_click(view, 3, 31)
    woods = [
        f
        for f in editor.document.battlefield.terrain
        if f.id.startswith("woods-") and f.id != "woods-1"
    ]
    assert len(woods) == 1
    feature = woods[0]
    assert feature.kind is TerrainKind.WOODS and feature.name == "Woods 2"
    assert list(feature.outline.exterior.coords)[:-1] == [(2, 26), (8, 25), (9, 30), (3, 31)]
    assert editor.document.undo_stack.undoText() == "Add Woods"
    assert editor.tool.previews == []
    undo_all_restores(editor, start)


def test_escape_cancels_a_half_drawn_outline(editor: Editor, qtbot) -> None:
    editor.set_tool("impassable")
    click(editor.view, 2, 26)
    click(editor.view, 8, 26)
    assert editor.tool.previews
    qtbot.keyClick(editor.view, Qt.Key.Key_Escape)
    assert editor.tool.previews == [] and editor.tool.points == []
    assert editor.document.undo_stack.count() == 0


def test_draw_hill_rectangle_gets_a_crest_and_ellipse(editor: Editor, qtbot) -> None:
    editor.set_tool("hill")
    qtbot.keyClick(editor.view, Qt.Key.Key_3)
    drag(editor.view, [(20, 28), (26, 30), (32, 32)])
    hill = editor.document.battlefield.feature(editor.document.selection[0])
    assert isinstance(hill, Hill) and hill.outline.bounds == (20, 28, 32, 32)
    assert hill.crest.length > 6 and hill.crest.within(hill.outline)
    qtbot.keyClick(editor.view, Qt.Key.Key_4)
    drag(editor.view, [(1, 33), (5, 35)])
    ellipse = editor.document.battlefield.feature(editor.document.selection[0])
    assert ellipse.outline.bounds == pytest.approx((1, 33, 5, 35))


def test_select_drag_moves_figure_and_wheel_turns_it_in_one_step(editor: Editor) -> None:
    start = snapshot(editor)
    bf = editor.document.battlefield
    p2 = bf.figure("p2")
    x, y, facing = p2.x, p2.y, p2.facing
    drag(editor.view, [(x, y), (x + 1, y - 1), (x + 3, y - 4)], wheel_steps=2)
    assert editor.document.selection == ["p2"]
    assert (p2.x, p2.y) == (x + 3, y - 4)
    assert p2.facing == (facing + 30) % 360
    assert editor.document.undo_stack.count() == 1
    assert editor.document.undo_stack.undoText() == "Move Cpl. Diaz"  # history names the figure
    undo_all_restores(editor, start)


def test_drag_a_building_moves_its_areas_and_doors(editor: Editor) -> None:
    bf = editor.document.battlefield
    house = bf.feature("building-4")
    assert isinstance(house, Building)
    before = house.outline.bounds
    drag(editor.view, [(7, 19), (8, 20), (9, 21)])
    assert house.outline.bounds == before  # the object held keeps its value; the model moved
    house = bf.feature("building-4")
    assert isinstance(house, Building)
    assert house.outline.bounds == (before[0] + 2, before[1] + 2, before[2] + 2, before[3] + 2)
    assert editor.scene.feature_item("building-4").pos().x() == 0
    editor.document.undo_stack.undo()
    assert bf.feature("building-4").outline.bounds == before


def test_shift_click_and_rubber_band_select_then_delete(editor: Editor, qtbot) -> None:
    start = snapshot(editor)
    view = editor.view
    click(view, 17, 32)
    click(view, 14.5, 31.5, modifiers=Qt.KeyboardModifier.ShiftModifier)
    assert editor.document.selection == ["p1", "p2"]
    drag(view, [(0.5, 24.5), (10, 30), (20, 34.5)])
    assert set(editor.document.selection) == {"cover-1", "p1", "p2", "p3", "p4"}
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert "cover-1" not in {f.id for f in editor.document.battlefield.terrain}
    assert editor.document.undo_stack.undoText() == "Delete 5 Items"
    undo_all_restores(editor, start)


def test_vertex_drag_add_and_remove(editor: Editor, qtbot) -> None:
    start = snapshot(editor)
    bf = editor.document.battlefield
    editor.document.set_selection(["impassable-1"])
    editor.set_tool("vertex")

    def rock() -> list[tuple[float, float]]:
        return list(bf.feature("impassable-1").outline.exterior.coords)

    assert len(editor.tool.previews) == 5
    drag(editor.view, [(31, 3), (30, 2.5), (29, 2)])
    assert rock()[0] == (29, 2)
    double_click(editor.view, 35, 6)
    assert len(rock()) == 7
    added = rock()[2]
    assert added == pytest.approx((35, 6), abs=0.05)
    click(editor.view, *added)
    qtbot.keyClick(editor.view, Qt.Key.Key_Delete)
    assert len(rock()) == 6
    assert editor.document.undo_stack.undoText() == "Remove Vertex"
    undo_all_restores(editor, start)


def test_a_corner_chosen_on_one_outline_is_not_deleted_from_another(editor: Editor, qtbot) -> None:
    # monkey seed 1072: Delete after the chosen corner's outline had changed raised
    # IndexError inside the view's event filter (and PySide then crashed reporting it)
    bf = editor.document.battlefield
    editor.document.set_selection(["impassable-1"])
    editor.set_tool("vertex")
    rock = list(bf.feature("impassable-1").outline.exterior.coords)[:-1]
    house = list(bf.feature("building-4").outline.exterior.coords)[:-1]
    assert len(rock) > len(house)
    click(editor.view, *rock[-1])  # the rock's last corner, beyond the house's corners
    editor.document.set_selection(["building-4"])
    assert editor.tool._current is None  # no corner of the house is chosen
    qtbot.keyClick(editor.view, Qt.Key.Key_Delete)  # so Delete deletes the house itself
    assert editor.document.undo_stack.undoText() != "Remove Vertex"
    assert "building-4" not in {f.id for f in bf.terrain}
    assert list(bf.feature("impassable-1").outline.exterior.coords)[:-1] == rock
    editor.document.undo_stack.undo()
    assert list(bf.feature("building-4").outline.exterior.coords)[:-1] == house
    # a corner added, chosen, then taken back by undo: Delete has no corner to remove
    editor.document.set_selection(["impassable-1"])
    a, b = rock[0], rock[1]
    double_click(editor.view, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
    assert len(bf.feature("impassable-1").outline.exterior.coords) - 1 == len(rock) + 1
    added = list(bf.feature("impassable-1").outline.exterior.coords)[:-1]
    click(editor.view, *added[-1])  # the last corner, which the undo below takes away
    assert editor.tool._current == len(added) - 1
    editor.document.undo_stack.undo()
    assert list(bf.feature("impassable-1").outline.exterior.coords)[:-1] == rock
    assert editor.tool._current is None


def test_a_tool_s_error_is_reported_and_does_not_crash_the_window(
    editor: Editor, qtbot, monkeypatch
) -> None:
    from ui.tools.edit_tools import VertexTool

    def broken(self: VertexTool, pos: object, event: object) -> bool:
        raise RuntimeError("a tool's bug")

    editor.document.set_selection(["impassable-1"])
    editor.set_tool("vertex")
    monkeypatch.setattr(VertexTool, "press", broken)
    with qtbot.capture_exceptions() as caught:
        click(editor.view, 20, 20)
    assert [str(e[1]) for e in caught] == ["a tool's bug"]
    assert editor.tool is not None and editor.tool.name == "Edit vertices"
    assert "impassable-1" in {f.id for f in editor.document.battlefield.terrain}


def test_building_tool_footprint_and_openings(editor: Editor, qtbot) -> None:
    editor.set_tool("building")
    drag(editor.view, [(1, 28), (7, 31), (13, 34)])
    building = editor.document.battlefield.feature(editor.document.selection[0])
    assert isinstance(building, Building)
    assert building.outline.bounds == (1, 28, 13, 34)
    assert len(building.areas) == 2
    assert [o.kind for o in building.openings].count(OpeningKind.DOOR) == 1
    qtbot.keyClick(editor.view, Qt.Key.Key_N)
    click(editor.view, 4, 28.2)
    building = editor.document.battlefield.feature(building.id)
    assert isinstance(building, Building)
    assert len(building.openings) == 5 and building.openings[-1].kind is OpeningKind.WINDOW
    assert editor.document.undo_stack.undoText() == "Add Window"


def test_crest_tool_redraws_the_crest(editor: Editor) -> None:
    editor.set_tool("hill")
    drag_hill = [(20, 26), (33, 34)]
    editor.tool.set_mode(editor.tool.mode.__class__("rectangle"))
    drag(editor.view, drag_hill)
    hill_id = editor.document.selection[0]
    editor.set_tool("crest")
    click(editor.view, 21, 27)
    double_click(editor.view, 32, 33)
    crest = editor.document.battlefield.feature(hill_id).crest
    assert list(crest.coords) == [(21, 27), (32, 33)]
    assert editor.document.undo_stack.undoText() == "Edit Crest"


def test_measure_base_to_base(editor: Editor) -> None:
    editor.set_tool("measure")
    bf = editor.document.battlefield
    a, b = bf.figure("p1"), bf.figure("e1")
    drag(editor.view, [(a.x, a.y), (b.x, b.y)])
    expected = ((a.x - b.x) ** 2 + (a.y - b.y) ** 2) ** 0.5 - a.radius - b.radius
    assert editor.tool.reading == pytest.approx(expected)
    assert editor.document.undo_stack.count() == 0


def test_copy_paste_duplicate_rotate(editor: Editor, qtbot) -> None:
    start = snapshot(editor)
    doc = editor.document
    doc.set_selection(["woods-1", "e2"])
    editor.copy()
    editor.paste()
    assert len(doc.selection) == 2
    new_woods = doc.battlefield.feature(doc.selection[0])
    old_woods = doc.battlefield.feature("woods-1")
    assert new_woods.outline.bounds[0] == pytest.approx(old_woods.outline.bounds[0] + 1)
    assert doc.battlefield.figure(doc.selection[1]).side == "enemy"
    assert doc.undo_stack.undoText() == "Paste"
    editor.duplicate()
    assert doc.undo_stack.undoText() == "Duplicate"
    editor.rotate(90)
    assert doc.undo_stack.undoText() == "Rotate 2 Items"  # history names what turned
    undo_all_restores(editor, start)


def test_undo_action_names_the_command(editor: Editor) -> None:
    editor.document.set_selection(["woods-1"])
    editor.delete()
    assert editor.undo_action.text() == "&Undo Delete Woods"
    editor.undo_action.trigger()
    assert editor.redo_action.text() == "&Redo Delete Woods"


def test_los_probe_shows_the_verdict_and_names_the_blocker(editor: Editor) -> None:
    from crdesk.geometry import build_index, line_of_sight
    from tests.ui.mouse import send
    from ui.tools.los_tool import BLOCKED, verdict_colour

    doc = editor.document
    bf = doc.battlefield
    rules = doc.scenario.rules
    index = build_index(bf, rules, raster=False)
    pairs = [(a, b) for a in bf.figures() for b in bf.figures() if a.side != b.side]
    blocked = next(
        (a, b, r)
        for a, b in pairs
        if not (r := line_of_sight(bf, a.id, b.id, rules, index=index)).visible and r.feature_id
    )
    a, b, expected = blocked
    editor.set_tool("los")
    click(editor.view, a.x, a.y)
    assert editor.tool.viewer == a.id
    send(
        editor.view,
        QEvent.Type.MouseMove,
        b.x,
        b.y,
        Qt.MouseButton.NoButton,
        Qt.MouseButton.NoButton,
    )
    assert editor.tool.result == expected
    assert verdict_colour(editor.tool.result) == BLOCKED
    blocker = {f.id: f.name for f in [*bf.terrain, *bf.figures()]}[expected.feature_id]
    assert editor.tool.text.startswith("Blocked: ") and blocker in editor.tool.text
    click(editor.view, b.x, b.y)  # pin it
    send(editor.view, QEvent.Type.MouseMove, 1, 1, Qt.MouseButton.NoButton, Qt.MouseButton.NoButton)
    assert editor.tool.result == expected
    assert len(editor.tool.previews) == 2
    assert doc.undo_stack.count() == 0


def test_sight_lines_follow_a_dragged_figure(editor: Editor) -> None:
    from crdesk.geometry import build_index, line_of_sight

    doc = editor.document
    bf = doc.battlefield
    sight = editor.sight
    assert sight is not None
    click(editor.view, bf.figure("p3").x, bf.figure("p3").y)
    enemies = [f for f in bf.figures() if f.side != "player"]
    assert sum(sight.counts[k] for k in ("clear", "concealed", "cover", "blocked")) == len(enemies)
    assert sight.counts["link"] >= 1  # p3 stands within 4" of its squad

    def expected_blocked() -> int:
        index = build_index(bf, doc.scenario.rules, raster=False)
        return sum(
            not line_of_sight(bf, "p3", e.id, doc.scenario.rules, index=index).visible
            for e in enemies
        )

    assert sight.counts["blocked"] == expected_blocked()
    p3 = bf.figure("p3")
    drag(editor.view, [(p3.x, p3.y), (p3.x + 2, p3.y - 4), (28, 22)])
    assert (p3.x, p3.y) == pytest.approx((28, 22), abs=0.51)  # moved by whole inches
    assert sight.focus == "p3" and sight.counts["link"] == 0
    assert sight.counts["blocked"] == expected_blocked()
    editor.sight_action.trigger()
    assert sight.focus is None and sum(sight.counts.values()) == 0


def test_problems_are_flagged_in_place(editor: Editor, qtbot) -> None:
    markers = editor.markers
    assert markers is not None and markers.markers == []
    editor.set_tool("impassable")
    qtbot.keyClick(editor.view, Qt.Key.Key_3)
    p4 = editor.document.battlefield.figure("p4")
    drag(editor.view, [(p4.x - 2, p4.y - 2), (p4.x + 2, p4.y + 2)])
    qtbot.waitUntil(lambda: len(markers.markers) == 1, timeout=2000)
    assert "stands inside impassable ground" in markers.markers[0].toolTip()
    editor.document.undo_stack.undo()
    qtbot.waitUntil(lambda: markers.markers == [], timeout=2000)


def test_turn_a_figure_by_its_facing_handle(editor: Editor) -> None:
    from ui.tools.select_tool import HANDLE_REACH

    start = snapshot(editor)
    bf = editor.document.battlefield
    p2 = bf.figure("p2")
    click(editor.view, p2.x, p2.y)
    tool = editor.tool
    assert tool._handle is not None and tool._handle.isVisible()
    reach = p2.radius + HANDLE_REACH
    dx, dy = p2.facing_vector()
    tip = (p2.x + dx * reach, p2.y + dy * reach)
    # Drag the handle round to the figure's right (90°, towards +x).
    drag(editor.view, [tip, (p2.x + 1.5, p2.y - 1.0), (p2.x + 3.0, p2.y + 0.1)])
    assert p2.facing == 90.0 and (p2.x, p2.y) == (14.5, 31.5)
    assert editor.document.undo_stack.count() == 1
    assert editor.document.undo_stack.undoText() == "Rotate Cpl. Diaz"
    undo_all_restores(editor, start)


def test_building_tool_splits_and_joins_areas(editor: Editor, qtbot) -> None:
    start = snapshot(editor)

    def areas() -> list[Polygon]:
        house = editor.document.battlefield.feature("building-4")
        assert isinstance(house, Building)
        return house.areas

    assert len(areas()) == 1  # one 6" area at (4,16)-(10,22)
    editor.set_tool("building")
    qtbot.keyClick(editor.view, Qt.Key.Key_A)
    click(editor.view, 7, 19)
    assert len(areas()) == 2 and editor.document.undo_stack.undoText() == "Split Area"
    click(editor.view, 5, 19, modifiers=Qt.KeyboardModifier.ShiftModifier)
    assert len(areas()) == 1 and areas()[0].area == pytest.approx(36)
    assert editor.document.undo_stack.undoText() == "Join Areas"
    undo_all_restores(editor, start)
