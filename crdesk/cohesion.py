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
import numpy.typing as npt

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
    pos = {fid: k for k, fid in enumerate(matrix.ids)}
    for f in figs:
        g.add_node(f.id, side=f.side)
    idx = np.array([pos[f.id] for f in figs], dtype=np.int64)
    if len(idx) > 1:
        sub_d = matrix.distance[np.ix_(idx, idx)]
        sub_v = matrix.visible[np.ix_(idx, idx)]
        sides = np.array([f.side for f in figs])
        ok = (sub_d <= COHESION_DISTANCE) & (sub_v | sub_v.T) & (sides[:, None] == sides[None, :])
        ii, jj = np.nonzero(np.triu(ok, 1))
        g.add_edges_from((figs[i].id, figs[j].id) for i, j in zip(ii, jj, strict=True))
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
            leader = _leader([figs[m] for m in pending])
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
    """The cohesion graph kept up to date incrementally from a :class:`VisibilityService`."""

    def __init__(self, service: VisibilityService) -> None:
        self.service = service
        self._matrix = service.matrix()
        self.graph = cohesion_graph(service.battlefield, self._matrix)
        self._pos: dict[str, int] = {}
        self._pos_ids: list[str] = []
        self._sides_key: tuple[str, ...] = ()
        self._sides = np.zeros(0, dtype=np.int64)
        self._in_graph = np.zeros(0, dtype=bool)
        """Which figures are nodes of the graph (as of the last update; empty: unknown)."""

    def update(self, changed: Iterable[str] | None = None) -> nx.Graph:
        """Refresh after figures moved or changed status; ``None`` means "look for changes".

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
            self._in_graph = np.zeros(0, dtype=bool)
            return self.graph
        ids = new.ids
        figs = list(bf.figures())  # roster order: the matrix's order
        sides = self._side_codes(figs)
        graph = self.graph
        act = np.array([_CAN_ACT[f.status] for f in figs], dtype=bool)
        in_graph = self._in_graph
        if len(in_graph) != len(ids):
            present = set(graph)
            in_graph = np.array([fid in present for fid in ids], dtype=bool)
        touched = act != in_graph
        if changed:
            pos = self._positions(ids)
            for fid in changed:
                k = pos.get(fid)
                if k is not None:
                    touched[k] = True
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
                graph.add_node(ids[k], side=figs[k].side)
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
        self._in_graph = act
        return self.graph

    def _positions(self, ids: list[str]) -> dict[str, int]:
        if ids != self._pos_ids:
            self._pos = {fid: k for k, fid in enumerate(ids)}
            self._pos_ids = list(ids)
        return self._pos

    def _side_codes(self, figs: list[Figure]) -> npt.NDArray[np.int64]:
        """Each figure's side as a small int (equal ints, same side), remembered."""
        key = tuple(f.side for f in figs)
        if key != self._sides_key:
            codes: dict[str, int] = {}
            self._sides = np.array([codes.setdefault(x, len(codes)) for x in key], dtype=np.int64)
            self._sides_key = key
        return self._sides

    def groups(self, rules: RulesOptions, side: str | None = None) -> list[Group]:
        return _groups_from_graph(self.service.battlefield, self.graph, rules, side)
