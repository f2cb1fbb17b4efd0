"""Groups, cohesion and leaders (digest 5; book 6.2, 6.3) with networkx.

Interpretation ``cohesion_chain`` (default): the nodes are one side's figures
that can still act; an edge joins two figures within 4" of each other (base to
base) with LOS between them either way ("has LOS to, or is in LOS of"); every
connected component is a group.  So a chain is one group and splits when its
middle figure goes down.  With the option off, every member must be linked to
the group's Leader directly: each component is split into the Leader's
neighbourhood and whatever remains, recursively.

The Leader is the Star if the group has one, else the highest Rep (the
Temporary Leader, 6.3.1), ties by roster order.

:class:`Cohesion` keeps the graph and updates only the edges of figures that
changed; :func:`groups` recomputes from scratch.  Both give the same groups.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import networkx as nx
import numpy as np

from crdesk.events import Change, ChangeKind
from crdesk.model import Battlefield, Figure, Status
from crdesk.options import RulesOptions
from crdesk.visibility import SightMatrix, VisibilityService

COHESION_DISTANCE = 4.0
"""Figures within 4" (and in LOS) keep a group together (6.2)."""

_CAN_ACT = {status: status.can_act for status in Status}
"""``Status.can_act`` looked up once per status (the property is slow in a loop)."""


@dataclass(frozen=True, slots=True)
class Group:
    """One group: its Leader and members in roster order (6.2, 6.3)."""

    side: str
    leader: str
    members: tuple[str, ...]
    star_led: bool
    """False when the Leader is a Temporary Leader (highest Rep, no Leader Die)."""


def cohesion_graph(battlefield: Battlefield, matrix: SightMatrix) -> nx.Graph:
    """The cohesion graph of every side: nodes are figures that can act (6.2)."""
    g = nx.Graph()
    figs = [f for f in battlefield.figures() if _CAN_ACT[f.status]]
    by_side: dict[str, list[str]] = {}
    for f in figs:
        by_side.setdefault(f.side, []).append(f.id)
    for side, members in by_side.items():
        g.add_nodes_from(members, side=side)
    if len(figs) < 2:
        return g
    pos = {fid: k for k, fid in enumerate(matrix.ids)}
    idx = np.array([pos[f.id] for f in figs], dtype=np.int64)
    whole = len(idx) == len(matrix.ids) and bool((idx == np.arange(len(idx))).all())
    dist = matrix.distance if whole else matrix.distance[np.ix_(idx, idx)]
    vis = matrix.visible if whole else matrix.visible[np.ix_(idx, idx)]
    codes: dict[str, int] = {}
    sides = np.array([codes.setdefault(f.side, len(codes)) for f in figs], dtype=np.int64)
    ok = (dist <= COHESION_DISTANCE) & (vis | vis.T) & (sides[:, None] == sides[None, :])
    ii, jj = np.nonzero(np.triu(ok, 1))
    ids = [f.id for f in figs]
    g.add_edges_from(zip([ids[i] for i in ii.tolist()], [ids[j] for j in jj.tolist()], strict=True))
    return g


def _leader(members: list[Figure]) -> Figure:
    stars = [f for f in members if f.is_star]
    if stars:
        return max(stars, key=lambda f: f.rep)  # several Stars: the highest Rep (6.3.2)
    best = max(f.rep for f in members)
    return next(f for f in members if f.rep == best)


def _groups_from_graph(
    battlefield: Battlefield, g: nx.Graph, rules: RulesOptions, side: str | None
) -> list[Group]:
    roster = {f.id: k for k, f in enumerate(battlefield.figures())}
    figs = {f.id: f for f in battlefield.figures()}
    out: list[Group] = []
    for comp in nx.connected_components(g):
        members = sorted(comp, key=roster.__getitem__)
        if side is not None and figs[members[0]].side != side:
            continue
        pending = members
        while pending:
            leader = figs[pending[0]] if len(pending) == 1 else _leader([figs[m] for m in pending])
            if rules.interpretations.cohesion_chain:
                taken = pending
            else:
                near = set(g.neighbors(leader.id)) | {leader.id}
                taken = [m for m in pending if m in near]
            out.append(
                Group(
                    side=leader.side,
                    leader=leader.id,
                    members=tuple(taken),
                    star_led=leader.is_star,
                )
            )
            pending = [m for m in pending if m not in taken]
            if not rules.interpretations.cohesion_chain and pending:
                # what is left may fall apart further: recompute its components
                sub = g.subgraph(pending)
                out.extend(_groups_from_graph(battlefield, nx.Graph(sub), rules, side))
                pending = []
    out.sort(key=lambda grp: roster[grp.members[0]])
    return out


def groups(
    battlefield: Battlefield,
    matrix: SightMatrix,
    rules: RulesOptions,
    side: str | None = None,
) -> list[Group]:
    """Every group (of one side, or of all sides), recomputed from scratch (6.2)."""
    return _groups_from_graph(battlefield, cohesion_graph(battlefield, matrix), rules, side)


