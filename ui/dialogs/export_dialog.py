"""Export map…: where to, which format, and ``crdesk render``'s options.

dpi, grid, sections and paper are the same options the command line offers.
For a PDF the dialog says how many pages the 1:1 print takes on the paper
chosen (:func:`crdesk.printing.plan_print`, as ``crdesk render`` counts them)
and, past :data:`crdesk.limits.PRINT_PAGES`, says why it will not print it and
offers no Export.

The dialog only gathers choices; :func:`ui.export.export_map` does the work, so
the GUI and the command line draw the same map.  "Terrain only" exports a copy
of the scenario without its forces (a table to print and set figures on).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import QStandardPaths, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from crdesk import limits, printing
from crdesk.model import Battlefield, Scenario
from ui.scene.items import TableItem

FORMATS = (("PNG image", ".png"), ("SVG drawing", ".svg"), ("PDF at 1:1 scale, tiled", ".pdf"))


def default_folder(scenario_path: Path | None, bundled: bool) -> Path:
    """The scenario's own folder; for a new or bundled scenario, the user's documents."""
    if scenario_path is not None and not bundled:
        return scenario_path.parent
    documents = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return Path(documents or Path.home())


class ExportDialog(QDialog):
    """Pick the file and the render options; :meth:`options` and :meth:`path` read them."""

    def __init__(
        self,
        title: str,
        folder: Path,
        sections: bool = True,
        grid: bool = False,
        parent: QWidget | None = None,
        table: tuple[float, float] | None = None,
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Export map")
        self.table = table
        safe = "".join(c if c.isalnum() or c in " -_." else "_" for c in title).strip() or "map"
        self.path_edit = QLineEdit(str(folder / f"{safe}.png"))
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.path_edit, 1)
        row.addWidget(browse)
        self.format_combo = QComboBox()
        for label, suffix in FORMATS:
            self.format_combo.addItem(f"{label} ({suffix})", suffix)
        self.format_combo.currentIndexChanged.connect(self._format_changed)
        self.dpi_spin = QSpinBox()
        # crdesk render's bounds, and no more pixels than a render may have
        # (the table with its frame), so Export never fails on a typed number
        top = limits.DPI_MAX
        if table is not None:
            frame = 2 * (TableItem.FRAME + 0.1)
            top = min(top, limits.max_dpi(table[0] + frame, table[1] + frame))
        low = int(limits.DPI_MIN)
        self.dpi_spin.setRange(low, max(low, int(top)))
        self.dpi_spin.setValue(100)
        self.dpi_spin.setSuffix(" px/in")
        self.dpi_spin.setToolTip(
            f"Pixels per table inch of a PNG (crdesk render --dpi), {low}.."
            f"{self.dpi_spin.maximum()} here ({limits.RENDER_MEGAPIXELS:g} megapixels at most)"
        )
        self.sections_check = QCheckBox("Section lines and numbers (1-9)")
        self.sections_check.setChecked(sections)
        self.grid_check = QCheckBox('1" grid')
        self.grid_check.setChecked(grid)
        self.terrain_only_check = QCheckBox("Terrain only (no figures)")
        self.paper_combo = QComboBox()
        self.paper_combo.addItem("A4", "a4")
        self.paper_combo.addItem("Letter", "letter")
        self.paper_combo.setToolTip(
            "The PDF prints at 1:1; the page orientation that needs fewest pages is chosen"
        )
        self.paper_combo.currentIndexChanged.connect(self._show_pages)
        self.pages_label = QLabel()
        self.pages_label.setWordWrap(True)
        self.pages_label.setTextFormat(Qt.TextFormat.PlainText)
        form = QFormLayout()
        file_label = QLabel("&File:")  # a layout is no buddy: point Alt+F at the path
        file_label.setBuddy(self.path_edit)
        form.addRow(file_label, row)
        form.addRow("F&ormat:", self.format_combo)
        form.addRow("&Resolution:", self.dpi_spin)
        form.addRow("&Paper (PDF):", self.paper_combo)
        form.addRow("Pages:", self.pages_label)
        form.addRow("", self.sections_check)
        form.addRow("", self.grid_check)
        form.addRow("", self.terrain_only_check)
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Export")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.buttons)
        self._format_changed()

    def _format_changed(self) -> None:
        suffix = str(self.format_combo.currentData())
        self.path_edit.setText(str(Path(self.path_edit.text()).with_suffix(suffix)))
        self.dpi_spin.setEnabled(suffix == ".png")
        self.paper_combo.setEnabled(suffix == ".pdf")
        self._show_pages()

    def print_plan(self) -> printing.PrintPlan | None:
        """How the table prints on the paper chosen (None: the dialog was given no table)."""
        if self.table is None:
            return None
        return printing.plan_print(*self.table, str(self.paper_combo.currentData()))

    def print_problem(self) -> str | None:
        """Why the PDF is not made (too many pages), or None; only for the PDF format."""
        plan = self.print_plan()
        if plan is None or self.format_combo.currentData() != ".pdf" or self.table is None:
            return None
        return limits.print_problem(*self.table, plan.pages, plan.paper)

    def _show_pages(self) -> None:
        """The PDF's page count on this paper, or why it is refused (Export then off)."""
        plan = self.print_plan()
        problem = self.print_problem()
        if plan is None:
            text = ""
        elif problem is not None:
            text = f"Too many to print: {problem}."
        else:
            text = (
                f"{plan.pages:,} {plan.paper.upper()} pages at 1:1 "
                f"({plan.rows} rows of {plan.cols} and a page map)"
            )
        if text != self.pages_label.text():
            self.pages_label.setText(text)
            self.pages_label.setVisible(bool(text))
            if self.isVisible():  # room for the lines of a refusal
                self.layout().activate()
                self.adjustSize()
        self.pages_label.setEnabled(self.format_combo.currentData() == ".pdf")
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setEnabled(problem is None)

    def _browse(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Export map", self.path_edit.text())
        if path:
            self.path_edit.setText(path)
            suffix = Path(path).suffix.lower()
            index = self.format_combo.findData(suffix)
            if index >= 0:
                self.format_combo.setCurrentIndex(index)

    def path(self) -> Path:
        text = self.path_edit.text().strip()
        path = Path(text)
        return path if path.suffix else path.with_suffix(str(self.format_combo.currentData()))

    def options(self) -> dict[str, object]:
        """Keyword arguments for :func:`ui.export.export_map`."""
        return {
            "dpi": float(self.dpi_spin.value()),
            "sections": self.sections_check.isChecked(),
            "grid": self.grid_check.isChecked(),
            "paper": str(self.paper_combo.currentData()),
        }

    def scenario_to_export(self, scenario: Scenario) -> Scenario:
        """The scenario, or a copy without forces when only the terrain is wanted."""
        if not self.terrain_only_check.isChecked():
            return scenario
        bf = scenario.battlefield
        return replace(scenario, battlefield=Battlefield(bf.table, list(bf.terrain), []))
