"""Datasets: the embedded digits set, and Keras's downloadable loaders.

`digits` ships with the package. The others download on first use into
`$HIKERAS_HOME/datasets` (default `~/.hikeras/datasets`), verify the
file's hash and write it atomically; offline, the error names the exact
path where to copy the file by hand.
"""

from hikeras.datasets import (
    boston_housing,
    california_housing,
    cifar10,
    cifar100,
    digits,
    fashion_mnist,
    imdb,
    mnist,
    reuters,
)

__all__ = ["boston_housing", "california_housing", "cifar10", "cifar100", "digits",
           "fashion_mnist", "imdb", "mnist", "reuters"]
