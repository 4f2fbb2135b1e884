"""The Keras model zoo (`keras.applications`): Keras's architectures, layer for layer.

Each constructor builds the network with Keras's layer names, order and weight
layout, so the weight files Keras publishes load into it
(`weights="imagenet"` reads them from the Keras cache, never downloading; see
docs/applications.md). Each family's module also has its `preprocess_input`
and `decode_predictions`.

>>> from hikeras import applications
>>> model = applications.MobileNetV2(weights=None, alpha=0.35, include_top=False,
...                                  input_shape=(32, 32, 3), pooling="avg")
>>> model.outputs[0].shape
(None, 1280)
"""

from . import (convnext, densenet, efficientnet, efficientnet_v2, imagenet_utils,
               inception_resnet_v2, inception_v3, mobilenet, mobilenet_v2, mobilenet_v3, nasnet,
               resnet, resnet50, resnet_v2, vgg16, vgg19, xception)
from ..layers.layer_table import register_layer_classes
from .convnext import ConvNeXtBase, ConvNeXtLarge, ConvNeXtSmall, ConvNeXtTiny, ConvNeXtXLarge
from .densenet import DenseNet121, DenseNet169, DenseNet201
from .efficientnet import (EfficientNetB0, EfficientNetB1, EfficientNetB2, EfficientNetB3,
                           EfficientNetB4, EfficientNetB5, EfficientNetB6, EfficientNetB7)
from .efficientnet_v2 import (EfficientNetV2B0, EfficientNetV2B1, EfficientNetV2B2,
                              EfficientNetV2B3, EfficientNetV2L, EfficientNetV2M,
                              EfficientNetV2S)
from .inception_resnet_v2 import InceptionResNetV2
from .inception_v3 import InceptionV3
from .mobilenet import MobileNet
from .mobilenet_v2 import MobileNetV2
from .mobilenet_v3 import MobileNetV3Large, MobileNetV3Small
from .nasnet import NASNetLarge, NASNetMobile
from .resnet import ResNet50, ResNet101, ResNet152
from .resnet_v2 import ResNet50V2, ResNet101V2, ResNet152V2
from .vgg16 import VGG16
from .vgg19 import VGG19
from .xception import Xception

# The layers some architectures define join the layer table, so saved models that hold
# them rebuild without custom_objects (Keras finds them by importing their module;
# hikeras never imports by name, so the package above the table fills it, as models/ does).
APPLICATION_LAYERS = {"CustomScaleLayer": inception_resnet_v2.CustomScaleLayer,
                      "LayerScale": convnext.LayerScale,
                      "StochasticDepth": convnext.StochasticDepth}
register_layer_classes(APPLICATION_LAYERS)

__all__ = [
    "ConvNeXtBase", "ConvNeXtLarge", "ConvNeXtSmall", "ConvNeXtTiny", "ConvNeXtXLarge",
    "DenseNet121", "DenseNet169", "DenseNet201", "EfficientNetB0", "EfficientNetB1",
    "EfficientNetB2", "EfficientNetB3", "EfficientNetB4", "EfficientNetB5", "EfficientNetB6",
    "EfficientNetB7", "EfficientNetV2B0", "EfficientNetV2B1", "EfficientNetV2B2",
    "EfficientNetV2B3", "EfficientNetV2L", "EfficientNetV2M", "EfficientNetV2S",
    "InceptionResNetV2", "InceptionV3", "MobileNet", "MobileNetV2", "MobileNetV3Large",
    "MobileNetV3Small", "NASNetLarge", "NASNetMobile", "ResNet50", "ResNet50V2", "ResNet101",
    "ResNet101V2", "ResNet152", "ResNet152V2", "VGG16", "VGG19", "Xception",
    "convnext", "densenet", "efficientnet", "efficientnet_v2", "imagenet_utils",
    "inception_resnet_v2", "inception_v3", "mobilenet", "mobilenet_v2", "mobilenet_v3", "nasnet",
    "resnet", "resnet50", "resnet_v2", "vgg16", "vgg19", "xception",
]
