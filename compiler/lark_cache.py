"""Lark parsers built once per grammar and kept on disk, so a compile need not rebuild them.

Building the LALR tables of the rules and symbol grammars is most of a cold ``decklore
validate``; Lark can save them (``cache=``) and load them back in a few milliseconds.  The
saved file is a pickle, and loading a pickle runs code, so it lives only in the user's own
decklore cache folder (``DECKLORE_CACHE_DIR`` or ``~/.cache/decklore``), in a ``lark``
folder only its owner may write; a folder that anyone else could write to is not used, and
the parser is then built in memory as before.  The file is named by a hash of the grammar
text, the options and the Lark and Python versions, so a changed grammar never loads old
tables.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from typing import Any

from lark import Lark
from lark import __version__ as lark_version

from decklore.compiler.private_cache import private_folder


def cached_lark(name: str, grammar: str, **options: Any) -> Lark:
    """``Lark(grammar, **options)``, with its tables saved in the user's cache folder.

    Lark writes its cache file in place, so a new file is written under a name of its own
    and then renamed: a parallel run never reads half a file."""
    folder = private_folder("lark")
    if folder is None:
        return Lark(grammar, **options)
    shown = sorted((k, v if isinstance(v, str | bool | int | list) else type(v).__name__)
                   for k, v in options.items())
    digest = hashlib.sha256(
        f"{grammar}\0{shown!r}\0{lark_version}\0{sys.version_info[:2]}".encode()).hexdigest()
    path = folder / f"{name}-{digest[:20]}.lark"
    if path.is_file():
        return Lark(grammar, cache=str(path), **options)
    try:
        handle, temp = tempfile.mkstemp(dir=folder, prefix=f".{name}-", suffix=".tmp")
        os.close(handle)
        os.unlink(temp)  # Lark writes the file itself
        parser = Lark(grammar, cache=temp, **options)
        os.replace(temp, path)
    except OSError:  # a cache that cannot be written is only a slower start
        return Lark(grammar, **options)
    return parser
