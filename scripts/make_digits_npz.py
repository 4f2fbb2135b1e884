"""Regenerates hikeras/datasets/data/digits.npz from scikit-learn's copy.

scikit-learn ships the 8x8 UCI "Optical Recognition of Handwritten Digits"
images (1,797 samples, pixel counts 0..16). This script converts that copy,
values unchanged, into the compressed archive hikeras embeds, so hikeras
itself never needs scikit-learn. Run it once from any environment that has
scikit-learn installed:

    python scripts/make_digits_npz.py
"""

import argparse
from pathlib import Path

import numpy as np

DEFAULT_OUT = (
    Path(__file__).resolve().parent.parent
    / "hikeras" / "datasets" / "data" / "digits.npz"
)


def convert(out_path):
    from sklearn.datasets import load_digits

    bunch = load_digits()
    images = np.asarray(bunch.images)
    labels = np.asarray(bunch.target)

    # The source holds small non-negative integers stored as floats/ints;
    # make sure the narrowing to uint8 loses nothing.
    if images.shape != (1797, 8, 8) or labels.shape != (1797,):
        raise RuntimeError(
            f"Unexpected shapes: images={images.shape}, labels={labels.shape}"
        )
    if not np.array_equal(images, np.round(images)):
        raise RuntimeError("Pixel values are not whole numbers.")
    if images.min() < 0 or images.max() > 16:
        raise RuntimeError("Pixel values fall outside 0..16.")
    if labels.min() < 0 or labels.max() > 9:
        raise RuntimeError("Labels fall outside 0..9.")

    out_path = Path(out_path)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        out_path,
        images=images.astype(np.uint8),
        labels=labels.astype(np.uint8),
    )
    return out_path


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(DEFAULT_OUT), help="output .npz path")
    args = parser.parse_args()
    path = convert(args.out)
    print(f"wrote {path} ({path.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
