"""`get_file`: download a file once into hikeras' cache, verified and written atomically.

The cache lives in `$HIKERAS_HOME` (default `~/.hikeras`), under
`cache_subdir` (default `datasets`). A download streams into a temporary
file in the same directory while its hash is computed; only a verified,
fsynced file is renamed into place, so an interrupted or corrupted
transfer never leaves a bad file where a good one is expected. A cached
file whose hash does not match is downloaded again. When the download
fails (no network), the error says exactly where to put the file by hand.
"""

import hashlib
import os
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request

_CHUNK = 1 << 20


def cache_dir_root(override=None):
    """The cache root: `override`, else `$HIKERAS_HOME`, else `~/.hikeras`."""
    return override or os.environ.get("HIKERAS_HOME") or os.path.join(
        os.path.expanduser("~"), ".hikeras")


def resolve_hash_algorithm(file_hash, hash_algorithm="auto"):
    """`"sha256"` or `"md5"`; `"auto"` picks by the hash's length (64 hex digits: SHA-256)."""
    if hash_algorithm == "auto":
        return "sha256" if len(file_hash) == 64 else "md5"
    if hash_algorithm not in ("sha256", "md5"):
        raise ValueError('hash_algorithm must be "auto", "sha256" or "md5". '
                         f"Received: hash_algorithm={hash_algorithm!r}")
    return hash_algorithm


def hash_file(path, algorithm="sha256"):
    """The hex digest of the file at `path`."""
    digest = hashlib.new(algorithm)
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(_CHUNK), b""):
            digest.update(chunk)
    return digest.hexdigest()


def get_file(fname=None, origin=None, file_hash=None, cache_subdir="datasets",
             hash_algorithm="auto", cache_dir=None, force_download=False):
    """Returns the path of `fname` in the cache, downloading it from `origin` if needed.

    Args:
        fname: file name in the cache (default: the last part of `origin`).
            An absolute path is used as is.
        origin: the URL to download from (`https://`, `http://`, `file://`).
        file_hash: expected SHA-256 (or MD5) hex digest; the file is
            verified after download and before a cached copy is used.
        cache_subdir: subdirectory of the cache root.
        hash_algorithm: `"auto"`, `"sha256"` or `"md5"`.
        cache_dir: cache root (default `$HIKERAS_HOME` or `~/.hikeras`).
        force_download: download even if a valid copy is cached.

    Raises:
        ConnectionError: the download failed; the message says where to
            place the file by hand.
        ValueError: the downloaded file does not match `file_hash`.

    >>> import os, tempfile
    >>> root = tempfile.mkdtemp()
    >>> os.makedirs(os.path.join(root, "datasets"))
    >>> _ = open(os.path.join(root, "datasets", "hello.txt"), "w").write("hi")
    >>> path = get_file("hello.txt", origin="https://example.invalid/hello.txt", cache_dir=root)
    >>> open(path).read()
    'hi'
    """
    if origin is None:
        raise ValueError("get_file needs the `origin` URL to download from. Received: origin=None")
    fname = fname or os.path.basename(urllib.parse.urlparse(origin).path)
    if not fname:
        raise ValueError(f"Cannot infer a file name from origin={origin!r}; pass `fname`. "
                         "Received: fname=None")
    algorithm = resolve_hash_algorithm(file_hash, hash_algorithm) if file_hash else None
    fpath = os.path.join(cache_dir_root(cache_dir), cache_subdir, fname)
    os.makedirs(os.path.dirname(fpath), exist_ok=True)
    stale = False
    if os.path.exists(fpath) and not force_download:
        if file_hash is None or hash_file(fpath, algorithm) == file_hash.lower():
            return fpath
        stale = True
    _download(origin, fpath, file_hash, algorithm, stale)
    return fpath


def _download(origin, fpath, file_hash, algorithm, stale):
    """Streams `origin` into a temporary file next to `fpath`; verifies, fsyncs, renames."""
    print(f"Downloading data from {origin}", flush=True)
    digest = hashlib.new(algorithm or "sha256")
    partial = tempfile.NamedTemporaryFile(dir=os.path.dirname(fpath),
                                          prefix=os.path.basename(fpath) + ".",
                                          suffix=".part", delete=False)
    try:
        with partial:
            try:
                with urllib.request.urlopen(origin, timeout=60) as response:
                    total = response.headers.get("Content-Length")
                    with _progress(int(total) if total else None, os.path.basename(fpath)) as bar:
                        for chunk in iter(lambda: response.read(_CHUNK), b""):
                            partial.write(chunk)
                            digest.update(chunk)
                            bar.update(len(chunk))
            except (urllib.error.URLError, OSError) as error:
                raise ConnectionError(
                    _offline_message(origin, fpath, file_hash, algorithm, stale, error)
                ) from error
            partial.flush()
            os.fsync(partial.fileno())
        if file_hash and digest.hexdigest() != file_hash.lower():
            raise ValueError(
                f"The file downloaded from {origin} is corrupted or not the expected file: "
                f"its {algorithm.upper()} is {digest.hexdigest()}, expected {file_hash.lower()}. "
                f"Nothing was written to {fpath}. Received: {algorithm}={digest.hexdigest()}"
            )
        os.replace(partial.name, fpath)
    finally:
        if os.path.exists(partial.name):
            os.remove(partial.name)


def _offline_message(origin, fpath, file_hash, algorithm, stale, error):
    reason = getattr(error, "reason", None) or error
    message = f"Could not download {origin} ({reason}). "
    if stale:
        message += (f"The cached copy at {fpath} does not match the expected "
                    f"{algorithm.upper()}, so it cannot be used either. ")
    message += (f"If this machine is offline, download the file elsewhere and copy it to "
                f"{fpath}")
    if file_hash:
        message += f" (its {algorithm.upper()} must be {file_hash.lower()})"
    return message + "; it is then used without going online."


def _progress(total, name):
    """A tqdm byte counter on stderr (imported lazily to keep `import hikeras` light)."""
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024, desc=name,
                file=sys.stderr, leave=False)
