"""A SHA-256 of the JSON a full-model `.h5` holds, so a damaged config is refused.

Per-array checksums (`checksums.py`) guard the weights; a full-model `.h5`
also holds the architecture (`model_config`) and the compile state
(`training_config`) as JSON attributes, where one flipped bit can turn a
`learning_rate` of 0.001 into 0.005 or rename a layer and still parse.
hikeras writes the SHA-256 of each of these texts next to it, as the root
attribute `hikeras_<name>_sha256` (Keras's loaders read only the attributes
they know), and loading refuses a text that does not match. Files without it
(Keras's own) load as before.
"""

import hashlib

from .file_errors import file_error
from .h5_attributes import read_string


def _attribute(name):
    return f"hikeras_{name}_sha256"


def _digest(text):
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def stamp(attrs, name, text):
    """Records the checksum of the JSON `text` stored as attribute `name`."""
    attrs[_attribute(name)] = _digest(text)


def check(attrs, name, text, source):
    """Raises `SavedFileError` when `text` does not match its recorded checksum."""
    recorded = read_string(attrs, _attribute(name), source)
    if recorded is not None and recorded != _digest(text):
        raise file_error(source, f"is corrupt: its '{name}' does not match the checksum "
                                 "recorded when the file was written")


def check_coverage(plan, source):
    """Refuses a file in which some weights carry a checksum and others do not.

    hikeras stamps every weight it writes (`checksums.write_dataset`), so in a
    file it wrote, a weight without a checksum was replaced after the fact
    (with another dtype, say) and cannot be trusted; a file with no checksums
    at all (Keras's) loads as before. Layer weights and optimizer variables
    count apart: `BackupAndRestore` stamps the first and not the second.
    """
    for is_layer_weight in (True, False):
        weights = {id(saved): saved for target, saved in plan
                   if hasattr(target, "layer") == is_layer_weight}
        unstamped = [s.name for s in weights.values() if s.checksum is None]
        if unstamped and len(unstamped) < len(weights):
            raise file_error(source, f"is corrupt: its weights carry checksums, but not "
                                     f"{unstamped[:5]}; they were replaced after the file "
                                     "was written. Nothing was loaded")


def keras_zip_metadata(config_text):
    """The entry `.keras` archives add to `metadata.json`: `config.json`'s checksum."""
    return {_attribute("config_json"): _digest(config_text)}


def check_keras_zip_config(metadata, config_text, source):
    """Refuses a `config.json` that does not match the checksum in `metadata.json`."""
    recorded = metadata.get(_attribute("config_json")) if isinstance(metadata, dict) else None
    if recorded is not None and recorded != _digest(config_text):
        raise file_error(source, "is corrupt: its 'config.json' does not match the checksum "
                                 "recorded in 'metadata.json' when the file was written")
