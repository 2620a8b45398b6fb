"""The game itself: lexicons, exact feedback, the pattern matrix, the hard-mode rule,
positions, decision trees.
"""
