"""Live play: suggestions and the assist / play sessions."""
