"""The visibility service: who sees whom on the current battlefield, cached (STYLE 4).

The GUI (LOS overlays, tooltips, cohesion links) and the controller (In Sight
triggers 7.6, target eligibility 7.9.8) ask this service instead of computing
geometry themselves.  It keeps

* the terrain index, rebuilt only when ``Battlefield.terrain_revision`` changes;
* an all-pairs :class:`SightMatrix` (LOS both ways, Cover, concealment and
  base-to-base distance), valid for one ``Battlefield.revision``.  When only a
  few figures changed since the last matrix, just their rows and columns -- and
  the pairs whose sight lines pass near their old or new bases -- are judged
  again, so dragging a figure costs one row, not the whole table.

Judging a pair again gives exactly the verdict a full recomputation would, so
moving a figure and moving it back restores the matrix bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from crdesk.events import Change, ChangeKind
from crdesk.geometry import kernels, los
from crdesk.geometry.los import (
    LINE_OPEN,
    SAMPLE_FRACTION,
    LosResult,
    Viewpoints,
    evaluate,
    explain,
    join_viewpoints,
    probe_viewpoints,
    recheck_bases,
    recheck_near,
    viewpoints,
)
from crdesk.geometry.terrain_index import GRAZE, TerrainIndex, build_index
from crdesk.model import Battlefield, Figure
from crdesk.options import RulesOptions

INCREMENTAL_LIMIT = 8
"""Above this many changed figures a full recomputation is cheaper."""


@dataclass(slots=True)
class SightMatrix:
    """All-pairs sight for one battlefield revision; ``[i, j]`` is "i looking at j"."""

    revision: int
    ids: list[str]
    visible: npt.NDArray[np.bool_]
    cover: npt.NDArray[np.bool_]
    """j is in Cover from i (only where i sees j)."""
    concealed: npt.NDArray[np.bool_]
    distance: npt.NDArray[np.float64]
    """Base-to-base distance in inches."""

    def position(self, figure_id: str) -> int:
        return self.ids.index(figure_id)

    def sees(self, viewer: str, target: str) -> bool:
        return bool(self.visible[self.position(viewer), self.position(target)])

    def copy(self) -> SightMatrix:
        return SightMatrix(
            self.revision,
            list(self.ids),
            self.visible.copy(),
            self.cover.copy(),
            self.concealed.copy(),
            self.distance.copy(),
        )

    def same_as(self, other: SightMatrix) -> bool:
        """Exact equality of every verdict (used by tests of the cache)."""
        return (
            self.ids == other.ids
            and np.array_equal(self.visible, other.visible)
            and np.array_equal(self.cover, other.cover)
            and np.array_equal(self.concealed, other.concealed)
            and np.array_equal(self.distance, other.distance)
        )


@dataclass(slots=True)
class SightRow:
    """One figure against all others, e.g. while it is being dragged (7.9.4, 7.9.5, 6.2)."""

    figure: str
    ids: list[str]
    sees: npt.NDArray[np.bool_]
    """The figure sees ids[j]."""
    seen_by: npt.NDArray[np.bool_]
    """ids[j] sees the figure."""
    cover_from: npt.NDArray[np.bool_]
    """ids[j], seen by the figure, is in Cover from it."""
    concealed_from: npt.NDArray[np.bool_]
    """ids[j], seen by the figure, is concealed from it."""
    cover_to: npt.NDArray[np.bool_]
    """The figure, seen by ids[j], is in Cover from it."""
    distance: npt.NDArray[np.float64]
    links: list[str]
    """Friends it keeps cohesion with: can act, within 4" and in LOS either way (6.2)."""


