"""FrameJury's Python client: see Client, and docs/guide/python-client.md in the repository."""

from .client import ROUTES, ApiError, Client, Frame, ImportedVideo, RunCancelled, RunProgress, Withheld, print_progress, table

__all__ = ["ROUTES", "ApiError", "Client", "Frame", "ImportedVideo", "RunCancelled", "RunProgress", "Withheld", "print_progress", "table"]
__version__ = "0.1.0"
