"""Start-up: the given file, the bundled demo, or an empty table when loading fails."""

from __future__ import annotations

from pathlib import Path

from ui.app import demo_path, open_window


def test_demo_scenario_opens(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    errors: list[str] = []
    window = open_window(None, show_error=lambda title, text: errors.append(text))
    qtbot.addWidget(window)
    window.resize(1000, 900)
    window.show()
    qtbot.waitExposed(window)
    shot = window.grab()
    assert shot.save(str(tmp_path / "demo.png"))
    Path("/tmp/crdesk-shots").mkdir(parents=True, exist_ok=True)
    shot.save("/tmp/crdesk-shots/demo-urban.png")
    assert not errors
    assert Path(demo_path()).name == "demo-urban.crdesk"
    assert window.path is None  # Save asks for a name: the shipped demo is never overwritten
    assert window.scene.terrain_items() and window.scene.figure_items()


def test_broken_file_falls_back_to_an_empty_table(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.crdesk"
    bad.write_bytes(b"\x00\x01 not json")
    errors: list[str] = []
    window = open_window(str(bad), show_error=lambda title, text: errors.append(text))
    qtbot.addWidget(window)
    assert len(errors) == 1 and "bad.crdesk" in errors[0]
    table = window.scenario.battlefield.table
    assert (table.width, table.height) == (36.0, 36.0)
    assert window.scene.terrain_items() == []


def test_missing_file_is_reported(qtbot, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    errors: list[str] = []
    window = open_window(str(tmp_path / "nope.crdesk"), show_error=lambda t, x: errors.append(x))
    qtbot.addWidget(window)
    assert errors and window.scene.figure_items() == []


def test_main_opens_a_window_per_file_and_returns_the_exit_code(
    qtbot,  # type: ignore[no-untyped-def]
    qapp,  # type: ignore[no-untyped-def]
    tmp_path: Path,
    monkeypatch,  # type: ignore[no-untyped-def]
) -> None:
    from PySide6.QtCore import QTimer

    from ui.app import main
    from ui.main_window import MainWindow

    errors: list[str] = []
    monkeypatch.setattr(MainWindow, "show_error", lambda self, t, x: errors.append(x))
    windows: list[MainWindow] = []

    def finish() -> None:
        windows.extend(w for w in qapp.topLevelWidgets() if isinstance(w, MainWindow))
        qapp.exit(3)

    QTimer.singleShot(100, finish)
    code = main([demo_path(), str(tmp_path / "missing.crdesk")])
    for window in windows:
        qtbot.addWidget(window)
    assert code == 3
    assert len(windows) == 2
    assert len(errors) == 1 and "missing.crdesk" in errors[0]
