# Noise of the eighth round, beside blind7/noise.py (deterministic).
import base64, codecs, os, sys
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "blind7"))
from noise import zw, homo, leet, mixcase, fold, spaced  # noqa: F401

def typo(s, every=4):
    """swap two inner letters of every n-th word of five letters or more"""
    out = []
    for i, w in enumerate(s.split(" ")):
        if i % every == 1 and len(w) >= 5 and w.isalpha():
            w = w[0] + w[2] + w[1] + w[3:]
        out.append(w)
    return " ".join(out)

def drop(s, every=5):
    """drop one inner letter of every n-th long word"""
    out = []
    for i, w in enumerate(s.split(" ")):
        if i % every == 2 and len(w) >= 6 and w.isalpha():
            w = w[:2] + w[3:]
        out.append(w)
    return " ".join(out)

def dotted(s):
    """letters of long words separated by dots"""
    return " ".join(".".join(w) if len(w) >= 5 and w.isalpha() else w for w in s.split(" "))

def b64(s):
    return base64.b64encode(s.encode()).decode()

def rot13(s):
    return codecs.encode(s, "rot13")

def hexs(s):
    return s.encode().hex()

def nbsp(s):
    return s.replace(" ", "\u00a0")

def soft(s):
    """soft hyphens inside long words"""
    return " ".join(w[:3] + "\u00ad" + w[3:] if len(w) >= 7 else w for w in s.split(" "))
