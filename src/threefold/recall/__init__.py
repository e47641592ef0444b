"""Recall: hybrid search over everything older than the layers, and the vector index under it."""
