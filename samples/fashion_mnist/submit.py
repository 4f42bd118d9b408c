"""The Batch AI Fashion-MNIST walkthrough, as code: share -> cluster -> job -> live stdout -> model.

Steps, in the walkthrough's order:

1. create the file share ``afs`` and its directories, upload ``Keras_fashionmnist.py`` and the dataset;
2. create the cluster ``nc6`` (STANDARD_NC6, Data Science VM image, the share mounted at ``afs``);
3. create the job: input directories SCRIPT and DATASET, output directory MODEL, stdout/stderr on the
   share, a container image, a job preparation command and the training command line;
4. stream ``stdout.txt`` while it trains, wait for the end, list and download ``Keras_MNIST.h5``;
5. reload the model here and evaluate it on the test set, then delete the cluster (unless ``--keep``).

Run it with the local engine (the default; no Azure account, synthetic data, about a minute)::

    python samples/fashion_mnist/submit.py
    python samples/fashion_mnist/submit.py --epochs 5 --train 20000 --keep
    python samples/fashion_mnist/submit.py --data ~/fashion-mnist/data/fashion   # the real files

or against your subscription with ``--engine azure`` (see README.md for the environment variables).
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    # The two sibling modules are plain files beside this script, not an installed package.
    sys.path.insert(0, str(HERE))

import make_fashion_mnist  # noqa: E402
from Keras_fashionmnist import MODEL_FILE_NAME, load_fashion_mnist  # noqa: E402

SHARE = "afs"
SCRIPT_DIR = "scripts"
DATA_DIR = "data/fashion"
CLUSTER = "nc6"
EXPERIMENT = "fashion_mnist"
WORKSPACE = "default"
DEFAULT_TRAIN = 6000
DEFAULT_TEST = 1000
# Locally the job runs on this machine's Python; Azure nodes pull the image and install the packages.
CONTAINER_IMAGE = "tensorflow/tensorflow:latest"
KERAS_CHECK = (
    'KERAS_BACKEND=${KERAS_BACKEND:-jax} python -c "import keras; '
    "print('keras', keras.__version__, 'backend', keras.backend.backend())\""
)
# Finding the packages is enough to fail early and costs milliseconds; importing keras and jax costs
# seconds that the training run pays again anyway.
PACKAGES_CHECK = (
    'python -c "import importlib.util as u, os, sys; '
    "names = ['keras', os.environ.get('KERAS_BACKEND') or 'jax']; "
    "missing = [n for n in names if u.find_spec(n) is None]; "
    "[print(f'No module named {n!r}', file=sys.stderr) for n in missing]; "
    "print('found ' + ' and '.join(names)) if not missing else None; "
    'sys.exit(1 if missing else 0)"'
)
PREPARATION = {
    # The walkthrough's `pip install keras` would reach the internet; the local engine reuses this
    # environment, so preparation only checks that the packages are there (and fails the job early if not).
    "local": PACKAGES_CHECK,
    "azure": "pip install keras jax && " + KERAS_CHECK,
}
AZURE_ENV = (
    "AZURE_SUBSCRIPTION_ID",
    "AZURE_RESOURCE_GROUP",
    "AZURE_LOCATION",
    "AZURE_BATCHAI_STORAGE_ACCOUNT",
)  # AZURE_BATCHAI_STORAGE_KEY is optional: without it the engine reads the key through ARM.


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Train Keras on Fashion-MNIST as a batchai-sdk job.")
    parser.add_argument("--engine", choices=("local", "azure"), default="local")
    parser.add_argument(
        "--root",
        type=Path,
        default=None,
        help="local engine state dir (default: $BATCHAI_HOME or ~/.batchai)",
    )
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument(
        "--train",
        type=int,
        default=None,
        help="synthetic training images (default 6000); with --data: a limit",
    )
    parser.add_argument(
        "--test", type=int, default=None, help="synthetic test images (default 1000); with --data: a limit"
    )
    parser.add_argument("--data", type=Path, default=None, help="directory with real Fashion-MNIST .gz files")
    parser.add_argument(
        "--download-dir", type=Path, default=Path("fashion_mnist_model"), help="where the model lands"
    )
    parser.add_argument("--job-name", default=None, help="default: keras_fashion_<timestamp>")
    parser.add_argument("--admin-user", default="demo")
    parser.add_argument(
        "--keep", action="store_true", help="keep the cluster (default: delete it at the end)"
    )
    args = parser.parse_args(argv)
    if args.epochs < 1 or (args.train or 1) < 1 or (args.test or 1) < 1:
        parser.error("--epochs, --train and --test must be >= 1")
    if args.data is None:
        args.train = args.train or DEFAULT_TRAIN
        args.test = args.test or DEFAULT_TEST
    return args


def make_backend(engine: str, root: Path | None) -> Any:
    import batchai_sdk

    if engine == "local":
        return batchai_sdk.LocalBackend(root=root)
    missing = [name for name in AZURE_ENV if not os.environ.get(name)]
    if missing:
        raise SystemExit(f"--engine azure needs these environment variables: {', '.join(missing)}")
    return batchai_sdk.AzureBackend(
        subscription_id=os.environ["AZURE_SUBSCRIPTION_ID"],
        resource_group=os.environ["AZURE_RESOURCE_GROUP"],
        location=os.environ["AZURE_LOCATION"],
        storage_account=os.environ["AZURE_BATCHAI_STORAGE_ACCOUNT"],
        storage_account_key=os.environ.get("AZURE_BATCHAI_STORAGE_KEY") or None,
    )


def upload_inputs(shares: Any, data_dir: Path) -> None:
    shares.create_share(SHARE, exist_ok=True)
    for directory in (SCRIPT_DIR, "data", DATA_DIR):
        shares.create_directory(SHARE, directory, exist_ok=True)
    shares.upload_file(SHARE, HERE / "Keras_fashionmnist.py", f"{SCRIPT_DIR}/Keras_fashionmnist.py")
    summary = shares.upload_directory(SHARE, data_dir, DATA_DIR, progress=True)
    print(f"Uploaded the script and the dataset to {SHARE}: {summary}")


def cluster_parameters(backend: Any, share_url: str, admin_user: str) -> Any:
    from batchai_sdk import models
    from batchai_sdk.images import resolve_image

    return models.ClusterCreateParameters(
        vm_size="STANDARD_NC6",
        virtual_machine_configuration=models.VirtualMachineConfiguration(
            image_reference=resolve_image("UbuntuDSVM")
        ),
        scale_settings=models.ScaleSettings(manual=models.ManualScaleSettings(target_node_count=1)),
        # Batch AI demanded an admin password or SSH key; a throwaway one is never shown or stored here.
        user_account_settings=models.UserAccountSettings(
            admin_user_name=admin_user, admin_user_password=secrets.token_urlsafe(18)
        ),
        node_setup=models.NodeSetup(
            mount_volumes=models.MountVolumes(
                azure_file_shares=[
                    models.AzureFileShareReference(
                        account_name=backend.storage_account_name,
                        azure_file_url=share_url,
                        credentials=models.AzureStorageCredentialsInfo(
                            account_key=backend.storage_account_key
                        ),
                        relative_mount_path=SHARE,
                    )
                ]
            )
        ),
    )


def training_command(epochs: int, train_limit: int | None = None, test_limit: int | None = None) -> str:
    command = (
        "KERAS_BACKEND=${KERAS_BACKEND:-jax} python $AZ_BATCHAI_INPUT_SCRIPT/Keras_fashionmnist.py "
        f"$AZ_BATCHAI_OUTPUT_MODEL --data $AZ_BATCHAI_INPUT_DATASET --epochs {epochs}"
    )
    if train_limit:
        command += f" --train-limit {train_limit}"
    if test_limit:
        command += f" --test-limit {test_limit}"
    return command


def job_parameters(cluster_id: str, engine: str, command_line: str) -> Any:
    from batchai_sdk import models

    mount = f"$AZ_BATCHAI_MOUNT_ROOT/{SHARE}"
    return models.JobCreateParameters(
        cluster=models.ResourceId(id=cluster_id),
        node_count=1,
        std_out_err_path_prefix=mount,
        input_directories=[
            models.InputDirectory(id="SCRIPT", path=f"{mount}/{SCRIPT_DIR}"),
            models.InputDirectory(id="DATASET", path=f"{mount}/{DATA_DIR}"),
        ],
        output_directories=[models.OutputDirectory(id="MODEL", path_prefix=mount)],
        container_settings=models.ContainerSettings(
            image_source_registry=models.ImageSourceRegistry(image=CONTAINER_IMAGE)
        ),
        job_preparation=models.JobPreparation(command_line=PREPARATION[engine]),
        custom_toolkit_settings=models.CustomToolkitSettings(command_line=command_line),
    )


def get_or_create_cluster(clusters: Any, backend: Any, share_url: str, admin_user: str) -> Any:
    from azure.core.exceptions import ResourceNotFoundError

    try:
        cluster = clusters.get(CLUSTER)
        print(f"Reusing cluster {CLUSTER}")
        return cluster
    except ResourceNotFoundError:
        pass
    print(f"Creating cluster {CLUSTER} (STANDARD_NC6, UbuntuDSVM, 1 node)...")
    return clusters.begin_create(CLUSTER, cluster_parameters(backend, share_url, admin_user)).result()


def state_name(state: Any) -> str:
    return str(getattr(state, "value", state))


def print_job_errors(job: Any) -> None:
    """The job's errors name the phase that failed and carry the last lines of its stderr."""
    errors = (job.execution_info.errors if job.execution_info else None) or []
    for error in errors:
        print(f"{error.code}: {error.message}", file=sys.stderr)
        for detail in error.details or []:
            print(f"  {detail.name}:", file=sys.stderr)
            for line in str(detail.value).splitlines():
                print(f"    {line}", file=sys.stderr)


