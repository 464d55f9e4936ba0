"""``python -m synopsis`` runs the command line."""

from synopsis.cli import main

main()
