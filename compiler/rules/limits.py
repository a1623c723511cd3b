"""Limits on how deeply rules may nest, checked on the parse tree before anything recurses.

Lark's LALR parser builds its tree without recursion, but every later stage (building the
syntax nodes, checking, lowering, formatting, plain English, and the engine's compiled
expressions) walks it recursively.  A rules file with a 100,000-term sum or 10,000 nested
``not`` would exhaust Python's stack in any of them.  So the depth is measured once, on the
parse tree and without recursion, and a file past ``MAX_NESTING`` gets one located error
instead of a crash.  An operator chain counts as deep as the nested pairs it becomes
(``a + b + c`` is two levels), since that is how later stages see it.
"""

from __future__ import annotations

from typing import Any

from lark import Token, Tree

MAX_NESTING = 100
"""Parse-tree levels a rules declaration may nest (the bundled games' deepest is 25)."""

CHAINS = frozenset({"or_expr", "and_expr", "sum", "product"})
"""Rules whose operands later become nested pairs, one level per operator."""
OPERATORS = frozenset({"add_op", "mul_op", "compare_op"})


def deepest(tree: Tree[Any]) -> tuple[int, Any]:
    """The tree's nesting depth and the deepest node (for its position), without recursion."""
    best_depth, best_node = 0, tree
    stack: list[tuple[Any, int]] = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > best_depth:
            best_depth, best_node = depth, node
        if not isinstance(node, Tree):
            continue
        children = node.children
        if node.data in CHAINS:
            operands = [c for c in children
                        if not (isinstance(c, Tree) and c.data in OPERATORS)]
            # The first operand ends up deepest: (((a + b) + c) + d).
            for index, child in enumerate(operands):
                stack.append((child, depth + max(len(operands) - 1 - index, 0) + 1))
            continue
        for child in children:
            if child is not None:
                stack.append((child, depth + 1))
    return best_depth, best_node


def position(node: Any) -> tuple[int, int]:
    """A node's line and column, or its first token's, or (1, 1)."""
    if isinstance(node, Token):
        return node.line or 1, node.column or 1
    if isinstance(node, Tree):
        meta = node.meta
        if not getattr(meta, "empty", True):
            return meta.line, meta.column
        for child in node.children:
            if isinstance(child, Token | Tree):
                return position(child) if isinstance(child, Token) else _first(child)
    return 1, 1


def _first(tree: Tree[Any]) -> tuple[int, int]:
    stack: list[Any] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Token):
            return node.line or 1, node.column or 1
        if isinstance(node, Tree):
            if not getattr(node.meta, "empty", True):
                return node.meta.line, node.meta.column
            stack.extend(reversed(node.children))
    return 1, 1
