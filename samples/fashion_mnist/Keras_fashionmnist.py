"""Train the classic Keras MNIST CNN on Fashion-MNIST and save ``Keras_MNIST.h5``.

This is the training script of the Batch AI walkthrough, for Keras 3. It runs unchanged on a laptop
and as a batchai-sdk job::

    python Keras_fashionmnist.py OUTPUT_DIR [--data DIR] [--epochs N] [--batch-size N]
                                 [--train-limit N] [--test-limit N] [--seed N]

    # as a job (what samples/fashion_mnist/submit.py submits):
    KERAS_BACKEND=${KERAS_BACKEND:-jax} python $AZ_BATCHAI_INPUT_SCRIPT/Keras_fashionmnist.py \\
        $AZ_BATCHAI_OUTPUT_MODEL --data $AZ_BATCHAI_INPUT_DATASET

The data directory holds the four Fashion-MNIST IDX files (``train-images-idx3-ubyte.gz`` ...). It
defaults to ``$AZ_BATCHAI_INPUT_DATASET``, else ``data/`` beside this script. The Keras backend comes
from ``KERAS_BACKEND``; unset, it is jax (the walkthrough used tensorflow: set KERAS_BACKEND=tensorflow).
A backend that is asked for but not installed stops the script; nothing falls back silently.

The script is self-contained (only numpy and keras) because it is uploaded alone to the file share.
"""

from __future__ import annotations

import argparse
import gzip
import logging
import os
import struct
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

MODEL_FILE_NAME = "Keras_MNIST.h5"
DEFAULT_BACKEND = "jax"
NUM_CLASSES = 10
FILE_NAMES = {
    "train_images": "train-images-idx3-ubyte.gz",
    "train_labels": "train-labels-idx1-ubyte.gz",
    "test_images": "t10k-images-idx3-ubyte.gz",
    "test_labels": "t10k-labels-idx1-ubyte.gz",
}
# IDX type byte -> big-endian numpy dtype (the IDX spec; Fashion-MNIST only uses 0x08).
_IDX_DTYPES = {0x08: ">u1", 0x09: ">i1", 0x0B: ">i2", 0x0C: ">i4", 0x0D: ">f4", 0x0E: ">f8"}
# Keras backend name -> the module whose absence means "that backend is not installed".
_BACKEND_MODULES = {"tensorflow": "tensorflow", "jax": "jax", "torch": "torch", "numpy": "numpy"}


def load_idx(path: str | Path) -> np.ndarray:
    """Read an IDX file (gzip-compressed or raw) into a numpy array of its declared shape.

    Raises ``ValueError`` when the header is not IDX or the payload size does not match it.
    """
    raw = Path(path).read_bytes()
    if raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    if len(raw) < 4 or raw[0] != 0 or raw[1] != 0:
        raise ValueError(f"{path}: not an IDX file (bad magic)")
    type_code, ndim = raw[2], raw[3]
    if type_code not in _IDX_DTYPES:
        raise ValueError(f"{path}: unknown IDX type 0x{type_code:02x}")
    header_size = 4 + 4 * ndim
    if len(raw) < header_size:
        raise ValueError(f"{path}: truncated IDX header")
    shape = struct.unpack(f">{ndim}I", raw[4:header_size])
    dtype = np.dtype(_IDX_DTYPES[type_code])
    expected = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if len(raw) - header_size != expected:
        raise ValueError(f"{path}: IDX payload is {len(raw) - header_size} bytes, header says {expected}")
    data = np.frombuffer(raw, dtype=dtype, offset=header_size).reshape(shape)
    return data.astype(dtype.newbyteorder("="), copy=False)


def load_fashion_mnist(
    data_dir: str | Path, *, train_limit: int = 0, test_limit: int = 0
) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """Return ``((x_train, y_train), (x_test, y_test))`` as uint8 arrays, like ``keras.datasets``.

    A limit of 0 keeps every record; otherwise only the first ``limit`` records are used.
    """
    data_dir = Path(data_dir)
    missing = [name for name in FILE_NAMES.values() if not (data_dir / name).is_file()]
    if missing:
        raise FileNotFoundError(
            f"Fashion-MNIST files missing in {data_dir}: {', '.join(missing)}. "
            "Generate synthetic ones with `python make_fashion_mnist.py DIR` or download the real set "
            "(see samples/fashion_mnist/README.md)."
        )
    arrays = {role: load_idx(data_dir / name) for role, name in FILE_NAMES.items()}
    for split in ("train", "test"):
        images, labels = arrays[f"{split}_images"], arrays[f"{split}_labels"]
        if images.ndim != 3 or labels.ndim != 1 or images.shape[0] != labels.shape[0]:
            raise ValueError(f"{split}: images {images.shape} do not match labels {labels.shape}")
    train_stop = train_limit or None
    test_stop = test_limit or None
    return (
        (arrays["train_images"][:train_stop], arrays["train_labels"][:train_stop]),
        (arrays["test_images"][:test_stop], arrays["test_labels"][:test_stop]),
    )


def _default_data_dir() -> Path:
    env = os.environ.get("AZ_BATCHAI_INPUT_DATASET")
    return Path(env) if env else Path(__file__).resolve().parent / "data"


