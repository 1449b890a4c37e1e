"""``python -m loopcompare``: the command line."""

from .comparator.cli import main

if __name__ == "__main__":
    main(prog_name="loopcompare")
