"""The CJK character ranges shared by the token estimate and the search tokenizer.

A module of its own so the search side (the turn function's first request) reads the ranges without
compiling the token estimate's patterns, which only chunking uses.
"""

# Hangul jamo and syllables, kana, CJK ideographs and compatibility forms.
CJK_RANGES = (
    "\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff"
    "\ua960-\ua97f\uac00-\ud7af\ud7b0-\ud7ff\uf900-\ufaff"
)
