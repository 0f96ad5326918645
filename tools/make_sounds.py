#!/usr/bin/env python3
"""Synthesises the game's sounds into assets/audio/*.ogg.

Every sound is built here from sine modes, filtered noise and envelopes (no recordings),
written as 16-bit mono WAV and encoded to Ogg Vorbis with oggenc (Debian package
vorbis-tools). Noise is seeded and the Ogg serial numbers are fixed, so a run gives the
same files again.

    python3 tools/make_sounds.py            # writes assets/audio/*.ogg
    python3 tools/make_sounds.py --wav DIR  # also keeps the WAV files in DIR
"""

import argparse
import math
import os
import random
import shutil
import struct
import subprocess
import sys
import tempfile
import wave

RATE = 44100
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT_DIR = os.path.join(ROOT, "assets", "audio")


def silence(seconds):
    return [0.0] * int(seconds * RATE)


def mix_into(dest, src, at=0.0, gain=1.0):
    """Adds src into dest starting at `at` seconds, growing dest as needed."""
    start = int(at * RATE)
    if len(dest) < start + len(src):
        dest.extend([0.0] * (start + len(src) - len(dest)))
    for i, s in enumerate(src):
        dest[start + i] += gain * s


def modes(length, partials, attack=0.0015):
    """A struck object: sum of (frequency, amplitude, decay seconds) damped sines."""
    n = int(length * RATE)
    out = [0.0] * n
    for freq, amp, decay in partials:
        w = 2 * math.pi * freq / RATE
        k = math.exp(-1.0 / (decay * RATE))
        env = amp
        for i in range(n):
            out[i] += env * math.sin(w * i)
            env *= k
    a = max(1, int(attack * RATE))
    for i in range(min(a, n)):
        out[i] *= i / a
    return out


def bandpass(signal, centre, q):
    """RBJ biquad band-pass (constant peak gain), for shaping noise. `centre` is a
    frequency or a function of the position 0..1 in the signal, for sweeps; the filter
    state carries across changes so a sweep does not click."""
    x1 = x2 = y1 = y2 = 0.0
    out = []
    n = max(1, len(signal))
    coeffs = None
    for i, x in enumerate(signal):
        if coeffs is None or (callable(centre) and i % 32 == 0):
            f = centre(i / n) if callable(centre) else centre
            w0 = 2 * math.pi * f / RATE
            alpha = math.sin(w0) / (2 * q)
            a0 = 1 + alpha
            coeffs = (alpha / a0, -alpha / a0, -2 * math.cos(w0) / a0, (1 - alpha) / a0)
        b0, b2, a1, a2 = coeffs
        y = b0 * x + b2 * x2 - a1 * y1 - a2 * y2
        x2, x1, y2, y1 = x1, x, y1, y
        out.append(y)
    return out


def noise(length, rng):
    return [rng.uniform(-1.0, 1.0) for _ in range(int(length * RATE))]


def burst(length, centre, q, decay, rng):
    """A short filtered noise tick: the contact of wood on wood."""
    sig = bandpass(noise(length, rng), centre, q)
    k = math.exp(-1.0 / (decay * RATE))
    env = 1.0
    for i in range(len(sig)):
        sig[i] *= env
        env *= k
    return sig


def note(freq, length, amp=1.0, bright=1.0):
    """A soft mallet note (marimba-like partials at 1x, 4x and 10x)."""
    return modes(
        length,
        [
            (freq, amp, 0.35),
            (freq * 2.0, 0.18 * amp * bright, 0.15),
            (freq * 3.98, 0.25 * amp * bright, 0.07),
            (freq * 9.9, 0.06 * amp * bright, 0.025),
        ],
        attack=0.003,
    )


def normalise(sig, peak):
    top = max(abs(s) for s in sig) or 1.0
    fade = int(0.004 * RATE)
    out = [s * peak / top for s in sig]
    for i in range(min(fade, len(out))):
        out[len(out) - 1 - i] *= i / fade
    return out


def place(rng):
    """A man set down on the board: a low wooden knock."""
    s = modes(0.16, [(610, 1.0, 0.035), (1380, 0.55, 0.022), (2330, 0.3, 0.012), (3700, 0.15, 0.006)])
    mix_into(s, burst(0.02, 2600, 1.2, 0.003, rng), gain=2.5)
    return normalise(s, 0.9)


def hop(rng):
    """A capturing piece touching down between jumps: lighter and higher than a placement."""
    s = modes(0.12, [(880, 1.0, 0.022), (1990, 0.5, 0.014), (3150, 0.25, 0.007)])
    mix_into(s, burst(0.015, 3400, 1.5, 0.002, rng), gain=2.0)
    return normalise(s, 0.75)


