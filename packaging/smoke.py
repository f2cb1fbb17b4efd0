"""Start a built crdesk bundle headless and check that it works; exit 1 if not.

``make dist`` runs it on ``dist/crdesk``: the command line (``--version``,
``validate``), the Qt renderer (``render`` to PNG) and the GUI itself (offscreen,
on the bundled demo table, quitting once its window is up; ``CRDESK_SMOKE_TEST``
makes it print what opened and which sight route it runs on).  The bundle runs
with a bare environment (no PYTHONPATH, no virtual environment on PATH), as on
a machine without Python.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run(program: Path, *args: str, **env: str) -> tuple[str, float]:
    bare = {"PATH": "/usr/bin:/bin", "HOME": env.pop("HOME"), "LANG": "C.UTF-8", **env}
    start = time.perf_counter()
    done = subprocess.run(
        [str(program), *args], env=bare, capture_output=True, text=True, timeout=180
    )
    took = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(
            f"smoke test failed: {program.name} {' '.join(args)} exited {done.returncode}\n"
            f"{done.stdout}{done.stderr}"
        )
    return done.stdout, took


def main(folder: str) -> int:
    program = Path(folder) / ("crdesk.exe" if os.name == "nt" else "crdesk")
    demo = Path(folder) / "_internal" / "crdesk_resources" / "scenarios" / "demo-urban.crdesk"
    if not program.is_file() or not demo.is_file():
        print(f"smoke test failed: no bundle at {folder} (build it with make dist)")
        return 1
    with tempfile.TemporaryDirectory() as home:
        out, took = run(program, "--version", HOME=home)
        print(f"  --version: {out.strip()} ({took:.1f} s)")
        out, took = run(program, "validate", str(demo), HOME=home)
        print(f"  validate: {out.strip()} ({took:.1f} s)")
        png = Path(home) / "demo.png"
        out, took = run(
            program, "render", str(demo), "-o", str(png), HOME=home, QT_QPA_PLATFORM="offscreen"
        )
        if not png.is_file() or png.read_bytes()[:4] != b"\x89PNG":
            print("smoke test failed: render wrote no PNG")
            return 1
        print(f"  render: {png.stat().st_size} bytes of PNG ({took:.1f} s)")
        out, took = run(
            program,
            "--new-window",
            HOME=home,
            QT_QPA_PLATFORM="offscreen",
            CRDESK_SMOKE_TEST="1",
            XDG_RUNTIME_DIR=home,
        )
        if "figures" not in out or " with 0 figures" in out:
            print(f"smoke test failed: the GUI did not show the demo table\n{out}")
            return 1
        for line in out.splitlines():
            print("  " + line.removeprefix("crdesk smoke test: "))
        print(f"  GUI start to quit: {took:.1f} s")
    print("smoke test passed")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "dist/crdesk"))
