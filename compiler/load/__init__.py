"""Loading a pack: strict located YAML, schema checks, pack.yaml, symbol notation and card rows.
"""