def remove(rng):
    """A taken piece sliding off the board: a falling swish of filtered noise."""
    length = 0.34
    out = bandpass(noise(length, rng), lambda t: 1900 * (1 - t) + 420 * t, 2.0)
    n = len(out)
    for i in range(n):
        t = i / n
        out[i] *= math.sin(math.pi / 2 * t / 0.15) ** 2 if t < 0.15 else ((1 - t) / 0.85) ** 1.5
    mix_into(out, modes(0.1, [(420, 0.25, 0.02), (950, 0.1, 0.01)]), at=0.0)
    return normalise(out, 0.55)


def crown(rng):
    """A man crowned: a second disc lands on it, then a small chime."""
    s = modes(0.1, [(640, 1.0, 0.03), (1450, 0.5, 0.02), (2400, 0.25, 0.01)])
    mix_into(s, burst(0.02, 2600, 1.2, 0.003, rng), gain=2.0)
    mix_into(s, modes(0.1, [(1020, 0.9, 0.025), (2380, 0.45, 0.015)]), at=0.075)
    mix_into(s, burst(0.015, 3800, 1.5, 0.002, rng), at=0.075, gain=1.6)
    chime = modes(0.6, [(1568.0, 0.35, 0.25), (2349.3, 0.22, 0.2), (3136.0, 0.1, 0.12), (4702.6, 0.05, 0.06)], attack=0.004)
    mix_into(s, chime, at=0.12)
    return normalise(s, 0.85)


def refuse(rng):
    """Capture is compulsory: a soft, low buzz with a slight wobble."""
    length = 0.26
    n = int(length * RATE)
    out = []
    for i in range(n):
        t = i / RATE
        f = 146.8
        v = sum(math.sin(2 * math.pi * f * h * t) / h ** 1.3 for h in range(1, 9))
        v *= 0.75 + 0.25 * math.sin(2 * math.pi * 28 * t)
        env = min(1.0, t / 0.012) * min(1.0, (length - t) / 0.07)
        out.append(v * env)
    return normalise(out, 0.4)


def melody(notes, tail, peak, bright=1.0):
    """Notes as (frequency, start seconds, amplitude), each ringing `tail` seconds."""
    s = []
    for freq, at, amp in notes:
        mix_into(s, note(freq, tail, amp, bright), at=at)
    return normalise(s, peak)


C4, E4b, G4, C5, D5, E5, G5, C6 = 261.63, 311.13, 392.0, 523.25, 587.33, 659.25, 783.99, 1046.5


def won(rng):
    """Game won: a rising major arpeggio."""
    return melody([(C5, 0.0, 0.8), (E5, 0.11, 0.8), (G5, 0.22, 0.85), (C6, 0.33, 1.0), (G5, 0.33, 0.35)], 0.8, 0.7)


def lost(rng):
    """Game lost: a slow falling minor figure, darker in tone."""
    return melody([(G4, 0.0, 0.9), (E4b, 0.2, 0.9), (C4, 0.42, 1.0)], 0.8, 0.6, bright=0.5)


def drawn(rng):
    """Game drawn: an even, unresolved pair of figures."""
    return melody([(E5, 0.0, 0.8), (D5, 0.16, 0.8), (G4, 0.32, 0.7), (D5, 0.32, 0.5)], 0.8, 0.6, bright=0.7)


def ui_click(rng):
    """A button in the menus: a tiny, dry tick."""
    s = modes(0.045, [(2900, 1.0, 0.006), (5200, 0.4, 0.003)])
    mix_into(s, burst(0.01, 4500, 2.0, 0.0015, rng), gain=1.5)
    return normalise(s, 0.5)


SOUNDS = [
    ("place", place),
    ("hop", hop),
    ("remove", remove),
    ("crown", crown),
    ("refuse", refuse),
    ("won", won),
    ("lost", lost),
    ("drawn", drawn),
    ("click", ui_click),
]


def write_wav(path, sig):
    with wave.open(path, "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(b"".join(struct.pack("<h", int(max(-1.0, min(1.0, s)) * 32767)) for s in sig))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--wav", help="also keep the WAV files in this folder")
    args = parser.parse_args()
    if shutil.which("oggenc") is None:
        sys.exit("oggenc not found: install it with `apt-get install vorbis-tools`")
    os.makedirs(OUT_DIR, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        wav_dir = args.wav or tmp
        os.makedirs(wav_dir, exist_ok=True)
        for serial, (name, make) in enumerate(SOUNDS, start=1):
            rng = random.Random(serial)
            wav = os.path.join(wav_dir, name + ".wav")
            ogg = os.path.join(OUT_DIR, name + ".ogg")
            write_wav(wav, make(rng))
            subprocess.run(
                ["oggenc", "--quiet", "--quality", "3", "--serial", str(serial), "--discard-comments", "-o", ogg, wav],
                check=True,
            )
            print(f"{os.path.relpath(ogg, ROOT)}  {os.path.getsize(ogg)} bytes")


if __name__ == "__main__":
    main()
