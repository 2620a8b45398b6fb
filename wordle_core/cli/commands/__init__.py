"""Command modules; each defines ``register(subparsers)`` and is found automatically."""
