"""The root ``batchai`` group: global options, error handling, the command groups."""

from __future__ import annotations

import logging
from typing import Any

import click

from .common import State, _setter
from .errors import CLIError, translate


class RootGroup(click.Group):
    """Turns SDK exceptions into one-line errors; ``--debug`` shows the traceback instead."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except (click.exceptions.Exit, click.Abort, click.ClickException):
            raise
        except KeyboardInterrupt:
            raise click.Abort() from None
        except Exception as exc:
            state = ctx.find_object(State)
            if state is not None and state.debug:
                raise
            err = translate(exc)
            if err is None:
                err = CLIError(f"{type(exc).__name__}: {exc} (run with --debug for the traceback)")
            raise err from None


def _debug(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    state = ctx.ensure_object(State)
    state.debug = value
    if value:
        logging.basicConfig(level=logging.DEBUG, format="%(levelname)s %(name)s: %(message)s")


def _verbose(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.ensure_object(State).debug:
        logging.basicConfig(level=logging.INFO, format="%(message)s")


@click.group(cls=RootGroup, context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 110})
@click.version_option(package_name="batchai-sdk", prog_name="batchai")
@click.option("--engine", type=click.Choice(["local", "azure"], case_sensitive=False), expose_value=False,
              callback=_setter("engine"), help="Engine [env BATCHAI_ENGINE; config [defaults] engine; default: local].")
@click.option("--root", expose_value=False, callback=_setter("root"), type=click.Path(file_okay=False),
              help="Local engine state directory [env BATCHAI_HOME; default: ~/.batchai].")
@click.option("--subscription", expose_value=False, callback=_setter("subscription"),
              help="Azure subscription id [env AZURE_SUBSCRIPTION_ID].")
@click.option("-g", "--resource-group", expose_value=False, callback=_setter("resource_group"),
              help="Azure resource group [env AZURE_RESOURCE_GROUP].")
@click.option("-l", "--location", expose_value=False, callback=_setter("location"),
              help="Azure region [env AZURE_LOCATION].")
@click.option("--debug", is_flag=True, expose_value=False, is_eager=True, callback=_debug,
              help="Log everything and show tracebacks.")
@click.option("--verbose", is_flag=True, expose_value=False, callback=_verbose, help="Log progress.")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """Azure Batch AI, back: clusters, file shares and training jobs, on this machine (local engine) or
    in your Azure subscription (azure engine). Commands mirror `az batchai`."""
    state = ctx.ensure_object(State)
    ctx.call_on_close(state.close)


def _register() -> None:
    from .cluster import cluster
    from .experiment import experiment
    from .file_server import file_server
    from .job import job
    from .share import share
    from .workspace import workspace

    for group in (workspace, experiment, cluster, job, file_server, share):
        cli.add_command(group)


_register()
