"""Whole-game analyses built on strategies: simulate, the evil host, reviews, multi-board
play, the prior's effect.
"""
