"""Write a synthetic, learnable stand-in for Fashion-MNIST in the exact IDX format.

The real Fashion-MNIST image files cannot be fetched offline, so this module draws the ten classes
(T-shirt/top, Trouser, Pullover, Dress, Coat, Sandal, Shirt, Sneaker, Bag, Ankle boot) as parametric
silhouettes with random size, position, intensity, texture and noise. The files carry the real names,
magic numbers, big-endian dimensions and gzip compression, so any Fashion-MNIST loader reads them.

Usage::

    python make_fashion_mnist.py data/                     # 60000 train / 10000 test, like the real set
    python make_fashion_mnist.py data/ --train 6000 --test 1000 --seed 1
"""

from __future__ import annotations

import argparse
import gzip
import struct
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

__all__ = [
    "CLASS_NAMES",
    "FILE_NAMES",
    "IMAGE_MAGIC",
    "LABEL_MAGIC",
    "make_images",
    "write_idx",
    "write_dataset",
    "main",
]

CLASS_NAMES: tuple[str, ...] = (
    "T-shirt/top",
    "Trouser",
    "Pullover",
    "Dress",
    "Coat",
    "Sandal",
    "Shirt",
    "Sneaker",
    "Bag",
    "Ankle boot",
)

FILE_NAMES: dict[str, str] = {
    "train_images": "train-images-idx3-ubyte.gz",
    "train_labels": "train-labels-idx1-ubyte.gz",
    "test_images": "t10k-images-idx3-ubyte.gz",
    "test_labels": "t10k-labels-idx1-ubyte.gz",
}

IMAGE_MAGIC = 2051
LABEL_MAGIC = 2049
SIDE = 28
# Chunked generation keeps peak memory near 100 MB even for the full 60000-image set.
_CHUNK = 4096

Array = np.ndarray
Shape = Callable[[Array, Array, "np.random.Generator"], Array]


def _band(coord: Array, low: Array | float, high: Array | float) -> Array:
    """Soft 0..1 indicator of low <= coord <= high, one pixel of anti-aliasing at each edge."""
    return np.clip(coord - low + 0.5, 0.0, 1.0) * np.clip(high - coord + 0.5, 0.0, 1.0)


def _rect(u: Array, v: Array, x0: float, x1: float, y0: float, y1: float) -> Array:
    return _band(u, x0, x1) * _band(v, y0, y1)


def _union(*masks: Array) -> Array:
    out = masks[0]
    for mask in masks[1:]:
        out = np.maximum(out, mask)
    return out


# Each shape gets pixel coordinates u (right) and v (down), centred on the garment, and returns an
# intensity map in 0..1. Shapes that real Fashion-MNIST confuses (pullover, coat, shirt) differ here
# in sleeves, length and texture, as they do in the photographs.


def _per_image(rng: np.random.Generator, u: Array, low: float, high: float) -> Array:
    """One random value per image, shaped to broadcast over that image's pixels."""
    return rng.uniform(low, high, (u.shape[0], 1, 1)).astype(np.float32)


def _tshirt(u: Array, v: Array, rng: np.random.Generator) -> Array:
    body = _rect(u, v, -6, 6, -8, 10)
    sleeve_end = _per_image(rng, u, -4.5, 0.0)
    sleeves = _band(u, -11, 11) * _band(v, -8, sleeve_end)
    neck = _rect(u, v, -2.5, 2.5, -9, -6.5)
    return np.clip(_union(body, sleeves) - neck, 0, 1)


def _trouser(u: Array, v: Array, rng: np.random.Generator) -> Array:
    waist = _rect(u, v, -5.5, 5.5, -12, -7)
    left = _rect(u, v, -5.5, -1, -7, 12)
    right = _rect(u, v, 1, 5.5, -7, 12)
    return _union(waist, left, right)


def _pullover(u: Array, v: Array, rng: np.random.Generator) -> Array:
    length = _per_image(rng, u, 7.0, 10.5)
    body = _band(u, -6, 6) * _band(v, -8, length)
    arm = _per_image(rng, u, 3.0, 4.5)
    arms = _union(_band(u, -6 - arm, -6), _band(u, 6, 6 + arm)) * _band(v, -7, length)
    cuffs = _per_image(rng, u, 0.0, 0.4) * _band(v, length - 1.5, length)
    return np.clip(_union(body, arms) - cuffs, 0, 1)


