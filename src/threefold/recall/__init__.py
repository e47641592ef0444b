"""Recall: hybrid search over everything older than the layers: full text, vectors, recency."""
