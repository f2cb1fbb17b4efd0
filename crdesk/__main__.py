"""``python -m crdesk`` runs the ``crdesk`` command."""

import sys

from crdesk.cli import main

sys.exit(main())
