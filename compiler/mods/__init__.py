"""Mods: the load order of packs that extend packs, layering their patches, explaining where a
field came from, and migrating older pack formats.
"""
