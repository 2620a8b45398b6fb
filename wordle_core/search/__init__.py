"""Exhaustive searches over positions: the exact optimum, hard-mode feasibility, every
opener's first-guess scores.
"""
