"""Buildings (8): which building a figure is in, changing floors (8.2), and the
door or window a figure fires from, two figures at most each (8.5).
"""

from __future__ import annotations

from collections.abc import Sequence

from shapely.geometry import LineString

from crdesk.errors import IllegalActionError
from crdesk.game.actions import ChangeFloor
from crdesk.game.records import Frame
from crdesk.game.table import Table
from crdesk.model import Building, Figure


def building_of(t: Table, fig: Figure) -> Building | None:
    for feature in t.battlefield.features_at(fig.x, fig.y):
        if isinstance(feature, Building):
            return feature
    return None


def check_floor(t: Table, frame: Frame, fig: Figure, act: ChangeFloor) -> None:
    building = building_of(t, fig)
    if building is None:
        raise IllegalActionError(f"{fig.name} is not inside a building (8.2)")
    here = int(t.state["floors"].get(fig.id, 1))
    if not 1 <= act.floor <= building.floors:
        raise IllegalActionError(f"{building.name} has floors 1 to {building.floors}")
    if act.floor == here:
        raise IllegalActionError(f"{fig.name} is already on floor {here}")
    if abs(act.floor - here) != 1:
        raise IllegalActionError("a figure changes one floor at a time (8.2)")
    d = frame.data
    if fig.id in d["moved"] or fig.id in d["fired"] or float(d["used"][fig.id]) > 0:
        raise IllegalActionError(
            f"changing floor takes {fig.name}'s whole activation: it has already acted (8.2)"
        )


def change_floor(t: Table, frame: Frame, fig: Figure, floor: int) -> None:
    d = frame.data
    d["used"][fig.id] = d["allow"][fig.id]
    d["fired"].append(fig.id)
    d["moved"].append(fig.id)
    floors = t.state["floors"]
    if floor == 1:
        floors.pop(fig.id, None)
    else:
        floors[fig.id] = floor
    t.emit(
        "floor",
        f"{fig.name} moves to floor {floor}: that is its whole activation (8.2).",
        section="8.2",
        figures=[fig.id],
    )


def floor_of(t: Table, fig: Figure) -> int:
    """The floor ``fig`` stands on: 1 (the ground) unless it went up (8.2)."""
    return int(t.state["floors"].get(fig.id, 1))


def upstairs_problem(t: Table, fig: Figure, path: Sequence[tuple[float, float]]) -> str | None:
    """Why a figure above the ground floor may not walk ``path``, or None.

    8.2: moving between floors takes a whole activation, and the ways out of a building
    the book prices (doors 2", windows 4") are on the ground floor; walking out from
    upstairs would change floors within a move.  So a figure upstairs moves about its
    floor, and leaves the building only after coming down (``floor ID 1``, another whole
    activation)."""
    floor = floor_of(t, fig)
    if floor <= 1:
        return None
    building = building_of(t, fig)
    if building is None:
        return None
    # the walk from where it stands (a turn in place is a path of one point)
    if LineString([(fig.x, fig.y), *path]).covered_by(building.outline.buffer(1e-6)):
        return None
    return (
        f"{fig.name} is on floor {floor} of the {building.name}: the way out is on the "
        f"ground floor, and going down takes a whole activation (8.2; floor {fig.id} 1)"
    )


def opening_of(t: Table, fig: Figure) -> str | None:
    """The door or window a figure inside a building stands at, as "feature:n" (8.5)."""
    vp = t.vis.viewpoints()  # where the sight engine placed every figure
    place = vp.places[t.sight().pos[fig.id]]
    if place.building < 0 or not place.openings:
        return None
    return f"{t.vis.index.features[place.building]}:{place.openings[0]}"


def floors_apart(t: Table) -> list[tuple[str, str]]:
    """The pairs of figures inside one building on different floors: a floor is no door
    or window, so neither sees the other (8.1: each floor adds areas; 8.3: figures
    inside are seen only at a door or window).  Remembered per battlefield revision and
    floors; nothing to do while nobody is upstairs (most games)."""
    up = {f: int(n) for f, n in t.state["floors"].items() if int(n) > 1}
    if not up:
        return []
    key = (t.battlefield.revision, tuple(sorted(up.items())))
    kept = t.memo.get("floors_apart")
    if kept is not None and kept[0] == key:
        return list(kept[1])
    figures = list(t.battlefield.figures())
    inside = {f.id: getattr(building_of(t, f), "id", None) for f in figures}
    pairs: list[tuple[str, str]] = []
    for fid, floor in up.items():
        b = inside.get(fid)
        if b is None:
            continue
        for other in figures:
            if other.id != fid and inside[other.id] == b and up.get(other.id, 1) != floor:
                pair = (min(fid, other.id), max(fid, other.id))
                if pair not in pairs:
                    pairs.append(pair)
    t.memo["floors_apart"] = (key, tuple(pairs))
    return pairs
