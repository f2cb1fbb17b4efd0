"""Text the user typed, shown as typed: never read as HTML by Qt's rich-text guess.

Qt shows a tooltip as rich text when it *looks* like HTML (``Qt::mightBeRichText``),
so a figure named ``<b>x</b>`` would show a bold x, and ``<img src=...>`` would
load an image (issue 17).  Escaping alone is not enough: escaped text no longer
looks like HTML, so Qt would show the entities themselves.  The tooltip is
therefore always rich text, with the user's text escaped and its line breaks kept.
"""

from __future__ import annotations

import html


def plain_tooltip(text: str) -> str:
    """A tooltip showing ``text`` literally, line breaks included.

    >>> plain_tooltip("<b>Vipers</b> & co\\nRep 4")
    '<qt>&lt;b&gt;Vipers&lt;/b&gt; &amp; co<br>Rep 4</qt>'
    """
    if not text:
        return ""
    return "<qt>" + html.escape(text, quote=False).replace("\n", "<br>") + "</qt>"
