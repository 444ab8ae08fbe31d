"""``python -m cardhall`` runs the command line."""

from cardhall.cli import main

raise SystemExit(main())
