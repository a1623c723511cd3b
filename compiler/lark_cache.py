"""Lark parsers built once per grammar and kept on disk, so a compile need not rebuild them.

Building the LALR tables of the rules and symbol grammars is most of a cold ``decklore
validate``; Lark can save a built parser (``Lark.save``) and load it back in a few
milliseconds (``Lark.load``).  The saved file is a pickle, and loading a pickle runs code,
so it lives only in the user's own decklore cache folder (``DECKLORE_CACHE_DIR`` or
``~/.cache/decklore``), in a ``lark`` folder only its owner may write; a folder that anyone
else could write to is not used, and the parser is then built in memory as before.  The
file is named by a hash of the grammar text, the options and the Lark and Python versions,
so a changed grammar never loads old tables.

Lark's own ``cache=`` option is not used: it hashes the cache file's name into the file,
so a file written under a temporary name and renamed (so that a parallel run never reads
half of it) never matched, and the next run built the parser a second time.
"""

from __future__ import annotations

import hashlib
import io
import sys
from typing import Any

from lark import Lark
from lark import __version__ as lark_version

from decklore.compiler.private_cache import private_folder, store


def cached_lark(name: str, grammar: str, **options: Any) -> Lark:
    """``Lark(grammar, **options)``, with its tables saved in the user's cache folder."""
    folder = private_folder("lark")
    if folder is None:
        return Lark(grammar, **options)
    shown = sorted((k, v if isinstance(v, str | bool | int | list) else type(v).__name__)
                   for k, v in options.items())
    digest = hashlib.sha256(  # "save": not the file format of Lark's cache= option
        f"{grammar}\0{shown!r}\0{lark_version}\0{sys.version_info[:2]}\0save".encode()
    ).hexdigest()
    path = folder / f"{name}-{digest[:20]}.lark"
    try:
        with path.open("rb") as saved:
            return Lark.load(saved)
    except Exception:  # none yet, or damaged: only a slower start, as it is built again
        pass
    parser = Lark(grammar, **options)
    buffer = io.BytesIO()
    parser.save(buffer)
    store(path, buffer.getvalue())
    return parser
