"""Printing: card sheets, card lists, turn references, guides and legends rendered from compiled
tables with Jinja, and PDF output.
"""