@dataclass(frozen=True, slots=True)
class SpotVerdicts:
    """One figure judged as if it stood on each of several spots, against some viewers.

    Row ``i`` is ``points[i]``, column ``j`` the viewer ``viewers[j]``.  Where a
    figure may go -- a Duck Back spot (7.7), a spot for the solo enemy's orders
    (11.4), a PEF's move (11.2) -- is a question of many spots at once; one call
    judges them all with the same sight engine as the matrix.
    """

    figure: str
    points: npt.NDArray[np.float64]
    """(P, 2) the spots (the figure's centre on each)."""
    viewers: tuple[str, ...]
    sees: npt.NDArray[np.bool_]
    """(P, V) the figure on the spot has LOS to the viewer."""
    seen: npt.NDArray[np.bool_]
    """(P, V) the viewer has LOS to the figure on the spot."""
    cover: npt.NDArray[np.bool_]
    """(P, V) the figure on the spot is in Cover from the viewer (where it is seen)."""
    distance: npt.NDArray[np.float64]
    """(P, V) base to base, inches."""
    viewer_cover: npt.NDArray[np.bool_]
    """(P, V) the viewer is in Cover from the figure on the spot (where the figure sees
    it): whether a viewer that ducked back from the figure stays hidden (7.4.4)."""

    @property
    def safe(self) -> npt.NDArray[np.bool_]:
        """(P, V) out of the viewer's sight or in Cover from it (7.4.4's "in Cover")."""
        out: npt.NDArray[np.bool_] = np.logical_or(~self.seen, self.cover)
        return out


