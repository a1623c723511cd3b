"""Jinja templates and CSS for printable sheets (package data)."""
