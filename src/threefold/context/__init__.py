"""Context assembly: the layers and recalled material in one budget, each item with its source."""
