"""Compiled array kernels: bucket statistics, the exact search's splits, the hard-mode bitsets."""
