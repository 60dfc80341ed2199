"""A small value network in NumPy: a multilayer perceptron (tanh hidden layers, one sigmoid output: the
probability that the player to move wins), trained with Adam on the binary cross-entropy.

Why NumPy and not a framework: the networks are a few thousand weights, the positions a few hundred
thousand; a framework would be a heavy dependency for the server and the offline app at play time, where
only :meth:`ValueNet.predict` runs.

Weights files (``.npz``) carry their identity: the game id, the game's rules version, the feature set's
name and version, and the layer sizes. :func:`load_value_net` refuses a file made for another game, rules
version or feature set with a :class:`WeightsError` that says which and why, since a value learnt under
other rules is not a value of these positions.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ...core import ConfigError

__all__ = ["Adam", "ValueNet", "WeightsError", "load_value_net"]

Array = npt.NDArray[np.float32]


class WeightsError(ConfigError):
    """A weights file that does not fit the game, its rules version or the feature set asked for."""


@dataclass(frozen=True)
class _Meta:
    game: str
    rules_version: str
    features: str
    sizes: tuple[int, ...]


class ValueNet:
    """``sizes[0]`` inputs, tanh hidden layers of ``sizes[1:-1]``, one sigmoid output."""

    def __init__(self, game: str, rules_version: str, features: str, sizes: tuple[int, ...], seed: int = 0) -> None:
        if len(sizes) < 2 or sizes[-1] != 1:
            raise ConfigError("a value net needs at least an input and the one output")
        self.meta = _Meta(game, str(rules_version), features, tuple(int(s) for s in sizes))
        rng = np.random.default_rng(seed)
        self.weights: list[Array] = []
        self.biases: list[Array] = []
        for n_in, n_out in itertools.pairwise(sizes):
            scale = np.sqrt(1.0 / n_in)  # keeps tanh units out of saturation at the start
            self.weights.append((rng.standard_normal((n_in, n_out)) * scale).astype(np.float32))
            self.biases.append(np.zeros(n_out, np.float32))

    # ------------------------------------------------------------------ inference
    def logits(self, x: Array) -> Array:
        """The output before the sigmoid, one per row of ``x``."""
        h = x
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            h = h @ w + b
            if i < last:
                h = np.tanh(h)
        return h[:, 0]

    def predict(self, x: Array) -> Array:
        """The probability that the player to move wins, one per row of ``x``."""
        out: Array = (1.0 / (1.0 + np.exp(-self.logits(x)))).astype(np.float32)
        return out

    # ------------------------------------------------------------------ training
    def gradients(self, x: Array, y: Array) -> tuple[float, list[Array], list[Array]]:
        """Mean binary cross-entropy of the batch and its gradients (weights, biases)."""
        acts = [x]
        h = x
        last = len(self.weights) - 1
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            h = h @ w + b
            if i < last:
                h = np.tanh(h)
            acts.append(h)
        z = acts[-1][:, 0]
        p = 1.0 / (1.0 + np.exp(-z))
        eps = 1e-7
        loss = float(-np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)))
        delta = ((p - y) / len(y)).astype(np.float32)[:, None]
        gw: list[Array] = [np.empty(0, np.float32)] * len(self.weights)
        gb: list[Array] = [np.empty(0, np.float32)] * len(self.weights)
        for i in range(last, -1, -1):
            gw[i] = acts[i].T @ delta
            gb[i] = delta.sum(axis=0)
            if i > 0:
                delta = (delta @ self.weights[i].T) * (1.0 - acts[i] ** 2)
        return loss, gw, gb

    def loss(self, x: Array, y: Array) -> float:
        """Mean binary cross-entropy (no gradients)."""
        p = self.predict(x)
        eps = 1e-7
        return float(-np.mean(y * np.log(p + eps) + (1 - y) * np.log(1 - p + eps)))

    def copy(self) -> ValueNet:
        other = ValueNet.__new__(ValueNet)
        other.meta = self.meta
        other.weights = [w.copy() for w in self.weights]
        other.biases = [b.copy() for b in self.biases]
        return other

    # ------------------------------------------------------------------ files
    def save(self, path: Path) -> None:
        """Write the weights and their identity to ``path`` (an ``.npz``)."""
        meta = json.dumps(
            {
                "game": self.meta.game,
                "rules_version": self.meta.rules_version,
                "features": self.meta.features,
                "sizes": list(self.meta.sizes),
            }
        )
        arrays: dict[str, Any] = {"meta": np.array(meta)}
        for i, (w, b) in enumerate(zip(self.weights, self.biases, strict=True)):
            arrays[f"w{i}"] = w
            arrays[f"b{i}"] = b
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "wb") as fh:
            np.savez(fh, **arrays)


def load_value_net(path: Path, game: str, rules_version: str, features: str) -> ValueNet:
    """The network in ``path``, refused (:class:`WeightsError`) unless it was made for ``game`` under
    ``rules_version`` with the feature set ``features``."""
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            sizes = tuple(int(s) for s in meta["sizes"])
            weights = [np.asarray(data[f"w{i}"], np.float32) for i in range(len(sizes) - 1)]
            biases = [np.asarray(data[f"b{i}"], np.float32) for i in range(len(sizes) - 1)]
    except FileNotFoundError:
        raise WeightsError(f"no weights file at {path}") from None
    except (OSError, KeyError, ValueError) as exc:
        raise WeightsError(f"{path} is not a polytable weights file ({exc})") from None
    if meta.get("game") != game:
        raise WeightsError(f"{path} holds weights for {meta.get('game')!r}, not {game!r}")
    if str(meta.get("rules_version")) != str(rules_version):
        raise WeightsError(
            f"{path} was trained under {game} rules version {meta.get('rules_version')}, but the rules are now "
            f"version {rules_version}: a value learnt under other rules does not apply (train again)"
        )
    if meta.get("features") != features:
        raise WeightsError(f"{path} uses the feature set {meta.get('features')!r}, this player reads {features!r}")
    net = ValueNet.__new__(ValueNet)
    net.meta = _Meta(game, str(rules_version), features, sizes)
    for i, w in enumerate(weights):
        if w.shape != (sizes[i], sizes[i + 1]) or biases[i].shape != (sizes[i + 1],):
            raise WeightsError(f"{path}: layer {i} does not have the shape its header gives")
    net.weights, net.biases = weights, biases
    return net


class Adam:
    """The Adam optimiser over a network's weights and biases (its moments are part of a checkpoint)."""

    def __init__(self, net: ValueNet, lr: float = 1e-3, beta1: float = 0.9, beta2: float = 0.999) -> None:
        self.lr, self.beta1, self.beta2 = lr, beta1, beta2
        self.t = 0
        self.m = [np.zeros_like(p) for p in net.weights + net.biases]
        self.v = [np.zeros_like(p) for p in net.weights + net.biases]

    def step(self, net: ValueNet, gw: list[Array], gb: list[Array], weight_decay: float = 0.0) -> None:
        self.t += 1
        params = net.weights + net.biases
        grads = gw + gb
        c1 = 1 - self.beta1**self.t
        c2 = 1 - self.beta2**self.t
        for i, (p, g) in enumerate(zip(params, grads, strict=True)):
            if weight_decay and i < len(net.weights):
                g = g + weight_decay * p
            self.m[i] = self.beta1 * self.m[i] + (1 - self.beta1) * g
            self.v[i] = self.beta2 * self.v[i] + (1 - self.beta2) * g * g
            p -= (self.lr * (self.m[i] / c1) / (np.sqrt(self.v[i] / c2) + 1e-8)).astype(np.float32)
