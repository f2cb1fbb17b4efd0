"""Build a scenario at the limits of :mod:`crdesk.limits` and time the commands on it.

``python tools/fuzz/at_limits.py OUT.crdesk`` writes a 480" x 480" table with
1,000 features of 100 points each (100,000 points), 400 figures and a full
generation record, then times ``validate``, ``los``, ``render`` (at the largest
dpi the pixel limit allows) and prints each command's seconds and peak memory.
The figures go in the closing note of issue 17 as the measured worst case.
"""

from __future__ import annotations

import json
import math
import random
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from crdesk import limits

KINDS = ["woods", "impassable", "hill", "cover", "building"]


def document(seed: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    side = limits.TABLE_MAX
    per = limits.POINTS_TOTAL // limits.FEATURES
    terrain = []
    for i in range(limits.FEATURES):
        kind = KINDS[i % len(KINDS)]
        cx, cy = rng.uniform(0, side), rng.uniform(0, side)
        r = rng.uniform(1, 6)
        ring = [
            [
                round(cx + r * (1 + 0.2 * rng.random()) * math.cos(2 * math.pi * k / per), 3),
                round(cy + r * (1 + 0.2 * rng.random()) * math.sin(2 * math.pi * k / per), 3),
            ]
            for k in range(per)
        ]
        feature: dict[str, Any] = {"id": f"t{i}", "kind": kind, "name": f"T{i}", "outline": ring}
        if kind == "hill":
            feature["crest"] = [[cx - r / 2, cy], [cx + r / 2, cy]]
        if kind == "building":
            feature["outline"] = [[cx, cy], [cx + 4, cy], [cx + 4, cy + 3], [cx, cy + 3]]
            feature["floors"] = 1
            feature["areas"] = [feature["outline"]]
            feature["openings"] = [{"kind": "door", "start": [cx + 1, cy], "end": [cx + 2, cy]}]
        terrain.append(feature)
    forces = []
    per_force = limits.FIGURES_PER_TABLE // 2
    for k in range(2):
        figures = [
            {
                "id": f"f{k}-{i}",
                "rep": 4,
                "position": [rng.uniform(0, side), rng.uniform(0, side)],
                "facing": rng.uniform(0, 359),
            }
            for i in range(per_force)
        ]
        forces.append({"id": f"side{k}", "player": k == 0, "figures": figures})
    return {
        "format_version": 1,
        "title": "At the limits",
        "table": {"width": side, "height": side},
        "terrain": terrain,
        "forces": forces,
    }


def huge_buildings(buildings: int = 2, seed: int = 1) -> dict[str, Any]:
    """A 72" x 48" table of 400 figures and ``buildings`` buildings whose outlines have
    all but a few of :data:`~crdesk.limits.POINTS_PER_OUTLINE` points (issue 33, 9): a
    file ``validate`` accepts whose sight once cost the numpy route gigabytes."""
    rng = random.Random(seed)
    width, height = 72.0, 48.0
    per = limits.POINTS_PER_OUTLINE - 3
    terrain = []
    for i in range(buildings):
        cx = width * (i + 1) / (buildings + 1)
        cy = height / 2 + (4 if i % 2 else -4)
        r = min(6.0, width / (2 * buildings + 2))
        radii = [r * (1 + 0.05 * rng.random()) for _ in range(per)]  # star-shaped: simple
        ring = [
            [
                round(cx + radii[k] * math.cos(2 * math.pi * k / per), 4),
                round(cy + radii[k] * math.sin(2 * math.pi * k / per), 4),
            ]
            for k in range(per)
        ]
        door = ring[per // 4]
        terrain.append(
            {
                "id": f"b{i}",
                "kind": "building",
                "name": f"Huge {i}",
                "outline": ring,
                "floors": 1,
                # one area of three of its corners: 10,000 points a building in all
                "areas": [[ring[0], ring[per // 3], ring[2 * per // 3]]],
                "openings": [{"kind": "door", "start": door, "end": ring[per // 4 + 40]}],
            }
        )
    forces = []
    for k in range(2):
        figures = [
            {
                "id": f"f{k}-{i}",
                "rep": 4,
                "position": [
                    round(rng.uniform(1, width - 1), 3),
                    round(rng.uniform(1, height - 1), 3),
                ],
                "facing": round(rng.uniform(0, 359), 1),
            }
            for i in range(limits.FIGURES_PER_TABLE // 2)
        ]
        forces.append({"id": f"side{k}", "player": k == 0, "figures": figures})
    return {
        "format_version": 1,
        "title": f"{buildings} huge buildings",
        "table": {"width": width, "height": height},
        "terrain": terrain,
        "forces": forces,
    }


def _timed(argv: list[str]) -> tuple[float, float, int]:
    start = time.perf_counter()
    proc = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, check=False)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.perf_counter() - start, usage.ru_maxrss / 1024, proc.returncode


def main() -> int:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "at-limits.crdesk")
    out.write_text(json.dumps(document()), encoding="utf-8")
    print(f"wrote {out} ({out.stat().st_size / 1e6:.1f} MB)")
    exe = [sys.executable, "-m", "crdesk"]
    dpi = limits.max_dpi(limits.TABLE_MAX + 2, limits.TABLE_MAX + 2)
    png = out.with_suffix(".png")
    for name, argv in (
        ("validate", [*exe, "validate", str(out)]),
        ("los (all pairs)", [*exe, "los", str(out)]),
        (f"render --dpi {dpi:g}", [*exe, "render", str(out), "-o", str(png), "--dpi", str(dpi)]),
    ):
        seconds, peak_mb, status = _timed(argv)
        print(f"{name}: {seconds:.1f} s, peak {peak_mb:.0f} MB (largest so far), exit {status}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
