"""The rules language: parse rules files, resolve and type-check names, lower to the rules IR;
format and English renderings of the same tree.
"""