class Cohesion:
    """The cohesion graph kept up to date incrementally from a :class:`VisibilityService`.

    It listens to the battlefield, as the service does, so that it knows which
    figures changed (moved, went down, changed side) whatever the caller says.
    """

    def __init__(self, service: VisibilityService) -> None:
        self.service = service
        self._matrix = service.matrix()
        self.graph = cohesion_graph(service.battlefield, self._matrix)
        self._dirty: set[str] = set()
        self._stale = True
        """Figures were added, removed or reordered: per-figure arrays are rebuilt."""
        self._pos: dict[str, int] = {}
        self._act = np.zeros(0, dtype=bool)
        """Which figures can act -- the nodes of the graph."""
        self._sides = np.zeros(0, dtype=np.int64)
        self._side_code: dict[str, int] = {}
        self._unsubscribe = service.battlefield.subscribe(self._on_change)

    def close(self) -> None:
        """Stop listening to the battlefield."""
        self._unsubscribe()

    def _on_change(self, change: Change) -> None:
        if change.kind is ChangeKind.CHANGED and change.what == "figure":
            self._dirty.add(change.id)
        elif change.kind is ChangeKind.CHANGED and change.what == "figures":
            self._dirty.update(change.ids)  # a batch (or a restore): just these figures
        elif change.what == "figures":
            # a restore that changed the rosters: any figure's side or state may differ
            self._stale = True
            self._dirty.update(self.service.battlefield.figure_ids())
        elif change.what in ("figure", "force"):
            self._stale = True

    def update(self, changed: Iterable[str] | None = None) -> nx.Graph:
        """Refresh after figures moved or changed status (``changed`` is a hint: the
        battlefield's own change events are what counts).

        Only the edges touching changed figures are rebuilt; if the sight matrix
        changed elsewhere too (a moved base unblocking other lines), those pairs
        are picked up by comparing the old and new matrices.
        """
        new = self.service.matrix()
        old = self._matrix
        bf = self.service.battlefield
        if new.ids != old.ids:
            self.graph = cohesion_graph(bf, new)
            self._matrix = new
            self._stale = True
            return self.graph
        ids = new.ids
        graph = self.graph
        if self._stale or len(self._act) != len(ids):
            self._refresh_all(ids)
        in_graph = self._act
        act, sides = in_graph.copy(), self._sides.copy()
        pos = self._pos
        touched = np.zeros(len(ids), dtype=bool)
        for fid in self._dirty | set(changed or ()):
            k = pos.get(fid)
            if k is not None:
                fig = bf.figure(fid)
                act[k] = _CAN_ACT[fig.status]
                sides[k] = self._side_code.setdefault(fig.side, len(self._side_code))
                touched[k] = True
        self._dirty.clear()
        diff = old.visible != new.visible
        diff |= (old.distance <= COHESION_DISTANCE) != (new.distance <= COHESION_DISTANCE)
        touched |= diff.any(axis=0)
        touched |= diff.any(axis=1)
        order = np.flatnonzero(touched).tolist()
        for k in order:
            if in_graph[k]:
                graph.remove_node(ids[k])
        for k in order:
            if act[k]:
                graph.add_node(ids[k], side=bf.figure(ids[k]).side)
        mine = np.array([k for k in order if act[k]], dtype=np.int64)
        if len(mine):
            vis = new.visible
            rows = (new.distance[mine] <= COHESION_DISTANCE) & (vis[mine] | vis[:, mine].T)
            rows &= act[None, :] & (sides[None, :] == sides[mine][:, None])
            rows[np.arange(len(mine)), mine] = False
            r, c = np.nonzero(rows)
            graph.add_edges_from(
                zip([ids[k] for k in mine[r].tolist()], [ids[j] for j in c.tolist()], strict=True)
            )
        self._matrix = new
        self._act, self._sides = act, sides
        return self.graph

    def _refresh_all(self, ids: list[str]) -> None:
        """Per-figure arrays for the whole roster; the graph's nodes stay as they are."""
        bf = self.service.battlefield
        figs = [bf.figure(fid) for fid in ids]
        present = set(self.graph)
        self._pos = {fid: k for k, fid in enumerate(ids)}
        self._act = np.array([fid in present for fid in ids], dtype=bool)
        self._side_code = {}
        self._sides = np.array(
            [self._side_code.setdefault(f.side, len(self._side_code)) for f in figs],
            dtype=np.int64,
        )
        # figures whose state differs from the graph are looked at in this update
        self._dirty |= {f.id for f in figs if _CAN_ACT[f.status] != (f.id in present)}
        self._stale = False

    def groups(self, rules: RulesOptions, side: str | None = None) -> list[Group]:
        """The groups as the battlefield stands now (6.2): the graph is brought up to date
        first, so what a rule reads never depends on when the graph was last updated
        -- a game put back to a checkpoint (undo, a replay viewer's step, a fork) reads
        the same groups as the game that played on (kept games: a reaction's Leader Die
        read a graph of later positions after a restore, and the step replayed with
        other dice)."""
        self.update()
        return _groups_from_graph(self.service.battlefield, self.graph, rules, side)
