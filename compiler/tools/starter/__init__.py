"""Starting points that `decklore new` copies (package data)."""
