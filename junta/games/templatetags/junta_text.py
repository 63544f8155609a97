from django import template
from django.utils.safestring import SafeString

from junta.games.markdown import render_markdown

register = template.Library()


@register.filter(name="markdown")
def markdown_filter(text: str) -> SafeString:
    """Markdown a person wrote (a family's bio) to sanitised HTML, by the same rules as
    speeches (`junta.games.markdown`): raw HTML in it, a <script> among others, reads as
    written and never acts."""
    return render_markdown(text or "")