def reload_accuracy(model_path: Path, data_dir: Path, test_limit: int) -> float:
    """Load the downloaded model here and score it, proving the artifact is usable off the cluster."""
    os.environ.setdefault("KERAS_BACKEND", "jax")
    import keras
    import numpy as np

    (_, _), (x_test, y_test) = load_fashion_mnist(data_dir, test_limit=test_limit)
    model = keras.models.load_model(model_path, compile=False)
    probabilities = model.predict(x_test.astype("float32")[..., None] / 255.0, verbose=0)
    return float(np.mean(np.argmax(probabilities, axis=1) == y_test))


def run(args: argparse.Namespace, data_dir: Path) -> int:
    from batchai_sdk import ClusterClient, FileShareClient, JobClient

    backend = make_backend(args.engine, args.root)
    shares = FileShareClient(backend)
    upload_inputs(shares, data_dir)

    clusters = ClusterClient(backend, workspace=WORKSPACE)
    cluster = get_or_create_cluster(clusters, backend, shares.get_share_url(SHARE), args.admin_user)
    try:
        jobs = JobClient(backend, workspace=WORKSPACE, experiment=EXPERIMENT)
        job_name = args.job_name or time.strftime("keras_fashion_%Y%m%d_%H%M%S")
        # Synthetic data is generated at the requested size; real data is cut down with the limits.
        limits = (args.train, args.test) if args.data is not None else (None, None)
        command_line = training_command(args.epochs, *limits)
        print(f"Submitting job {job_name}: {command_line}")
        submitted = time.monotonic()
        jobs.begin_create(job_name, job_parameters(cluster.id, args.engine, command_line))

        print(f"--- {job_name}/stdout.txt ---", flush=True)
        for line in jobs.stream_file(job_name, "stdout.txt"):
            print(line, flush=True)
        job = jobs.wait(job_name)
        print(f"Job wall time (submit to end): {time.monotonic() - submitted:.1f} s")
        exit_code = job.execution_info.exit_code if job.execution_info else None
        print(f"--- Job state: {state_name(job.execution_state)} ExitCode: {exit_code} ---")
        if state_name(job.execution_state) != "succeeded":
            print_job_errors(job)
            return 1

        for item in jobs.list_output_files(job_name, output_directory_id="MODEL"):
            print(f"MODEL/{item.name}  {item.content_length} bytes")
        paths = jobs.download_outputs(job_name, "MODEL", args.download_dir, progress=False)
        model_path = next((p for p in paths if p.name == MODEL_FILE_NAME), None)
        if model_path is None:
            print(f"error: the job wrote no {MODEL_FILE_NAME}", file=sys.stderr)
            return 1
        print(f"Model downloaded to {model_path.resolve()}")
        accuracy = reload_accuracy(model_path, data_dir, args.test or 0)
        print(f"Reloaded model test accuracy: {accuracy:.4f}")
        return 0
    finally:
        if args.keep:
            print(
                f"Keeping cluster {CLUSTER} (--keep); delete it with ClusterClient.begin_delete('{CLUSTER}')."
            )
        else:
            print(f"Deleting cluster {CLUSTER}...")
            clusters.begin_delete(CLUSTER).result()


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.data is not None:
        return run(args, args.data)
    with tempfile.TemporaryDirectory(prefix="fashion-mnist-") as tmp:
        data_dir = Path(tmp)
        print(f"Writing synthetic Fashion-MNIST ({args.train} train / {args.test} test) to {data_dir}")
        make_fashion_mnist.write_dataset(data_dir, train=args.train, test=args.test)
        return run(args, data_dir)


if __name__ == "__main__":
    sys.exit(main())
