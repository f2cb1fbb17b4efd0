"""The program a PyInstaller bundle runs: the ``crdesk`` command, frozen.

``freeze_support`` lets ``crdesk simulate --jobs N`` start its worker
processes from the bundle (they re-run this program, not a Python).
"""

import multiprocessing
import sys

from crdesk.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()
    sys.exit(main())
