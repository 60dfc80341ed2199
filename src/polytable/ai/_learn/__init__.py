"""Players that learn from self-play: a small NumPy value network, its weights files (checked against the
game's rules version) and the training loop behind ``polytable train`` (docs/ai-training.md).

Needs NumPy (the ``learn`` extra); the plot of the learning curve also needs matplotlib.
"""

from ._net import ValueNet, WeightsError, load_value_net
from ._train import LEARNERS, TrainConfig, train

__all__ = ["LEARNERS", "TrainConfig", "ValueNet", "WeightsError", "load_value_net", "train"]