def _dress(u: Array, v: Array, rng: np.random.Generator) -> Array:
    half_width = 2.5 + np.clip(v + 6, 0, None) * 0.4
    skirt = _band(u, -half_width, half_width) * _band(v, -6, 12)
    bodice = _rect(u, v, -3.5, 3.5, -12, -6)
    return _union(skirt, bodice)


def _coat(u: Array, v: Array, rng: np.random.Generator) -> Array:
    length = _per_image(rng, u, 9.0, 12.5)
    body = _band(u, -7, 7) * _band(v, -10, length)
    arm = _per_image(rng, u, 3.0, 4.5)
    arms = _union(_band(u, -7 - arm, -7), _band(u, 7, 7 + arm)) * _band(v, -9, length - 1)
    opening = _per_image(rng, u, 0.0, 0.6) * _rect(u, v, -0.6, 0.6, -8, 12)
    collar = _per_image(rng, u, 0.0, 0.4) * _rect(u, v, -4, 4, -10, -8)
    return np.clip(_union(body, arms) - opening - collar, 0, 1)


def _sandal(u: Array, v: Array, rng: np.random.Generator) -> Array:
    sole = _rect(u, v, -12, 12, 4, 7)
    straps = (np.mod(u + v, 5.0) < 1.6) * _rect(u, v, -9, 10, -3, 4)
    return _union(sole, straps.astype(np.float32))


def _shirt(u: Array, v: Array, rng: np.random.Generator) -> Array:
    body = _rect(u, v, -6, 6, -9, 11)
    # Sleeves flare outwards from the shoulder, unlike the pullover's straight arms.
    flare = 3.0 + np.clip(v + 8, 0, None) * _per_image(rng, u, 0.0, 0.25)
    arms = _union(_band(u, -6 - flare, -6) * _band(v, -8, 7), _band(u, 6, 6 + flare) * _band(v, -8, 7))
    # Some shirts are plain, which is what makes them hard to tell from pullovers.
    contrast = _per_image(rng, u, 0.0, 0.45)
    plaid = 1.0 - contrast + contrast * ((np.floor(u / 3) + np.floor(v / 3)) % 2)
    buttons = _per_image(rng, u, 0.0, 0.5) * _rect(u, v, -0.5, 0.5, -7, 10) * (np.mod(v, 3.0) < 1.0)
    return np.clip(_union(body, arms) * plaid - buttons, 0, 1)


def _sneaker(u: Array, v: Array, rng: np.random.Generator) -> Array:
    top = 3.0 - np.clip(u + 12, 0, 14) * 0.35
    upper = _band(v, top, 6) * _band(u, -12, 12)
    sole_stripe = 0.5 * _rect(u, v, -12, 12, 4.5, 5.5)
    laces = 0.4 * _rect(u, v, -3, 3, -1, 0) + 0.4 * _rect(u, v, -3, 3, 1.5, 2.5)
    return np.clip(upper - sole_stripe - laces, 0, 1)


def _bag(u: Array, v: Array, rng: np.random.Generator) -> Array:
    body = _rect(u, v, -11, 11, -3, 11)
    ring = (u / 7.0) ** 2 + ((v + 3) / 8.0) ** 2
    handle = _band(ring, 0.7, 1.0) * (v < -3)
    return _union(body, handle.astype(np.float32))


def _ankle_boot(u: Array, v: Array, rng: np.random.Generator) -> Array:
    shaft = _rect(u, v, -10, -1, -12, 6)
    foot = _rect(u, v, -10, 12, 0, 6)
    toe = _band((u - 8) ** 2 / 16 + (v - 1) ** 2 / 9, 0.0, 1.0)
    heel = _rect(u, v, -10, -6, 6, 9)
    return _union(shaft, foot, toe.astype(np.float32), heel)


_SHAPES: tuple[Shape, ...] = (
    _tshirt,
    _trouser,
    _pullover,
    _dress,
    _coat,
    _sandal,
    _shirt,
    _sneaker,
    _bag,
    _ankle_boot,
)


def _occlusion(n: int, rng: np.random.Generator) -> Array:
    """A multiplicative mask that blanks a random block in about a third of the images.

    Hidden sleeves and hems make some images genuinely ambiguous, so accuracy stays below 100%.
    """
    mask = np.ones((n, SIDE, SIDE), dtype=np.float32)
    for i in np.nonzero(rng.random(n) < 0.35)[0]:
        height, width = rng.integers(7, 14, 2)
        top, left = rng.integers(0, SIDE - height), rng.integers(0, SIDE - width)
        mask[i, top : top + height, left : left + width] = 0.0
    return mask


