"""`python -m countermem` is the `countermem` command."""

from countermem.cli import main

main()
