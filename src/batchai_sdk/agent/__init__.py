"""The node agent (stdlib only): the same code runs as a local process and on an Azure VM."""

from .config import AgentConfig

__all__ = ["AgentConfig"]
