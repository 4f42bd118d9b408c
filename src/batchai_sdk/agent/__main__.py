"""``python -m batchai_sdk.agent --config agent.json``"""

from __future__ import annotations

import argparse
import logging
import sys

from .config import AgentConfig
from .node import NodeAgent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="batchai-agent", description="Batch AI node agent")
    parser.add_argument("--config", required=True, help="agent configuration JSON file")
    parser.add_argument("--log-level", default="INFO")
    args = parser.parse_args(argv)
    logging.basicConfig(level=args.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    return NodeAgent(AgentConfig.load(args.config)).run()


if __name__ == "__main__":
    sys.exit(main())
