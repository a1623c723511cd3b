"""Designer tools that sit beside the pipeline: new packs from the starter, table diffs, and the
scenario runner (the one compiler module that drives the runtime).
"""