def make_images(labels: Sequence[int] | Array, rng: np.random.Generator) -> Array:
    """Draw one 28x28 uint8 image per label (0..9), with per-image jitter from ``rng``."""
    labels = np.asarray(labels, dtype=np.int64)
    if labels.size and (labels.min() < 0 or labels.max() > 9):
        raise ValueError("labels must be in 0..9")
    images = np.zeros((labels.size, SIDE, SIDE), dtype=np.uint8)
    grid = np.arange(SIDE, dtype=np.float32) - (SIDE - 1) / 2.0
    for start in range(0, labels.size, _CHUNK):
        chunk = labels[start : start + _CHUNK]
        n = chunk.size
        # Per-image jitter: scale, shift, brightness, and a little shear, then pixel noise.
        scale_x = rng.uniform(0.8, 1.15, n).astype(np.float32)[:, None, None]
        scale_y = rng.uniform(0.85, 1.12, n).astype(np.float32)[:, None, None]
        shift_x = rng.uniform(-2.0, 2.0, n).astype(np.float32)[:, None, None]
        shift_y = rng.uniform(-1.5, 1.5, n).astype(np.float32)[:, None, None]
        shear = rng.uniform(-0.12, 0.12, n).astype(np.float32)[:, None, None]
        v = (grid[None, :, None] - shift_y) / scale_y
        u = (grid[None, None, :] - shift_x) / scale_x + shear * v
        u, v = np.broadcast_arrays(u, v)
        canvas = np.zeros((n, SIDE, SIDE), dtype=np.float32)
        for cls in range(10):
            idx = np.nonzero(chunk == cls)[0]
            if idx.size:
                canvas[idx] = _SHAPES[cls](u[idx], v[idx], rng)
        brightness = rng.uniform(0.45, 1.0, n).astype(np.float32)[:, None, None]
        texture = rng.normal(1.0, 0.15, canvas.shape).astype(np.float32)
        noise = rng.normal(0.0, 0.08, canvas.shape).astype(np.float32)
        pixels = canvas * brightness * texture + noise * (canvas > 0.05)
        pixels *= _occlusion(n, rng)
        images[start : start + n] = np.clip(pixels * 255.0, 0, 255).astype(np.uint8)
    return images


def write_idx(path: str | Path, array: Array) -> Path:
    """Write a uint8 array as a gzip-compressed IDX file (magic 0x0000 08 <ndim>, big-endian dims).

    The gzip mtime is fixed at 0 so the same data always gives the same bytes.
    """
    data = np.ascontiguousarray(array, dtype=np.uint8)
    if not 1 <= data.ndim <= 255:
        raise ValueError("IDX needs 1..255 dimensions")
    header = struct.pack(">BBBB", 0, 0, 0x08, data.ndim) + struct.pack(f">{data.ndim}I", *data.shape)
    path = Path(path)
    with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
        gz.write(header)
        gz.write(data.tobytes())
    return path


def _balanced_labels(n: int, rng: np.random.Generator) -> Array:
    # Real Fashion-MNIST is exactly balanced; keep that so accuracies compare.
    labels = (np.arange(n) % 10).astype(np.uint8)
    rng.shuffle(labels)
    return labels


def write_dataset(
    directory: str | Path, *, train: int = 60000, test: int = 10000, seed: int = 0
) -> dict[str, Path]:
    """Write the four Fashion-MNIST ``.gz`` files into ``directory``; return them by role."""
    if train < 1 or test < 1:
        raise ValueError("train and test must be at least 1")
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    written: dict[str, Path] = {}
    for split, count in (("train", train), ("test", test)):
        labels = _balanced_labels(count, rng)
        images = make_images(labels, rng)
        written[f"{split}_images"] = write_idx(directory / FILE_NAMES[f"{split}_images"], images)
        written[f"{split}_labels"] = write_idx(directory / FILE_NAMES[f"{split}_labels"], labels)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("directory", type=Path, help="where to write the four .gz files")
    parser.add_argument("--train", type=int, default=60000, help="training images (default 60000)")
    parser.add_argument("--test", type=int, default=10000, help="test images (default 10000)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    args = parser.parse_args(argv)
    try:
        written = write_dataset(args.directory, train=args.train, test=args.test, seed=args.seed)
    except ValueError as exc:
        parser.error(str(exc))
    for path in written.values():
        print(f"{path}  {path.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
