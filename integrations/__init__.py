"""Bridges from the standard-library runtime to third-party frameworks, each an optional extra.

The runtime imports only the standard library; what needs a framework (Ray for simulations
that leave one machine) lives here, is installed with its extra, and is imported only when
asked for.
"""
