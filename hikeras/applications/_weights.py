"""Finding and loading the weight files Keras publishes for its applications.

`weights="imagenet"` never downloads: the file must already be in the Keras
cache, `$KERAS_HOME/models/` when `KERAS_HOME` is set, else
`~/.keras/models/` (where Keras itself keeps them, so a machine that ran
Keras once already has them). A missing file is an error that gives the file
name, the URL to fetch it from and the folder to put it in; a file whose hash
differs from the one Keras lists is refused.
"""

import dataclasses
import os

from ..utils.file_utils import hash_file, resolve_hash_algorithm

_STORAGE = "https://storage.googleapis.com/tensorflow/keras-applications/"


@dataclasses.dataclass(frozen=True)
class PublishedFile:
    """A file Keras publishes: its cache name, download URL and hash (MD5 or SHA-256)."""

    file_name: str
    origin: str
    file_hash: str = None


def published_weights(subdir, file_name, file_hash=None):
    """The `PublishedFile` for `file_name` under Keras's `keras-applications/<subdir>/`."""
    return PublishedFile(file_name, f"{_STORAGE}{subdir}/{file_name}", file_hash)


def keras_cache_dirs():
    """The folders searched for published files, in order."""
    dirs = []
    if os.environ.get("KERAS_HOME"):
        dirs.append(os.path.join(os.environ["KERAS_HOME"], "models"))
    default = os.path.join(os.path.expanduser("~"), ".keras", "models")
    if default not in dirs:
        dirs.append(default)
    return dirs


def find_published_file(published, what):
    """The local path of `published` in the Keras cache, verified against its hash.

    Args:
        published: a `PublishedFile`.
        what: what the file is for, for error messages (e.g. "ResNet50's ImageNet weights").

    Raises:
        FileNotFoundError: the file is in none of the cache folders; the message
            names the file, its URL and the folder to put it in.
        ValueError: the file is there but its hash is not the published one.
    """
    dirs = keras_cache_dirs()
    for folder in dirs:
        path = os.path.join(folder, published.file_name)
        if os.path.isfile(path):
            _verify_hash(path, published, what)
            return path
    searched = " or ".join(dirs)
    hash_note = ""
    if published.file_hash:
        algorithm = resolve_hash_algorithm(published.file_hash)
        hash_note = f" Its {algorithm.upper()} must be {published.file_hash}."
    raise FileNotFoundError(
        f"{what} are not on this machine, and hikeras does not download them. "
        f"Fetch '{published.file_name}' from {published.origin} and put it in {dirs[0]} "
        f"(searched: {searched}).{hash_note} For example: "
        f"mkdir -p {dirs[0]} && curl -L -o {os.path.join(dirs[0], published.file_name)} "
        f"{published.origin}")


def _verify_hash(path, published, what):
    if not published.file_hash:
        return
    algorithm = resolve_hash_algorithm(published.file_hash)
    actual = hash_file(path, algorithm)
    if actual != published.file_hash.lower():
        raise ValueError(
            f"{path} is not the file Keras publishes for {what}: its {algorithm.upper()} is "
            f"{actual}, expected {published.file_hash}. It is damaged or another file; fetch it "
            f"again from {published.origin}.")


def check_weights_argument(weights):
    """`weights` must be None, "imagenet" or the path of an existing file (Keras's rule)."""
    if weights is None or (isinstance(weights, str) and weights == "imagenet"):
        return
    if isinstance(weights, (str, os.PathLike)) and os.path.exists(weights):
        return
    raise ValueError("The `weights` argument should be either `None` (random initialization), "
                     "'imagenet' (pre-training on ImageNet), or the path to the weights file to "
                     f"be loaded. Received: weights={weights!r}")


def load_weights_into(model, weights, published, description):
    """Loads `weights` (None, "imagenet" or a path) into a freshly built application `model`.

    Args:
        model: the built application.
        weights: the constructor's `weights` argument.
        published: the `PublishedFile` for `weights="imagenet"` (None when Keras
            publishes none for this configuration).
        description: the configuration in words, e.g. "MobileNet (alpha=0.5,
            include_top=False)", for error messages.

    A file that does not fit (another architecture, another `alpha`, a top
    where there is none) raises a `ValueError` naming the file, the
    configuration and, from the loader, the first layer that differs.
    """
    if weights is None:
        return
    if isinstance(weights, str) and weights == "imagenet":
        if published is None:
            raise ValueError(f"Keras publishes no ImageNet weights for {description}. "
                             "Received: weights='imagenet'")
        path = find_published_file(published, f"{description}'s ImageNet weights")
    else:
        path = os.fspath(weights)
    try:
        model.load_weights(path)
    except ValueError as error:
        raise ValueError(f"Cannot load these weights into {description}. "
                         f"{_shortened(str(error))}") from None


def _shortened(message, limit=700):
    """The loader's message, its middle (long lists of layer names) cut past `limit` characters."""
    if len(message) <= limit:
        return message
    return f"{message[:limit - 200]} [...] {message[-200:]}"
