"""plot_image_gallery: a batch of images in a matplotlib grid."""

import math

import numpy as np

from .images import batched_images, data_format_of, to_channels_last, to_value_range


def require_matplotlib(function):
    try:
        import matplotlib  # noqa: F401
    except ImportError as err:
        raise ImportError(f"{function}() needs `matplotlib`, which is not installed. Install "
                          'it with: pip install "hikeras[plot]"') from err


def _figure(rows, cols, scale, show):
    """A new figure: through pyplot when it is to be shown, else a standalone (Agg) one."""
    if show:
        import matplotlib.pyplot as plt
        return plt.figure(figsize=(cols * scale, rows * scale), frameon=False,
                          layout="tight")
    from matplotlib.figure import Figure
    return Figure(figsize=(cols * scale, rows * scale), frameon=False, layout="tight")


def plot_image_gallery(images, y_true=None, y_pred=None, label_map=None, rows=None, cols=None,
                       value_range=(0, 255), scale=2, path=None, show=None, transparent=True,
                       dpi=60, legend_handles=None, data_format=None):
    """Shows a batch of images in a grid, optionally titled with their labels.

    The grid has `rows` (default: the square root of the batch, rounded up)
    and `cols` (default: the batch size divided by `rows`, rounded down)
    cells, and shows the first `rows * cols` images, as Keras does.

    Args:
        images: `(batch, height, width, channels)` images (or channels first).
        y_true, y_pred: one class id per image, written above it through
            `label_map`.
        label_map: `{class id: name}`, required with `y_true` or `y_pred`.
        rows, cols: the grid's size.
        value_range: the images' value range, mapped to [0, 255] for display.
        scale: each cell's size in inches.
        path: a file to save the figure to (then it is not shown).
        show: whether to show the figure with `pyplot.show()` (default: when
            `path` is not given).
        transparent, dpi: passed to `savefig`.
        legend_handles: matplotlib handles for a legend under the grid.
        data_format: `"channels_last"` or `"channels_first"` (default: the
            configured image data format).

    Returns:
        The matplotlib `Figure` (Keras returns nothing).
    """
    name = "plot_image_gallery"
    require_matplotlib(name)
    if path is not None and show:
        raise ValueError(f"{name}() expects either `path` or `show=True`, not both. "
                         f"Received: path={path!r}, show={show!r}")
    if (y_true is not None or y_pred is not None) and label_map is None:
        raise ValueError(f"{name}() needs `label_map` to title images with `y_true` or "
                         "`y_pred`. Received: label_map=None")
    images = batched_images(name, images)
    show = path is None if show is None else show
    images = to_channels_last(images, data_format_of(name, data_format))
    batch = len(images)
    rows = rows or math.ceil(math.sqrt(batch))
    cols = cols or max(batch // rows, 1)
    if rows * cols > batch:
        raise ValueError(f"{name}() has {batch} images for a grid of rows={rows} x "
                         f"cols={cols}. Received: images.shape={images.shape}")
    images = to_value_range(images[:rows * cols], value_range)
    figure = _figure(rows, cols, scale, show)
    axes = np.asarray(figure.subplots(rows, cols, squeeze=False, sharex="row", sharey="col"))
    figure.subplots_adjust(wspace=0, hspace=0)
    if legend_handles is not None:
        figure.legend(handles=legend_handles, loc="lower center")
    for index, axis in enumerate(axes.reshape(-1)):
        image = np.clip(images[index], 0, 255).astype("uint8")
        axis.imshow(image[..., 0] if image.shape[-1] == 1 else image,
                    cmap="gray" if image.shape[-1] == 1 else None)
        axis.margins(x=0, y=0)
        axis.axis("off")
        title = []
        if y_true is not None and index < len(y_true):
            title.append(f"Label: {label_map.get(np.asarray(y_true)[index].item(), 'Unknown')}")
        if y_pred is not None and index < len(y_pred):
            title.append(f"Pred: {label_map.get(np.asarray(y_pred)[index].item(), 'Unknown')}")
        if title:
            axis.set_title("  ".join(title), fontsize=8)
    if path is not None:
        figure.savefig(path, pad_inches=0, bbox_inches="tight", transparent=transparent,
                       dpi=dpi)
    elif show:
        import matplotlib.pyplot as plt
        plt.show()
    return figure