class VisibilityService:
    """Cached line of sight and Cover for one battlefield under one set of rules options."""

    def __init__(
        self,
        battlefield: Battlefield,
        rules: RulesOptions,
        *,
        moving: Iterable[str] = (),
        lit: Iterable[str] = (),
        index: TerrainIndex | None = None,
    ) -> None:
        """``index``: a terrain index already built for this terrain under these rules
        (a forked game's copy of the battlefield shares its terrain); reused while the
        terrain revision matches."""
        self.battlefield = battlefield
        self.rules = rules
        self._moving = frozenset(moving)
        self._lit = frozenset(lit)
        self._index: TerrainIndex | None = index
        self._vp: Viewpoints | None = None
        self._matrix: SightMatrix | None = None
        self._dirty: set[str] = set()
        self._full = True
        self._gate = np.zeros((0, 0), dtype=bool)
        self._raw_cover = np.zeros((0, 0), dtype=bool)
        self._raw_conc = np.zeros((0, 0), dtype=bool)
        self._lines = np.zeros((0, 0, 3), dtype=np.int8)
        self._open = np.zeros((0, 0), dtype=bool)
        """Upper triangle: pairs with a sight line open on terrain and a gate open."""
        self._pos: dict[str, int] = {}
        self._pos_ids: list[str] | None = None
        self._rows_cache: dict[
            tuple[int, int], tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]
        ] = {}
        self._hidden: frozenset[tuple[str, str]] = frozenset()
        self._apart: frozenset[tuple[str, str]] = frozenset()
        """Pairs a floor parts: inside one building on different floors (8.1, 8.3)."""
        self._masked: tuple[SightMatrix, SightMatrix] | None = None
        """(raw matrix, the same with the hidden pairs masked), while both hold."""
        self.full_recomputes = 0
        """How many times the whole matrix was computed (for tests and benchmarks)."""
        self._unsubscribe = battlefield.subscribe(self._on_change)

    def close(self) -> None:
        """Stop listening to the battlefield."""
        self._unsubscribe()

    # -- settings ----------------------------------------------------------

    def set_rules(self, rules: RulesOptions) -> None:
        if rules != self.rules:
            self.rules = rules
            self._index = None
            self._full = True

    def set_moving(self, moving: Iterable[str]) -> None:
        """Name the figures moving this activation (7.9.5): concealed but not in Cover."""
        new = frozenset(moving)
        self._dirty |= new ^ self._moving
        self._moving = new

    def set_lit(self, lit: Iterable[str]) -> None:
        """Name the figures standing in well-lit areas (7.9.4, night)."""
        new = frozenset(lit)
        self._dirty |= new ^ self._lit
        self._lit = new

    def set_hidden(self, pairs: Iterable[tuple[str, str]]) -> None:
        """Name (figure, cause) pairs where the figure ducked back into Cover from the
        cause: neither sees the other while the figure is out of the cause's sight or
        in Cover from it (7.4.4, 7.8).  The matrix and rows mask them; :meth:`spots`
        (a figure on other spots) does not."""
        new = frozenset((str(f), str(c)) for f, c in pairs)
        if new != self._hidden:
            self._hidden = new
            self._masked = None

    def set_apart(self, pairs: Iterable[tuple[str, str]]) -> None:
        """Name pairs of figures inside one building on different floors: neither sees
        the other (a floor is not a door or a window, 8.3).  The matrix and rows mask
        them, as the hidden pairs."""
        new = frozenset(tuple(sorted((str(a), str(b)))) for a, b in pairs)
        if new != self._apart:
            self._apart = new  # type: ignore[assignment]
            self._masked = None

    def apart(self, figure: str, other: str) -> bool:
        """Whether a floor parts the two figures (:meth:`set_apart`)."""
        return tuple(sorted((figure, other))) in self._apart

    def hides(self, figure: str, other: str) -> bool:
        """Whether ``figure`` and ``other`` are a hidden pair, either way round."""
        return (figure, other) in self._hidden or (other, figure) in self._hidden

    # -- queries -----------------------------------------------------------

    @property
    def index(self) -> TerrainIndex:
        """The terrain index, rebuilt only when the terrain changed."""
        if self._index is None or self._index.terrain_revision != self.battlefield.terrain_revision:
            self._index = build_index(self.battlefield, self.rules)
            self._full = True
        return self._index

    def matrix(self) -> SightMatrix:
        """The all-pairs matrix for the battlefield's current revision, with the
        hidden pairs (:meth:`set_hidden`) masked."""
        raw = self._raw_matrix()
        if not self._hidden and not self._apart:
            return raw
        if self._masked is None or self._masked[0] is not raw:
            masked = _mask_hidden(raw, self._hidden) if self._hidden else raw.copy()
            self._masked = (raw, _mask_apart(masked, self._apart))
        return self._masked[1]

    def _raw_matrix(self) -> SightMatrix:
        """The all-pairs matrix as the table gives it."""
        index = self.index
        m = self._matrix
        fresh = m is not None and m.revision == self.battlefield.revision
        if fresh and not self._full and not self._dirty:
            assert m is not None
            return m
        ids = self.battlefield.figure_ids()
        if (
            m is None
            or self._full
            or self._vp is None
            or ids != m.ids
            or len(self._dirty) > INCREMENTAL_LIMIT
        ):
            self._matrix = self._compute_full(index)
        else:
            self._matrix = self._update(index, m, self._vp, sorted(self._dirty))
        self._masked = None  # _update may have changed the matrix in place
        self._dirty.clear()
        self._full = False
        return self._matrix

    def row(self, figure_id: str) -> SightRow:
        """LOS, Cover and cohesion links of one figure against all others, now.

        Cheaper than :meth:`matrix` after a move: only the figure's own pairs are
        judged, the cache is left alone (call :meth:`matrix` when the move ends).
        """
        index = self.index
        if self._vp is None or self._full or self.battlefield.figure_ids() != self._vp.ids:
            self._raw_matrix()
        assert self._vp is not None
        pos = self._positions(self._vp)
        changed = sorted(pos[c] for c in self._dirty | {figure_id} if c in pos)
        vp = self._viewpoints_for(index, self._vp, changed)
        k = pos[figure_id]
        n = len(vp)
        others = np.delete(np.arange(n), k)
        res = evaluate(index, vp, np.full(len(others), k, dtype=np.int64), others, self.rules)
        sees = np.zeros(n, dtype=bool)
        seen_by = np.zeros(n, dtype=bool)
        cover_from = np.zeros(n, dtype=bool)
        concealed_from = np.zeros(n, dtype=bool)
        cover_to = np.zeros(n, dtype=bool)
        dist = np.zeros(n, dtype=np.float64)
        sees[others] = res.ab == 0
        seen_by[others] = res.ba == 0
        cover_from[others] = res.cover_ab & sees[others]
        concealed_from[others] = res.concealed_ab & sees[others]
        cover_to[others] = res.cover_ba & seen_by[others]
        dist[others] = res.distance
        for j, oid in enumerate(vp.ids):
            if self._apart and j != k and tuple(sorted((figure_id, oid))) in self._apart:
                sees[j] = seen_by[j] = cover_from[j] = concealed_from[j] = cover_to[j] = False
                continue
            if j == k or not self.hides(figure_id, oid):
                continue
            if (figure_id, oid) in self._hidden:  # the row's figure ducked back
                safe = not seen_by[j] or cover_to[j]
            else:  # the cause's row
                safe = not sees[j] or cover_from[j]
            if safe:
                sees[j] = seen_by[j] = cover_from[j] = concealed_from[j] = cover_to[j] = False
        bf = self.battlefield
        me = bf.figure(figure_id)
        links: list[str] = []
        if me.status.can_act:
            near = np.flatnonzero((dist <= 4.0) & (sees | seen_by))
            for j in near.tolist():
                other = bf.figure(vp.ids[j])
                if j != k and other.side == me.side and other.status.can_act:
                    links.append(other.id)
        return SightRow(
            figure_id,
            list(vp.ids),
            sees,
            seen_by,
            cover_from,
            concealed_from,
            cover_to,
            dist,
            links,
        )

    def explain(self, viewer: str, target: str) -> LosResult:
        """The detailed verdict for one pair, naming the blocking feature or figure."""
        index = self.index
        vp = self._viewpoints(index)
        return explain(index, vp, vp.ids.index(viewer), vp.ids.index(target), self.rules)

    def spots(
        self,
        figure: str | Figure,
        points: Sequence[tuple[float, float]],
        viewers: Sequence[str],
        *,
        all_round: bool = False,
        moving: bool | None = None,
        friends_block: bool = True,
        facings: Sequence[float] | None = None,
    ) -> SpotVerdicts:
        """Judge the figure standing on each spot against each viewer, in one pass.

        The other figures stay where they are and block as the rules say; the
        spots are one figure, so they never block each other.  ``all_round``
        ignores every facing (the figure turns to its target when it gets there,
        and the Cover a spot gives does not depend on where a viewer happens to
        face); otherwise facings count as the matrix's do.  ``moving`` says
        whether the figure counts as moving (7.9.5) on the spots; None: as it
        does now.  ``friends_block=False`` lets the sight lines pass the figure's
        own side (friends move away, and a friend's body is no Cover).  ``figure``
        is a figure's id, or a figure that need not be on the table (a PEF judged
        as a figure, 11.2).  ``facings`` gives the figure's facing on each spot (a
        walk looks along its path); None: its facing now.
        """
        bf = self.battlefield
        index = self.index
        fig = bf.figure(figure) if isinstance(figure, str) else figure
        figure_id = fig.id
        others = [o for o in bf.figures() if o.id != figure_id]
        pos = {o.id: k for k, o in enumerate(others)}
        cols = [pos[v] for v in viewers]
        n, n_p, n_v = len(others), len(points), len(cols)
        shape = (n_p, n_v)
        pts = np.array(points, dtype=np.float64).reshape(-1, 2)
        if not n_p or not n_v:
            none = np.zeros(shape, dtype=bool)
            return SpotVerdicts(
                figure_id, pts, tuple(viewers), none, none, none, np.zeros(shape), none
            )
        on_the_move = figure_id in self._moving if moving is None else moving
        everyone = self._current_viewpoints(index)
        keep = [k for k, i in enumerate(everyone.ids) if i != figure_id]
        probes = probe_viewpoints(index, self.rules, fig, pts, moving=on_the_move)
        if facings is not None:
            # as Figure.facing_vector works them out (the same floats as a row's)
            probes.fx[:] = [math.sin(math.radians(f)) for f in facings]
            probes.fy[:] = [-math.cos(math.radians(f)) for f in facings]
        if figure_id in self._lit:
            probes.lit[:] = True
        vp = join_viewpoints(everyone, keep, probes)
        if all_round:
            vp.fx[:] = 0.0
            vp.fy[:] = 0.0
        vp.blocks[n:] = False
        a = np.repeat(np.arange(n, n + n_p, dtype=np.int64), n_v)
        b = np.tile(np.array(cols, dtype=np.int64), n_p)
        friends = [k for k, o in enumerate(others) if o.side == fig.side and vp.blocks[k]]
        if not friends_block and friends:
            # hiding behind a friend is no Cover (and the friend may move on): judge
            # with friends out of the way; but the figure's own shots are blocked by
            # friends where they stand now, so put their bases back for those, on the
            # sight lines that judgement found open (a full judgement only where
            # that cannot settle it)
            vp.blocks[friends] = False
            res = evaluate(index, vp, a, b, self.rules)
            vp.blocks[friends] = True
            ab_open = res.ab == 0
            rows = np.flatnonzero(ab_open)
            if len(rows):
                clear, unsure = recheck_bases(vp, a[rows], b[rows], res.line_state[rows])
                ab_open[rows] = clear
                redo = rows[unsure]
                if len(redo):
                    ab_open[redo] = evaluate(index, vp, a[redo], b[redo], self.rules).ab == 0
            sees = ab_open.reshape(shape)
        else:
            res = evaluate(index, vp, a, b, self.rules)
            sees = (res.ab == 0).reshape(shape)
        seen = (res.ba == 0).reshape(shape)
        return SpotVerdicts(
            figure_id,
            pts,
            tuple(viewers),
            sees,
            seen,
            res.cover_ba.reshape(shape) & seen,
            res.distance.reshape(shape),
            res.cover_ab.reshape(shape) & sees,
        )

    def _current_viewpoints(self, index: TerrainIndex) -> Viewpoints:
        """Every figure as it stands now, patched from the matrix's viewpoints (as
        :meth:`row` does) without judging any pair."""
        if self._vp is None or self._full or self.battlefield.figure_ids() != self._vp.ids:
            self._raw_matrix()
        assert self._vp is not None
        pos = self._positions(self._vp)
        changed = sorted(pos[c] for c in self._dirty if c in pos)
        return self._viewpoints_for(index, self._vp, changed)

    def viewpoints(self) -> Viewpoints:
        """Current figures as arrays (shared with the cohesion and movement code)."""
        self._raw_matrix()
        assert self._vp is not None
        return self._vp

    # -- internals ---------------------------------------------------------

    def _on_change(self, change: Change) -> None:
        if change.kind is ChangeKind.CHANGED and change.what == "figure":
            self._dirty.add(change.id)
        elif change.kind is ChangeKind.CHANGED and change.what == "figures":
            self._dirty.update(change.ids)  # a batch (or a restore): just these figures
        else:
            self._full = True  # added, removed, reset (terrain, or a restore of the rosters)

    def _viewpoints(self, index: TerrainIndex) -> Viewpoints:
        return viewpoints(self.battlefield, index, self.rules, moving=self._moving, lit=self._lit)

    def _compute_full(self, index: TerrainIndex) -> SightMatrix:
        self.full_recomputes += 1
        vp = self._viewpoints(index)
        self._vp = vp
        n = len(vp)
        a, b = np.triu_indices(n, 1)
        m = SightMatrix(
            revision=self.battlefield.revision,
            ids=list(vp.ids),
            visible=np.zeros((n, n), dtype=bool),
            cover=np.zeros((n, n), dtype=bool),
            concealed=np.zeros((n, n), dtype=bool),
            distance=np.zeros((n, n), dtype=np.float64),
        )
        self._gate = np.zeros((n, n), dtype=bool)
        self._raw_cover = np.zeros((n, n), dtype=bool)
        self._raw_conc = np.zeros((n, n), dtype=bool)
        self._lines = np.zeros((n, n, 3), dtype=np.int8)
        self._open = np.zeros((n, n), dtype=bool)
        self._store(m, index, vp, a, b)
        return m

    def _store(
        self,
        m: SightMatrix,
        index: TerrainIndex,
        vp: Viewpoints,
        a: npt.NDArray[np.int64],
        b: npt.NDArray[np.int64],
    ) -> None:
        if not len(a):
            return
        res = evaluate(index, vp, a, b, self.rules)
        if los.compiled_route():
            pair = np.ascontiguousarray(res.a), np.ascontiguousarray(res.b)
            verdicts: tuple[Any, ...] = (*pair, res.distance, res.ab, res.ba, res.gate_ab)
            verdicts += (res.gate_ba,)
            verdicts += (res.cover_ab, res.cover_ba, res.concealed_ab, res.concealed_ba)
            targets: tuple[Any, ...] = (
                self._gate,
                self._raw_cover,
                self._raw_conc,
                m.visible,
                m.cover,
            )
            targets += (m.concealed, m.distance, self._lines, self._open)
            kernels.store_pairs((*verdicts, res.line_state), 0, targets)
            return
        n = m.visible.shape[0]
        fab, fba = a * n + b, b * n + a  # flat positions of [a, b] and [b, a]
        ab, ba = res.ab == 0, res.ba == 0
        for arr, x, y in (
            (self._gate, res.gate_ab, res.gate_ba),
            (self._raw_cover, res.cover_ab, res.cover_ba),
            (self._raw_conc, res.concealed_ab, res.concealed_ba),
            (m.visible, ab, ba),
            (m.cover, res.cover_ab & ab, res.cover_ba & ba),
            (m.concealed, res.concealed_ab & ab, res.concealed_ba & ba),
            (m.distance, res.distance, res.distance),
        ):
            np.put(arr, fab, x)
            np.put(arr, fba, y)
        self._lines.reshape(n * n, 3)[fab] = res.line_state
        # pairs a moved base could block or unblock: some line open on terrain, a gate open
        np.put(
            self._open, fab, (res.line_state == LINE_OPEN).any(axis=1) & (res.gate_ab | res.gate_ba)
        )

    def _publish(
        self,
        m: SightMatrix,
        a: npt.NDArray[np.int64],
        b: npt.NDArray[np.int64],
        ab: npt.NDArray[np.bool_],
        ba: npt.NDArray[np.bool_],
    ) -> None:
        m.visible[a, b] = ab
        m.visible[b, a] = ba
        m.cover[a, b] = self._raw_cover[a, b] & ab
        m.cover[b, a] = self._raw_cover[b, a] & ba
        m.concealed[a, b] = self._raw_conc[a, b] & ab
        m.concealed[b, a] = self._raw_conc[b, a] & ba

    def _positions(self, vp: Viewpoints) -> dict[str, int]:
        if self._pos_ids is not vp.ids:
            self._pos = {fid: k for k, fid in enumerate(vp.ids)}
            self._pos_ids = vp.ids
        return self._pos

    def _update(
        self, index: TerrainIndex, m: SightMatrix, vp: Viewpoints, changed: list[str]
    ) -> SightMatrix:
        """Judge again the rows of changed figures; recheck only bases for pairs near them.

        A pair whose two ends stayed put keeps its terrain verdicts; a moved or
        downed base can only block or unblock its lines, so those pairs just
        have the bases checked again (:func:`kernels.recheck_moved`, or on the numpy
        route :func:`recheck_near`) -- and only pairs with a line open on terrain
        and a gate open can change at all.  The
        rows of the changed figures and the pairs the bases leave unsure are
        judged in one :func:`evaluate` call.
        """
        pos = self._positions(vp)
        ks = sorted(pos[c] for c in changed if c in pos)
        spots = [(vp.x[k], vp.y[k], vp.r[k]) for k in ks if vp.blocks[k]]
        fresh = self._viewpoints_for(index, vp, ks)
        n = len(fresh)
        out = m.copy()
        out.revision = self.battlefield.revision
        # rows of the changed figures: everything again
        moved = np.zeros(n, dtype=bool)
        moved[ks] = True
        if len(ks) == 1:
            ra, rb = self._row_pairs(n, ks[0])
        else:
            ia, ib = np.triu_indices(n, 1)
            row = moved[ia] | moved[ib]
            ra, rb = ia[row], ib[row]
        # other pairs whose sight lines pass near a changed base, before or after
        spots += [(fresh.x[k], fresh.y[k], fresh.r[k]) for k in ks if fresh.blocks[k]]
        spot_rows = np.array(spots, dtype=np.float64).reshape(-1, 3)
        if spots and los.compiled_route():
            again = np.empty((n * (n - 1) // 2, 2), dtype=np.int64)
            view = (fresh.x, fresh.y, fresh.r, fresh.fx, fresh.fy, fresh.blocks)
            matrices: tuple[Any, ...] = (self._open, self._gate, self._raw_cover, self._raw_conc)
            matrices += (out.visible, out.cover, out.concealed)
            left = kernels.recheck_moved(
                view, self._lines, moved, spot_rows, GRAZE, SAMPLE_FRACTION, matrices, again
            )
            if left:
                ra = np.concatenate([ra, again[:left, 0]])
                rb = np.concatenate([rb, again[:left, 1]])
        elif spots:
            cand = self._open.copy()
            cand[ks, :] = False
            cand[:, ks] = False
            a, b = np.nonzero(cand)
            if len(a):
                near, open_any, unsure = recheck_near(fresh, a, b, self._lines[a, b], spot_rows)
                a, b = a[near], b[near]
            if len(a):
                self._publish(out, a, b, open_any & self._gate[a, b], open_any & self._gate[b, a])
                if unsure.any():
                    ra = np.concatenate([ra, a[unsure]])
                    rb = np.concatenate([rb, b[unsure]])
        self._store(out, index, fresh, ra, rb)
        self._vp = fresh
        return out

    def _row_pairs(self, n: int, k: int) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Pairs (low, high) joining figure k to every other of n (remembered; never written
        to -- and not flagged read-only either, which the kernels would compile again for)."""
        key = (n, k)
        pairs = self._rows_cache.get(key)
        if pairs is None:
            others = np.delete(np.arange(n), k)
            pairs = (np.minimum(others, k), np.maximum(others, k))
            if len(self._rows_cache) > 4 * n:
                self._rows_cache.clear()
            self._rows_cache[key] = pairs
        return pairs

    def _viewpoints_for(self, index: TerrainIndex, vp: Viewpoints, ks: list[int]) -> Viewpoints:
        """Copy ``vp`` with the changed figures read again from the battlefield."""
        if not ks:
            return vp
        bf = self.battlefield
        one = viewpoints(
            bf,
            index,
            self.rules,
            figures=[bf.figure(vp.ids[k]) for k in ks],
            moving=self._moving,
            lit=self._lit,
        )
        return vp.with_rows(ks, one)


__all__ = ["SightMatrix", "SightRow", "SpotVerdicts", "VisibilityService"]


def _mask_apart(m: SightMatrix, apart: frozenset[tuple[str, str]]) -> SightMatrix:
    """``m`` (a copy, changed in place) with each pair a floor parts seeing nothing of
    the other."""
    pos = {fid: k for k, fid in enumerate(m.ids)}
    for a, b in sorted(apart):
        i, j = pos.get(a), pos.get(b)
        if i is None or j is None:
            continue
        for x, y in ((i, j), (j, i)):
            m.visible[x, y] = m.cover[x, y] = m.concealed[x, y] = False
    return m


def _mask_hidden(raw: SightMatrix, hidden: frozenset[tuple[str, str]]) -> SightMatrix:
    """``raw`` with each hidden (figure, cause) pair seeing nothing of the other, while
    the figure is out of the cause's sight or in Cover from it (7.4.4)."""
    out = raw.copy()
    pos = {fid: k for k, fid in enumerate(raw.ids)}
    for fig, cause in sorted(hidden):
        i, j = pos.get(fig), pos.get(cause)
        if i is None or j is None:
            continue
        if raw.visible[j, i] and not raw.cover[j, i]:
            continue  # the cause stands where the figure is not in Cover from it
        for a, b in ((i, j), (j, i)):
            out.visible[a, b] = out.cover[a, b] = out.concealed[a, b] = False
    return out
