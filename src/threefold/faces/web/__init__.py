"""The web inspector at /ui: server-rendered pages over the Memory façade.

Every asset (templates, CSS, the little JavaScript) ships in this folder; nothing is
fetched from the network and nothing is built at run time.
"""

from threefold.faces.web.routes import mount

__all__ = ["mount"]
