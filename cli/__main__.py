"""``python -m decklore``: the same as the ``decklore`` command."""

from decklore import main

main()
