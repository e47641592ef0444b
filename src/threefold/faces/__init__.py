"""The faces over Memory: the CLI, HTTP, MCP, the OpenAI-compatible proxy and the web inspector.

Faces touch only Memory and AsyncMemory, never the engine's insides: ruff's banned-api
rule in pyproject.toml enforces it.
"""