def _parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Train a Keras CNN on Fashion-MNIST.")
    parser.add_argument(
        "output_dir",
        nargs="?",
        default=os.environ.get("AZ_BATCHAI_OUTPUT_MODEL", "outputs"),
        help=f"where to save {MODEL_FILE_NAME} (default: $AZ_BATCHAI_OUTPUT_MODEL, else ./outputs)",
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        help="directory with the four IDX .gz files (default: $AZ_BATCHAI_INPUT_DATASET, else ./data beside the script)",
    )
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=128)
    parser.add_argument(
        "--train-limit", type=int, default=0, help="use only the first N training images (0: all)"
    )
    parser.add_argument("--test-limit", type=int, default=0, help="use only the first N test images (0: all)")
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args(argv)
    if args.epochs < 1 or args.batch_size < 1 or args.train_limit < 0 or args.test_limit < 0:
        parser.error("--epochs and --batch-size must be >= 1, limits >= 0")
    if args.data is None:
        args.data = _default_data_dir()
    return args


def _import_keras() -> Any:
    """Import keras for the backend named in KERAS_BACKEND, or explain which package is missing.

    Unset, KERAS_BACKEND becomes jax (what the samples extra installs) rather than Keras' own default,
    tensorflow. A backend that was asked for explicitly is never swapped for another.
    """
    backend = os.environ.setdefault("KERAS_BACKEND", DEFAULT_BACKEND)
    try:
        import keras
    except ModuleNotFoundError as exc:
        module = _BACKEND_MODULES.get(backend, backend)
        if exc.name and exc.name.split(".")[0] in {module, "keras"}:
            raise SystemExit(
                f"KERAS_BACKEND={backend}, but {exc.name!r} is not installed. Install it "
                f"(pip install {exc.name.split('.')[0]}) or choose an installed backend, e.g. KERAS_BACKEND=jax."
            ) from exc
        raise
    return keras


def build_model(keras: Any, input_shape: tuple[int, int, int] = (28, 28, 1)) -> Any:
    """The Keras examples' mnist_cnn: Conv32 -> Conv64 -> MaxPool -> Dropout -> Dense128 -> Dropout -> softmax."""
    layers = keras.layers
    model = keras.Sequential(
        [
            keras.Input(shape=input_shape),
            layers.Conv2D(32, kernel_size=(3, 3), activation="relu"),
            layers.Conv2D(64, (3, 3), activation="relu"),
            layers.MaxPooling2D(pool_size=(2, 2)),
            layers.Dropout(0.25),
            layers.Flatten(),
            layers.Dense(128, activation="relu"),
            layers.Dropout(0.5),
            layers.Dense(NUM_CLASSES, activation="softmax"),
        ]
    )
    # The 2017 example used Adadelta(lr=1.0); Keras 3's Adadelta defaults to 0.001 and barely moves,
    # so Adam (the current Keras example's choice) keeps the few-epoch runs meaningful.
    model.compile(loss="categorical_crossentropy", optimizer="adam", metrics=["accuracy"])
    return model


def _epoch_logger(keras: Any, epochs: int) -> Any:
    class EpochLine(keras.callbacks.Callback):  # type: ignore[misc,name-defined]
        """One flushed line per epoch, so a streamed stdout.txt shows progress as it happens."""

        def on_epoch_begin(self, epoch: int, logs: dict[str, float] | None = None) -> None:
            self._started = time.perf_counter()

        def on_epoch_end(self, epoch: int, logs: dict[str, float] | None = None) -> None:
            logs = logs or {}
            parts = [f"Epoch {epoch + 1}/{epochs}"]
            for key in ("loss", "accuracy", "val_loss", "val_accuracy"):
                if key in logs:
                    parts.append(f"{key}: {float(logs[key]):.4f}")
            parts.append(f"time: {time.perf_counter() - self._started:.1f}s")
            print(" - ".join(parts), flush=True)

    return EpochLine()


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse_args(argv)
    try:
        (x_train, y_train), (x_test, y_test) = load_fashion_mnist(
            args.data, train_limit=args.train_limit, test_limit=args.test_limit
        )
    except (FileNotFoundError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2

    keras = _import_keras()
    # Seeds Python, numpy and the backend's generator: the same data and seed give the same model.
    keras.utils.set_random_seed(args.seed)
    if keras.backend.backend() == "tensorflow":
        import tensorflow as tf

        tf.config.experimental.enable_op_determinism()

    print(f"Keras {keras.__version__}, backend {keras.backend.backend()}", flush=True)
    print(f"Data: {args.data}", flush=True)
    print(
        f"x_train shape: {x_train.shape}, {x_train.shape[0]} train samples, {x_test.shape[0]} test samples",
        flush=True,
    )

    x_train_f = (x_train.astype("float32") / 255.0)[..., None]
    x_test_f = (x_test.astype("float32") / 255.0)[..., None]
    y_train_1h = keras.utils.to_categorical(y_train, NUM_CLASSES)
    y_test_1h = keras.utils.to_categorical(y_test, NUM_CLASSES)

    model = build_model(keras, input_shape=x_train_f.shape[1:])
    model.fit(
        x_train_f,
        y_train_1h,
        batch_size=args.batch_size,
        epochs=args.epochs,
        verbose=0,
        validation_data=(x_test_f, y_test_1h),
        callbacks=[_epoch_logger(keras, args.epochs)],
    )
    loss, accuracy = model.evaluate(x_test_f, y_test_1h, verbose=0)
    print(f"Test loss: {loss:.4f}", flush=True)
    print(f"Test accuracy: {accuracy:.4f}", flush=True)

    output_dir = Path(args.output_dir)
    output_dir.mkdir(parents=True, exist_ok=True)
    model_path = output_dir / MODEL_FILE_NAME
    # The walkthrough's file name is .h5 on purpose; Keras 3 logs (via absl) that HDF5 is its legacy format.
    absl_logger = logging.getLogger("absl")
    previous_level = absl_logger.level
    absl_logger.setLevel(logging.ERROR)
    try:
        model.save(model_path)
    finally:
        absl_logger.setLevel(previous_level)
    print(f"Model saved to {model_path}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
