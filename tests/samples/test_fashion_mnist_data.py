"""The synthetic Fashion-MNIST files are byte-compatible with the real ones, and learnable."""

from __future__ import annotations

import gzip
import struct
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

REAL_NAMES = {
    "train-images-idx3-ubyte.gz",
    "train-labels-idx1-ubyte.gz",
    "t10k-images-idx3-ubyte.gz",
    "t10k-labels-idx1-ubyte.gz",
}


def _header(path: Path, words: int) -> tuple[int, ...]:
    with gzip.open(path, "rb") as f:
        return struct.unpack(f">{words}I", f.read(4 * words))


def test_files_have_real_names_magic_numbers_and_big_endian_dims(
    generator: ModuleType, tmp_path: Path
) -> None:
    generator.write_dataset(tmp_path, train=30, test=20, seed=1)

    assert {p.name for p in tmp_path.iterdir()} == REAL_NAMES
    assert _header(tmp_path / "train-images-idx3-ubyte.gz", 4) == (2051, 30, 28, 28)
    assert _header(tmp_path / "train-labels-idx1-ubyte.gz", 2) == (2049, 30)
    assert _header(tmp_path / "t10k-images-idx3-ubyte.gz", 4) == (2051, 20, 28, 28)
    assert _header(tmp_path / "t10k-labels-idx1-ubyte.gz", 2) == (2049, 20)
    # Exact payload sizes: header + one byte per pixel or label, as in the real files.
    assert len(gzip.decompress((tmp_path / "train-images-idx3-ubyte.gz").read_bytes())) == 16 + 30 * 784
    assert len(gzip.decompress((tmp_path / "t10k-labels-idx1-ubyte.gz").read_bytes())) == 8 + 20


def test_reader_round_trips_generated_arrays(
    generator: ModuleType, trainer: ModuleType, tmp_path: Path
) -> None:
    rng = np.random.default_rng(0)
    labels = np.arange(25, dtype=np.uint8) % 10
    images = generator.make_images(labels, rng)
    generator.write_idx(tmp_path / "img.gz", images)
    generator.write_idx(tmp_path / "lab.gz", labels)

    back_images = trainer.load_idx(tmp_path / "img.gz")
    back_labels = trainer.load_idx(tmp_path / "lab.gz")
    assert back_images.dtype == np.uint8 and back_images.shape == (25, 28, 28)
    np.testing.assert_array_equal(back_images, images)
    np.testing.assert_array_equal(back_labels, labels)


def test_reader_accepts_uncompressed_idx_like_torchvision_raw(trainer: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "labels-idx1-ubyte"
    path.write_bytes(struct.pack(">II", 2049, 3) + bytes([9, 0, 3]))
    assert trainer.load_idx(path).tolist() == [9, 0, 3]


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        (b"PK\x03\x04 not idx", "bad magic"),
        (struct.pack(">II", 2049, 5) + bytes([1, 2]), "header says 5"),
        (struct.pack(">BBBBI", 0, 0, 0x42, 1, 1) + b"\x00", "unknown IDX type"),
    ],
)
def test_reader_rejects_files_that_are_not_intact_idx(
    trainer: ModuleType, tmp_path: Path, payload: bytes, message: str
) -> None:
    path = tmp_path / "broken"
    path.write_bytes(payload)
    with pytest.raises(ValueError, match=message):
        trainer.load_idx(path)


def test_same_seed_gives_identical_bytes_and_other_seed_does_not(
    generator: ModuleType, tmp_path: Path
) -> None:
    for name, seed in (("a", 3), ("b", 3), ("c", 4)):
        generator.write_dataset(tmp_path / name, train=40, test=10, seed=seed)
    image = "train-images-idx3-ubyte.gz"
    assert (tmp_path / "a" / image).read_bytes() == (tmp_path / "b" / image).read_bytes()
    assert (tmp_path / "a" / image).read_bytes() != (tmp_path / "c" / image).read_bytes()


def test_classes_are_balanced_like_the_real_set(small_dataset: Path, trainer: ModuleType) -> None:
    (_, y_train), (_, y_test) = trainer.load_fashion_mnist(small_dataset)
    assert np.bincount(y_train, minlength=10).tolist() == [200] * 10
    assert np.bincount(y_test, minlength=10).tolist() == [50] * 10


def test_classes_are_learnable_but_not_trivial(small_dataset: Path, trainer: ModuleType) -> None:
    """A nearest-centroid classifier (no Keras) must beat chance by far, and must not be perfect."""
    (x_train, y_train), (x_test, y_test) = trainer.load_fashion_mnist(small_dataset)
    train = x_train.reshape(len(x_train), -1).astype(np.float32) / 255
    test = x_test.reshape(len(x_test), -1).astype(np.float32) / 255
    centroids = np.stack([train[y_train == c].mean(axis=0) for c in range(10)])
    distances = ((test[:, None, :] - centroids[None, :, :]) ** 2).sum(axis=2)
    accuracy = float((distances.argmin(axis=1) == y_test).mean())
    assert 0.5 < accuracy < 0.99


def test_loader_limits_and_explains_missing_files(
    trainer: ModuleType, small_dataset: Path, tmp_path: Path
) -> None:
    (x_train, y_train), (x_test, _) = trainer.load_fashion_mnist(small_dataset, train_limit=100, test_limit=7)
    assert x_train.shape == (100, 28, 28) and y_train.shape == (100,) and x_test.shape[0] == 7

    with pytest.raises(FileNotFoundError, match="t10k-labels-idx1-ubyte.gz"):
        trainer.load_fashion_mnist(tmp_path)


def test_training_script_exits_2_with_a_hint_when_data_is_missing(
    trainer: ModuleType, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert trainer.main([str(tmp_path / "out"), "--data", str(tmp_path / "nothing")]) == 2
    assert "make_fashion_mnist.py" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_cli_writes_the_requested_sizes(generator: ModuleType, trainer: ModuleType, tmp_path: Path) -> None:
    assert generator.main([str(tmp_path), "--train", "12", "--test", "5", "--seed", "2"]) == 0
    (x_train, _), (x_test, _) = trainer.load_fashion_mnist(tmp_path)
    assert x_train.shape == (12, 28, 28) and x_test.shape == (5, 28, 28)


@pytest.mark.slow
def test_default_size_matches_the_real_files_byte_for_byte_in_length(
    generator: ModuleType, tmp_path: Path
) -> None:
    generator.main([str(tmp_path)])
    sizes = {p.name: len(gzip.decompress(p.read_bytes())) for p in tmp_path.iterdir()}
    assert sizes == {
        "train-images-idx3-ubyte.gz": 47_040_016,
        "train-labels-idx1-ubyte.gz": 60_008,
        "t10k-images-idx3-ubyte.gz": 7_840_016,
        "t10k-labels-idx1-ubyte.gz": 10_008,
    }


def test_notebook_is_committed_clean_and_parameterisable(sample_dir: Path) -> None:
    nbformat = pytest.importorskip("nbformat")
    notebook = nbformat.read(sample_dir / "fashion_mnist.ipynb", as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(not cell.outputs and cell.execution_count is None for cell in code), "clear the outputs"
    tagged = [cell for cell in code if "parameters" in cell.metadata.get("tags", [])]
    assert len(tagged) == 1 and "SAMPLE_DIR" in tagged[0].source and "ROOT" in tagged[0].source
